// Regression: the pretty form of interpreter.probe and check.expect_serialized_eq against the values a
// probe recorded (iteration = the probe's N-th execution); and MLIR's split marker, which is matched as
// a substring, so the commented-out marker below still starts a new case (MLIR splitAndProcessBuffer).
// The last case: the pretty form of stablehlo.dynamic_conv.

func.func @main() {
  %x = stablehlo.constant dense<[1.5, -2.0]> : tensor<2xf32>
  %p = interpreter.probe %x, probe_id = "p0" : tensor<2xf32>
  check.expect_serialized_eq %p, probe_id = "p0" : tensor<2xf32>
  check.expect_eq_const %p, dense<[1.5, -2.0]> : tensor<2xf32>
  func.return
}

// // -----

func.func @main() {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c3 = stablehlo.constant dense<3> : tensor<i32>
  %r = stablehlo.while(%i = %c0) : tensor<i32>
  cond {
    %lt = stablehlo.compare LT, %i, %c3 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %n = stablehlo.add %i, %c1 : tensor<i32>
    %q = interpreter.probe %n, probe_id = "loop" : tensor<i32>
    stablehlo.return %q : tensor<i32>
  }
  %one = stablehlo.constant dense<1> : tensor<i32>
  %two = stablehlo.constant dense<2> : tensor<i32>
  check.expect_serialized_eq %one, probe_id = "loop" : tensor<i32>
  check.expect_serialized_eq %two, probe_id = "loop", iter = 1 : tensor<i32>
  check.expect_serialized_eq %r, probe_id = "loop", iter = 2 : tensor<i32>
  func.return
}

// -----

// pretty form of stablehlo.dynamic_conv (same syntax as convolution; padding is the third operand):
// 3x3 input 1..9, 2x2 kernel of ones, one zero row padded on top -> 3x2 window sums (by hand)
func.func @main() {
  %lhs = stablehlo.constant dense<[[[[1], [2], [3]], [[4], [5], [6]], [[7], [8], [9]]]]> : tensor<1x3x3x1xi32>
  %rhs = stablehlo.constant dense<1> : tensor<2x2x1x1xi32>
  %pad = stablehlo.constant dense<[[1, 0], [0, 0]]> : tensor<2x2xi64>
  %r = stablehlo.dynamic_conv(%lhs, %rhs, %pad)
    dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {stride = [1, 1]}
    {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
    : (tensor<1x3x3x1xi32>, tensor<2x2x1x1xi32>, tensor<2x2xi64>) -> tensor<1x3x2x1xi32>
  check.expect_eq_const %r, dense<[[[[3], [5]], [[12], [16]], [[24], [28]]]]> : tensor<1x3x2x1xi32>
  func.return
}
