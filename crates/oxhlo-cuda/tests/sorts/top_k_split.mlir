// Written by hand: chlo.top_k of few (k <= 16) from few long rows, which the selection kernel splits
// into parts, a block a part, then selects from the parts' candidates (`top_k_select::Form::Split`):
// f32 rows with NaNs, signed zeros and infinities (their best all in the first part), i64 and i16 rows
// whose best lie anywhere (ties in the i16 ones across parts), bf16 with k = 16, and f32 rows of the
// golden-ratio sequence's fractions (their best spread over the parts, computed by the program). Expected
// values: the reference interpreter.
func.func @main(%a: tensor<3x50000xf32>, %b: tensor<2x30000xi64>, %c: tensor<4x20000xi16>, %d: tensor<1x9000xbf16>)
    -> (tensor<3x8xf32>, tensor<3x8xi32>, tensor<2x8xi64>, tensor<2x8xi32>, tensor<4x5xi16>, tensor<4x5xi32>,
        tensor<1x16xbf16>, tensor<1x16xi32>, tensor<2x6xf32>, tensor<2x6xi32>) {
  %a0, %a1 = chlo.top_k(%a, k = 8) : tensor<3x50000xf32> -> (tensor<3x8xf32>, tensor<3x8xi32>)
  %b0, %b1 = chlo.top_k(%b, k = 8) : tensor<2x30000xi64> -> (tensor<2x8xi64>, tensor<2x8xi32>)
  %c0, %c1 = chlo.top_k(%c, k = 5) : tensor<4x20000xi16> -> (tensor<4x5xi16>, tensor<4x5xi32>)
  %d0, %d1 = chlo.top_k(%d, k = 16) : tensor<1x9000xbf16> -> (tensor<1x16xbf16>, tensor<1x16xi32>)
  %i = stablehlo.iota dim = 1 : tensor<2x40000xi32>
  %f = stablehlo.convert %i : (tensor<2x40000xi32>) -> tensor<2x40000xf32>
  %phi = stablehlo.constant dense<0.618034> : tensor<2x40000xf32>
  %one = stablehlo.constant dense<1.0> : tensor<2x40000xf32>
  %m = stablehlo.multiply %f, %phi : tensor<2x40000xf32>
  %g = stablehlo.remainder %m, %one : tensor<2x40000xf32>
  %g0, %g1 = chlo.top_k(%g, k = 6) : tensor<2x40000xf32> -> (tensor<2x6xf32>, tensor<2x6xi32>)
  return %a0, %a1, %b0, %b1, %c0, %c1, %d0, %d1, %g0, %g1 : tensor<3x8xf32>, tensor<3x8xi32>, tensor<2x8xi64>, tensor<2x8xi32>, tensor<4x5xi16>, tensor<4x5xi32>, tensor<1x16xbf16>, tensor<1x16xi32>, tensor<2x6xf32>, tensor<2x6xi32>
}
