// row maxima and minima, the row shifted by and divided by its maximum (a block per row, 8 elements a
// thread held and loaded ahead): the CUDA backend's host emulation feeds rows of signed zeros, NaNs,
// infinities and subnormals (max(-0, +0) is +0, min(-0, +0) is -0, a NaN makes both NaN; divisions by
// zero, infinity and NaN, and of -0 and a subnormal, take the IEEE division)
func.func @main(%x: tensor<24x2048xf32>) -> (tensor<24xf32>, tensor<24xf32>, tensor<24x2048xf32>, tensor<24x2048xf32>) {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %pinf = stablehlo.constant dense<0x7F800000> : tensor<f32>
  %m = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<24x2048xf32>, tensor<f32>) -> tensor<24xf32>
  %n = stablehlo.reduce(%x init: %pinf) applies stablehlo.minimum across dimensions = [1] : (tensor<24x2048xf32>, tensor<f32>) -> tensor<24xf32>
  %mb = stablehlo.broadcast_in_dim %m, dims = [0] : (tensor<24xf32>) -> tensor<24x2048xf32>
  %d = stablehlo.subtract %x, %mb : tensor<24x2048xf32>
  %q = stablehlo.divide %x, %mb : tensor<24x2048xf32>
  return %m, %n, %d, %q : tensor<24xf32>, tensor<24xf32>, tensor<24x2048xf32>, tensor<24x2048xf32>
}
