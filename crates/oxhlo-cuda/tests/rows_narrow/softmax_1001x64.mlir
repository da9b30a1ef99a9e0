// softmax over 1001 rows of 64 (a warp per row; two rows a warp with OXHLO_CUDA_ROW_LANES=16, 1001 rows: the
// last warp's second half has no row), as jax.nn.softmax emits it; the row maxima are a second output.
func.func @main(%x: tensor<1001x64xf32>) -> (tensor<1001x64xf32>, tensor<1001xf32>) {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %m = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<1001x64xf32>, tensor<f32>) -> tensor<1001xf32>
  %m3 = stablehlo.broadcast_in_dim %m, dims = [0] : (tensor<1001xf32>) -> tensor<1001x1xf32>
  %mb = stablehlo.broadcast_in_dim %m3, dims = [0, 1] : (tensor<1001x1xf32>) -> tensor<1001x64xf32>
  %d = stablehlo.subtract %x, %mb : tensor<1001x64xf32>
  %e = stablehlo.exponential %d : tensor<1001x64xf32>
  %z = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %s = stablehlo.reduce(%e init: %z) applies stablehlo.add across dimensions = [1] : (tensor<1001x64xf32>, tensor<f32>) -> tensor<1001xf32>
  %s1 = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<1001xf32>) -> tensor<1001x1xf32>
  %sb = stablehlo.broadcast_in_dim %s1, dims = [0, 1] : (tensor<1001x1xf32>) -> tensor<1001x64xf32>
  %r = stablehlo.divide %e, %sb : tensor<1001x64xf32>
  return %r, %m : tensor<1001x64xf32>, tensor<1001xf32>
}
