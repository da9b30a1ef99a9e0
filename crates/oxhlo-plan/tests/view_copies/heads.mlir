// Attention heads out of a fused projection: each of q, k, v is transpose(reshape(slice(qkv))), one view
// copy each (16-byte units: 4 floats per head row). k also feeds a transpose that moves the innermost dim
// (its own tiled kernel), and the slice of v is read twice (so it is stored, and only the rest chains).
func.func @main(%qkv: tensor<2x5x48xf32>) -> (tensor<2x4x5x4xf32>, tensor<2x4x4x5xf32>, tensor<2x4x5x4xf32>, tensor<2x5x16xf32>) {
  %q0 = stablehlo.slice %qkv [0:2, 0:5, 0:16] : (tensor<2x5x48xf32>) -> tensor<2x5x16xf32>
  %k0 = stablehlo.slice %qkv [0:2, 0:5, 16:32] : (tensor<2x5x48xf32>) -> tensor<2x5x16xf32>
  %v0 = stablehlo.slice %qkv [0:2, 0:5, 32:48] : (tensor<2x5x48xf32>) -> tensor<2x5x16xf32>
  %q1 = stablehlo.reshape %q0 : (tensor<2x5x16xf32>) -> tensor<2x5x4x4xf32>
  %q = stablehlo.transpose %q1, dims = [0, 2, 1, 3] : (tensor<2x5x4x4xf32>) -> tensor<2x4x5x4xf32>
  %k1 = stablehlo.reshape %k0 : (tensor<2x5x16xf32>) -> tensor<2x5x4x4xf32>
  %kt = stablehlo.transpose %k1, dims = [0, 2, 3, 1] : (tensor<2x5x4x4xf32>) -> tensor<2x4x4x5xf32>
  %v1 = stablehlo.reshape %v0 : (tensor<2x5x16xf32>) -> tensor<2x5x4x4xf32>
  %v = stablehlo.transpose %v1, dims = [0, 2, 1, 3] : (tensor<2x5x4x4xf32>) -> tensor<2x4x5x4xf32>
  %v2 = stablehlo.add %v0, %v0 : tensor<2x5x16xf32>
  return %q, %kt, %v, %v2 : tensor<2x4x5x4xf32>, tensor<2x4x4x5xf32>, tensor<2x4x5x4xf32>, tensor<2x5x16xf32>
}
