// A batch norm's backward pass over [N, C] = [8192, 128] behind a ReLU: two sums of one pass (the
// gradient and the gradient times the normalized input, merged into one kernel with one finishing
// launch), then the scale's and bias's SGD steps and the sums' means on [C], which read both sums (an
// epilogue of that finishing launch), and the input gradient.
func.func @main(%gy: tensor<8192x128xf32>, %y: tensor<8192x128xf32>, %xc: tensor<8192x128xf32>, %inv: tensor<128xf32>, %gamma: tensor<128xf32>, %beta: tensor<128xf32>) -> (tensor<8192x128xf32>, tensor<128xf32>, tensor<128xf32>) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %zf = stablehlo.constant dense<0.0> : tensor<8192x128xf32>
  %pos = stablehlo.compare GT, %y, %zf : (tensor<8192x128xf32>, tensor<8192x128xf32>) -> tensor<8192x128xi1>
  %g = stablehlo.select %pos, %gy, %zf : tensor<8192x128xi1>, tensor<8192x128xf32>
  %count = stablehlo.constant dense<8192.0> : tensor<128xf32>
  %lr = stablehlo.constant dense<0.01> : tensor<128xf32>
  %ib = stablehlo.broadcast_in_dim %inv, dims = [1] : (tensor<128xf32>) -> tensor<8192x128xf32>
  %xh = stablehlo.multiply %xc, %ib : tensor<8192x128xf32>
  %gx = stablehlo.multiply %g, %xh : tensor<8192x128xf32>
  %dbeta = stablehlo.reduce(%g init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<8192x128xf32>, tensor<f32>) -> tensor<128xf32>
  %dgamma = stablehlo.reduce(%gx init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<8192x128xf32>, tensor<f32>) -> tensor<128xf32>
  %sg = stablehlo.multiply %lr, %dgamma : tensor<128xf32>
  %gamma2 = stablehlo.subtract %gamma, %sg : tensor<128xf32>
  %sb = stablehlo.multiply %lr, %dbeta : tensor<128xf32>
  %beta2 = stablehlo.subtract %beta, %sb : tensor<128xf32>
  %mg = stablehlo.divide %dgamma, %count : tensor<128xf32>
  %mb = stablehlo.divide %dbeta, %count : tensor<128xf32>
  %k = stablehlo.multiply %gamma, %inv : tensor<128xf32>
  %kb = stablehlo.broadcast_in_dim %k, dims = [1] : (tensor<128xf32>) -> tensor<8192x128xf32>
  %mgb = stablehlo.broadcast_in_dim %mg, dims = [1] : (tensor<128xf32>) -> tensor<8192x128xf32>
  %mbb = stablehlo.broadcast_in_dim %mb, dims = [1] : (tensor<128xf32>) -> tensor<8192x128xf32>
  %t0 = stablehlo.multiply %xh, %mgb : tensor<8192x128xf32>
  %t1 = stablehlo.subtract %g, %mbb : tensor<8192x128xf32>
  %t2 = stablehlo.subtract %t1, %t0 : tensor<8192x128xf32>
  %dx = stablehlo.multiply %t2, %kb : tensor<8192x128xf32>
  return %dx, %gamma2, %beta2 : tensor<8192x128xf32>, tensor<128xf32>, tensor<128xf32>
}
