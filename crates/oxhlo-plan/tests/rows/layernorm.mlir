// layer norm over rows of 384 with scale and bias (a warp per row), the mean and the inverse standard
// deviation also returned (per-row outputs, as a training step keeps them for the gradient); the two
// sums (of x and of x*x) do not depend on each other and share one pass
func.func @main(%x: tensor<37x384xf32>, %g: tensor<384xf32>, %b: tensor<384xf32>) -> (tensor<37x384xf32>, tensor<37xf32>, tensor<37x1xf32>) {
  %z = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<37x384xf32>, tensor<f32>) -> tensor<37xf32>
  %xx = stablehlo.multiply %x, %x : tensor<37x384xf32>
  %s2 = stablehlo.reduce(%xx init: %z) applies stablehlo.add across dimensions = [1] : (tensor<37x384xf32>, tensor<f32>) -> tensor<37xf32>
  %n = stablehlo.constant dense<3.840000e+02> : tensor<37xf32>
  %mean = stablehlo.divide %s, %n : tensor<37xf32>
  %ex2 = stablehlo.divide %s2, %n : tensor<37xf32>
  %mm = stablehlo.multiply %mean, %mean : tensor<37xf32>
  %var = stablehlo.subtract %ex2, %mm : tensor<37xf32>
  %eps = stablehlo.constant dense<9.99999974E-6> : tensor<37xf32>
  %ve = stablehlo.add %var, %eps : tensor<37xf32>
  %inv = stablehlo.rsqrt %ve : tensor<37xf32>
  %inv1 = stablehlo.reshape %inv : (tensor<37xf32>) -> tensor<37x1xf32>
  %mb = stablehlo.broadcast_in_dim %mean, dims = [0] : (tensor<37xf32>) -> tensor<37x384xf32>
  %ib = stablehlo.broadcast_in_dim %inv, dims = [0] : (tensor<37xf32>) -> tensor<37x384xf32>
  %gb = stablehlo.broadcast_in_dim %g, dims = [1] : (tensor<384xf32>) -> tensor<37x384xf32>
  %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<384xf32>) -> tensor<37x384xf32>
  %c = stablehlo.subtract %x, %mb : tensor<37x384xf32>
  %y0 = stablehlo.multiply %c, %ib : tensor<37x384xf32>
  %y1 = stablehlo.multiply %y0, %gb : tensor<37x384xf32>
  %y = stablehlo.add %y1, %bb : tensor<37x384xf32>
  return %y, %mean, %inv1 : tensor<37x384xf32>, tensor<37xf32>, tensor<37x1xf32>
}
