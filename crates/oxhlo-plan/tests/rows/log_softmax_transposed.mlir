// log-softmax over rows of 300, whose result is also read transposed by a later op (the group ends
// there); and a per-row value broadcast along the columns (not a row broadcast: stays out of the group)
func.func @main(%x: tensor<300x300xf32>) -> (tensor<300x300xf32>, tensor<300x300xf32>) {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %m = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<300x300xf32>, tensor<f32>) -> tensor<300xf32>
  %mb = stablehlo.broadcast_in_dim %m, dims = [0] : (tensor<300xf32>) -> tensor<300x300xf32>
  %d = stablehlo.subtract %x, %mb : tensor<300x300xf32>
  %e = stablehlo.exponential %d : tensor<300x300xf32>
  %z = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %s = stablehlo.reduce(%e init: %z) applies stablehlo.add across dimensions = [1] : (tensor<300x300xf32>, tensor<f32>) -> tensor<300xf32>
  %l = stablehlo.log %s : tensor<300xf32>
  %lb = stablehlo.broadcast_in_dim %l, dims = [0] : (tensor<300xf32>) -> tensor<300x300xf32>
  %r = stablehlo.subtract %d, %lb : tensor<300x300xf32>
  %mc = stablehlo.broadcast_in_dim %m, dims = [1] : (tensor<300xf32>) -> tensor<300x300xf32>
  %t = stablehlo.transpose %r, dims = [1, 0] : (tensor<300x300xf32>) -> tensor<300x300xf32>
  %u = stablehlo.add %t, %mc : tensor<300x300xf32>
  return %r, %u : tensor<300x300xf32>, tensor<300x300xf32>
}
