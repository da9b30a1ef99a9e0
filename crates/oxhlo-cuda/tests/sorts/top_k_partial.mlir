// chlo.top_k of few from long rows (a partial network: chunks of the next power of two of k sorted, then
// halved by rounds): the 7 largest of rows of 3000 f32 (NaNs of both signs, signed zeros, infinities
// and many ties: the element type's total order, ties by position; nine rounds), the largest of rows of
// 1000 i32 (k = 1), and the 16 largest of rows of 100 i32 (k a power of two, two rounds).
func.func @main(%x: tensor<3x3000xf32>, %i: tensor<2x1000xi32>, %j: tensor<5x100xi32>) -> (tensor<3x7xf32>, tensor<3x7xi32>, tensor<2x1xi32>, tensor<2x1xi32>, tensor<5x16xi32>, tensor<5x16xi32>) {
  %v, %p = chlo.top_k(%x, k = 7) : tensor<3x3000xf32> -> (tensor<3x7xf32>, tensor<3x7xi32>)
  %w, %q = chlo.top_k(%i, k = 1) : tensor<2x1000xi32> -> (tensor<2x1xi32>, tensor<2x1xi32>)
  %y, %r = chlo.top_k(%j, k = 16) : tensor<5x100xi32> -> (tensor<5x16xi32>, tensor<5x16xi32>)
  return %v, %p, %w, %q, %y, %r : tensor<3x7xf32>, tensor<3x7xi32>, tensor<2x1xi32>, tensor<2x1xi32>, tensor<5x16xi32>, tensor<5x16xi32>
}
