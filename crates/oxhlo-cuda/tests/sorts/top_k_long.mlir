// The 7 largest of rows of 10000 f32 (longer than shared memory holds: in global memory, as over a
// vocabulary; inputs without NaNs, so the largest finite values and infinities are what is kept).
func.func @main(%v: tensor<2x10000xf32>) -> (tensor<2x7xf32>, tensor<2x7xi32>) {
  %b, %r = chlo.top_k(%v, k = 7) : tensor<2x10000xf32> -> (tensor<2x7xf32>, tensor<2x7xi32>)
  return %b, %r : tensor<2x7xf32>, tensor<2x7xi32>
}
