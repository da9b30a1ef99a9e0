// top_k of rows longer than shared memory holds (as over a vocabulary; inputs without NaNs, so the
// largest finite values and infinities are what is kept): the 7 largest of rows of 10000 f32 and the 5
// largest of a row of 70000 (each chunk of 4096's first 8 found in shared memory, then the candidates
// sorted: two launches), and the 1500 largest of rows of 10000 (too many for that: the whole row sorted
// in global memory, its steps within chunks in shared memory).
func.func @main(%v: tensor<2x10000xf32>, %w: tensor<1x70000xf32>) -> (tensor<2x7xf32>, tensor<2x7xi32>, tensor<1x5xf32>, tensor<1x5xi32>, tensor<2x1500xf32>, tensor<2x1500xi32>) {
  %b, %r = chlo.top_k(%v, k = 7) : tensor<2x10000xf32> -> (tensor<2x7xf32>, tensor<2x7xi32>)
  %c, %s = chlo.top_k(%w, k = 5) : tensor<1x70000xf32> -> (tensor<1x5xf32>, tensor<1x5xi32>)
  %d, %t = chlo.top_k(%v, k = 1500) : tensor<2x10000xf32> -> (tensor<2x1500xf32>, tensor<2x1500xi32>)
  return %b, %r, %c, %s, %d, %t : tensor<2x7xf32>, tensor<2x7xi32>, tensor<1x5xf32>, tensor<1x5xi32>, tensor<2x1500xf32>, tensor<2x1500xi32>
}
