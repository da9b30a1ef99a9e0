// Written by hand: chlo.top_k of few (k <= 16) as the selection kernel takes them: bf16 and u32 rows
// (a warp a row), k = n, k = 16 of rows of 5000 (2 rows: the network form, which spreads long rows
// over blocks), 4 of 128 rows of 4100 (a block a row), i32 rows shorter than a warp's lanes. Inputs with ties, signed zeros, infinities and NaNs; expected values: the reference
// interpreter.
func.func @main(%a: tensor<3x50xbf16>, %b: tensor<4x64xui32>, %c: tensor<2x8xf32>, %d: tensor<2x5000xf32>, %e: tensor<3x20xi32>, %g: tensor<128x4100xf32>)
    -> (tensor<3x4xbf16>, tensor<3x4xi32>, tensor<4x8xui32>, tensor<4x8xi32>, tensor<2x8xf32>, tensor<2x8xi32>,
        tensor<2x16xf32>, tensor<2x16xi32>, tensor<3x3xi32>, tensor<3x3xi32>, tensor<128x4xf32>, tensor<128x4xi32>) {
  %a0, %a1 = chlo.top_k(%a, k = 4) : tensor<3x50xbf16> -> (tensor<3x4xbf16>, tensor<3x4xi32>)
  %b0, %b1 = chlo.top_k(%b, k = 8) : tensor<4x64xui32> -> (tensor<4x8xui32>, tensor<4x8xi32>)
  %c0, %c1 = chlo.top_k(%c, k = 8) : tensor<2x8xf32> -> (tensor<2x8xf32>, tensor<2x8xi32>)
  %d0, %d1 = chlo.top_k(%d, k = 16) : tensor<2x5000xf32> -> (tensor<2x16xf32>, tensor<2x16xi32>)
  %e0, %e1 = chlo.top_k(%e, k = 3) : tensor<3x20xi32> -> (tensor<3x3xi32>, tensor<3x3xi32>)
  %g0, %g1 = chlo.top_k(%g, k = 4) : tensor<128x4100xf32> -> (tensor<128x4xf32>, tensor<128x4xi32>)
  return %a0, %a1, %b0, %b1, %c0, %c1, %d0, %d1, %e0, %e1, %g0, %g1 : tensor<3x4xbf16>, tensor<3x4xi32>, tensor<4x8xui32>, tensor<4x8xi32>, tensor<2x8xf32>, tensor<2x8xi32>, tensor<2x16xf32>, tensor<2x16xi32>, tensor<3x3xi32>, tensor<3x3xi32>, tensor<128x4xf32>, tensor<128x4xi32>
}
