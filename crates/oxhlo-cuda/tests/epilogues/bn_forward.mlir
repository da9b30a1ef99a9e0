// A batch norm's forward pass over [N, C] = [4096, 64] as JAX writes it: per-channel mean and variance
// (column sums split into parts and finished over their partials), rsqrt(var + eps) and the running
// mean's update on [C] (small elementwise kernels that the sums' finishing pass runs), the normalized
// output.
func.func @main(%x: tensor<4096x64xf32>, %gamma: tensor<64xf32>, %beta: tensor<64xf32>, %rm: tensor<64xf32>) -> (tensor<4096x64xf32>, tensor<64xf32>, tensor<64xf32>) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %count = stablehlo.constant dense<4096.0> : tensor<64xf32>
  %eps = stablehlo.constant dense<1.0e-5> : tensor<64xf32>
  %mom = stablehlo.constant dense<0.9> : tensor<64xf32>
  %omm = stablehlo.constant dense<0.1> : tensor<64xf32>
  %sum = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<4096x64xf32>, tensor<f32>) -> tensor<64xf32>
  %mean = stablehlo.divide %sum, %count : tensor<64xf32>
  %mb = stablehlo.broadcast_in_dim %mean, dims = [1] : (tensor<64xf32>) -> tensor<4096x64xf32>
  %xc = stablehlo.subtract %x, %mb : tensor<4096x64xf32>
  %sq = stablehlo.multiply %xc, %xc : tensor<4096x64xf32>
  %ssq = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<4096x64xf32>, tensor<f32>) -> tensor<64xf32>
  %var = stablehlo.divide %ssq, %count : tensor<64xf32>
  %ve = stablehlo.add %var, %eps : tensor<64xf32>
  %inv = stablehlo.rsqrt %ve : tensor<64xf32>
  %rm1 = stablehlo.multiply %rm, %mom : tensor<64xf32>
  %mn1 = stablehlo.multiply %mean, %omm : tensor<64xf32>
  %rm2 = stablehlo.add %rm1, %mn1 : tensor<64xf32>
  %k = stablehlo.multiply %inv, %gamma : tensor<64xf32>
  %kb = stablehlo.broadcast_in_dim %k, dims = [1] : (tensor<64xf32>) -> tensor<4096x64xf32>
  %bb = stablehlo.broadcast_in_dim %beta, dims = [1] : (tensor<64xf32>) -> tensor<4096x64xf32>
  %y0 = stablehlo.multiply %xc, %kb : tensor<4096x64xf32>
  %y = stablehlo.add %y0, %bb : tensor<4096x64xf32>
  return %y, %inv, %rm2 : tensor<4096x64xf32>, tensor<64xf32>, tensor<64xf32>
}
