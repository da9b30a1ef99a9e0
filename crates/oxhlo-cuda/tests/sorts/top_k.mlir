// chlo.top_k as JAX's lax.top_k lowers it: the 5 largest of rows of 37 f32 (NaNs of both signs, signed
// zeros and ties: the element type's total order, ties by position) and all 100 of rows of i32.
func.func @main(%x: tensor<6x37xf32>, %i: tensor<4x100xi32>) -> (tensor<6x5xf32>, tensor<6x5xi32>, tensor<4x100xi32>, tensor<4x100xi32>) {
  %v, %p = chlo.top_k(%x, k = 5) : tensor<6x37xf32> -> (tensor<6x5xf32>, tensor<6x5xi32>)
  %w, %q = chlo.top_k(%i, k = 100) : tensor<4x100xi32> -> (tensor<4x100xi32>, tensor<4x100xi32>)
  return %v, %p, %w, %q : tensor<6x5xf32>, tensor<6x5xi32>, tensor<4x100xi32>, tensor<4x100xi32>
}
