// Regression: compare with comparison type WEAKORDER (written by hand; expected values follow the
// weak order on floats: every NaN equals every other NaN and is greater than every number, -0 == +0).
// lhs: +NaN, -NaN, -0.0, 1.0, +inf, -NaN
// rhs: -NaN (other payload), +inf, +0.0, -inf, 1.0e30, 2.0

func.func @main() {
  %lhs = stablehlo.constant dense<[0x7FC00000, 0xFFC00000, 0x80000000, 1.0, 0x7F800000, 0xFFC00000]> : tensor<6xf32>
  %rhs = stablehlo.constant dense<[0xFFC00001, 0x7F800000, 0x00000000, 0xFF800000, 1.0e30, 2.0]> : tensor<6xf32>
  %eq = stablehlo.compare EQ, %lhs, %rhs, WEAKORDER : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
  %ne = stablehlo.compare NE, %lhs, %rhs, WEAKORDER : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
  %lt = stablehlo.compare LT, %lhs, %rhs, WEAKORDER : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
  %le = stablehlo.compare LE, %lhs, %rhs, WEAKORDER : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
  %gt = stablehlo.compare GT, %lhs, %rhs, WEAKORDER : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
  %ge = stablehlo.compare GE, %lhs, %rhs, WEAKORDER : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
  check.expect_eq_const %eq, dense<[true, false, true, false, false, false]> : tensor<6xi1>
  check.expect_eq_const %ne, dense<[false, true, false, true, true, true]> : tensor<6xi1>
  check.expect_eq_const %lt, dense<[false, false, false, false, false, false]> : tensor<6xi1>
  check.expect_eq_const %le, dense<[true, false, true, false, false, false]> : tensor<6xi1>
  check.expect_eq_const %gt, dense<[false, true, false, true, true, true]> : tensor<6xi1>
  check.expect_eq_const %ge, dense<[true, true, true, true, true, true]> : tensor<6xi1>
  func.return
}

// -----

// generic form with the attribute spelled out
func.func @main() {
  %lhs = stablehlo.constant dense<[0x7FF8000000000000, 3.0]> : tensor<2xf64>
  %rhs = stablehlo.constant dense<[0x7FF0000000000000, 0x7FF8000000000000]> : tensor<2xf64>
  %r = "stablehlo.compare"(%lhs, %rhs) {comparison_direction = #stablehlo<comparison_direction GT>, compare_type = #stablehlo<comparison_type WEAKORDER>} : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xi1>
  check.expect_eq_const %r, dense<[true, false]> : tensor<2xi1>
  func.return
}
