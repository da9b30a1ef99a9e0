// Regression: convert complex -> i1 uses the real part only (spec, convert: "for complex-to-any-other-type
// conversions the source imaginary value is ignored"), and reduce_precision with mantissa_bits = 0 turns
// a NaN into the infinity of its sign (no mantissa bit is left to keep it a NaN; XLA's behaviour).

func.func @main() {
  %z = stablehlo.constant dense<[(0.0, 1.0), (1.0, 0.0), (0.0, 0.0), (-2.5, -3.0)]> : tensor<4xcomplex<f32>>
  %b = stablehlo.convert %z : (tensor<4xcomplex<f32>>) -> tensor<4xi1>
  check.expect_eq_const %b, dense<[false, true, false, true]> : tensor<4xi1>
  func.return
}

// -----

func.func @main() {
  // 3.5 = 1.11b * 2^1 rounds up to 4.0, 2.5 = 1.01b * 2^1 rounds down to 2.0 (no ties)
  %x = stablehlo.constant dense<[0x7FF8000000000000, 0xFFF8000000000000, 3.5, 2.5]> : tensor<4xf64>
  %r = stablehlo.reduce_precision %x, format = e5m0 : tensor<4xf64>
  check.expect_eq_const %r, dense<[0x7FF0000000000000, 0xFFF0000000000000, 4.0, 2.0]> : tensor<4xf64>
  // with a mantissa bit left, NaN stays NaN
  %y = stablehlo.constant dense<[0x7FF8000000000000, 0xFFF8000000000000, 3.0]> : tensor<3xf64>
  %k = stablehlo.reduce_precision %y, format = e5m1 : tensor<3xf64>
  check.expect_eq_const %k, dense<[0x7FF8000000000000, 0xFFF8000000000000, 3.0]> : tensor<3xf64>
  func.return
}
