// softmax over rows of 4096 (a block per row, 32 elements a thread of 128 held in registers between
// its loops), as jax.nn.softmax emits it
func.func @main(%x: tensor<20x4096xf32>) -> tensor<20x4096xf32> {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %m = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<20x4096xf32>, tensor<f32>) -> tensor<20xf32>
  %nb = stablehlo.broadcast_in_dim %ninf, dims = [] : (tensor<f32>) -> tensor<20xf32>
  %m2 = stablehlo.maximum %nb, %m : tensor<20xf32>
  %m3 = stablehlo.broadcast_in_dim %m2, dims = [0] : (tensor<20xf32>) -> tensor<20x1xf32>
  %mb = stablehlo.broadcast_in_dim %m3, dims = [0, 1] : (tensor<20x1xf32>) -> tensor<20x4096xf32>
  %d = stablehlo.subtract %x, %mb : tensor<20x4096xf32>
  %e = stablehlo.exponential %d : tensor<20x4096xf32>
  %z = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %s = stablehlo.reduce(%e init: %z) applies stablehlo.add across dimensions = [1] : (tensor<20x4096xf32>, tensor<f32>) -> tensor<20xf32>
  %s1 = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<20xf32>) -> tensor<20x1xf32>
  %sb = stablehlo.broadcast_in_dim %s1, dims = [0, 1] : (tensor<20x1xf32>) -> tensor<20x4096xf32>
  %r = stablehlo.divide %e, %sb : tensor<20x4096xf32>
  return %r : tensor<20x4096xf32>
}
