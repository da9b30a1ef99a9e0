// chlo.scan in the generic form (hand-written; expected values derived by hand, the first four from
// upstream's chlo.scan interpreter tests): the body gets the inputs' slices at each position along
// `dimension` followed by the carries, and returns per-position outputs followed by the new carries.

func.func @main() {
  %input = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %init = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = "chlo.scan"(%input, %init) <{dimension = 0 : i64, operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%a: tensor<i32>, %c: tensor<i32>):
    %1 = stablehlo.add %a, %c : tensor<i32>
    stablehlo.return %1, %1 : tensor<i32>, tensor<i32>
  }) : (tensor<4xi32>, tensor<i32>) -> (tensor<4xi32>, tensor<i32>)
  check.expect_eq_const %0#0, dense<[1, 3, 6, 10]> : tensor<4xi32>
  check.expect_eq_const %0#1, dense<10> : tensor<i32>
  func.return
}

// -----

func.func @main() {
  %input = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %init = stablehlo.constant dense<0> : tensor<2xi32>
  %0:2 = "chlo.scan"(%input, %init) <{dimension = 1 : i64, operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%a: tensor<2xi32>, %c: tensor<2xi32>):
    %1 = stablehlo.add %a, %c : tensor<2xi32>
    stablehlo.return %1, %1 : tensor<2xi32>, tensor<2xi32>
  }) : (tensor<2x3xi32>, tensor<2xi32>) -> (tensor<2x3xi32>, tensor<2xi32>)
  check.expect_eq_const %0#0, dense<[[1, 3, 6], [4, 9, 15]]> : tensor<2x3xi32>
  check.expect_eq_const %0#1, dense<[6, 15]> : tensor<2xi32>
  func.return
}

// -----

// Running maximum with its index (two inputs, two carries); ties keep the highest index.
func.func @main() {
  %input = stablehlo.constant dense<[3, 1, 4, 1, 5]> : tensor<5xi32>
  %iota = stablehlo.constant dense<[0, 1, 2, 3, 4]> : tensor<5xi32>
  %val_init = stablehlo.constant dense<-2147483648> : tensor<i32>
  %idx_init = stablehlo.constant dense<0> : tensor<i32>
  %0:4 = "chlo.scan"(%input, %iota, %val_init, %idx_init) <{dimension = 0 : i64, operandSegmentSizes = array<i32: 2, 2>}> ({
  ^bb0(%cur_val: tensor<i32>, %cur_idx: tensor<i32>, %run_val: tensor<i32>, %run_idx: tensor<i32>):
    %new_val = stablehlo.maximum %run_val, %cur_val : tensor<i32>
    %gt = stablehlo.compare GT, %run_val, %cur_val : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %eq = stablehlo.compare EQ, %run_val, %cur_val : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %max_idx = stablehlo.maximum %run_idx, %cur_idx : tensor<i32>
    %tie_or_less = stablehlo.select %eq, %max_idx, %cur_idx : tensor<i1>, tensor<i32>
    %new_idx = stablehlo.select %gt, %run_idx, %tie_or_less : tensor<i1>, tensor<i32>
    stablehlo.return %new_val, %new_idx, %new_val, %new_idx : tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>
  }) : (tensor<5xi32>, tensor<5xi32>, tensor<i32>, tensor<i32>) -> (tensor<5xi32>, tensor<5xi32>, tensor<i32>, tensor<i32>)
  check.expect_eq_const %0#0, dense<[3, 3, 4, 4, 5]> : tensor<5xi32>
  check.expect_eq_const %0#1, dense<[0, 0, 2, 2, 4]> : tensor<5xi32>
  check.expect_eq_const %0#2, dense<5> : tensor<i32>
  check.expect_eq_const %0#3, dense<4> : tensor<i32>
  func.return
}

// -----

// Reverse scan: suffix sums, each output at its own position.
func.func @main() {
  %input = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %init = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = "chlo.scan"(%input, %init) <{dimension = 0 : i64, is_reverse = true, operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%a: tensor<i32>, %c: tensor<i32>):
    %1 = stablehlo.add %a, %c : tensor<i32>
    stablehlo.return %1, %1 : tensor<i32>, tensor<i32>
  }) : (tensor<4xi32>, tensor<i32>) -> (tensor<4xi32>, tensor<i32>)
  check.expect_eq_const %0#0, dense<[10, 9, 7, 4]> : tensor<4xi32>
  check.expect_eq_const %0#1, dense<10> : tensor<i32>
  func.return
}

// -----

// Outputs of another shape than the inputs (the per-position sum of a row) and a carry of its own type
// (a running product in f32, exact in binary); no operandSegmentSizes (the inits are inferred).
func.func @main() {
  %input = stablehlo.constant dense<[[0.5, 1.5], [2.0, -4.0], [0.25, 0.75]]> : tensor<3x2xf32>
  %init = stablehlo.constant dense<1.0> : tensor<f32>
  %0:2 = "chlo.scan"(%input, %init) <{dimension = 0 : i64}> ({
  ^bb0(%row: tensor<2xf32>, %prod: tensor<f32>):
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %s = stablehlo.reduce(%row init: %z) applies stablehlo.add across dimensions = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<f32>
    %p = stablehlo.multiply %prod, %s : tensor<f32>
    stablehlo.return %s, %p : tensor<f32>, tensor<f32>
  }) : (tensor<3x2xf32>, tensor<f32>) -> (tensor<3xf32>, tensor<f32>)
  check.expect_eq_const %0#0, dense<[2.0, -2.0, 1.0]> : tensor<3xf32>
  check.expect_eq_const %0#1, dense<-4.0> : tensor<f32>
  func.return
}

// -----

// A scan of length 0: empty outputs, the carries are the inits.
func.func @main() {
  %input = stablehlo.constant dense<> : tensor<0x2xi64>
  %init = stablehlo.constant dense<[7, -7]> : tensor<2xi64>
  %0:2 = "chlo.scan"(%input, %init) <{dimension = 0 : i64, operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%a: tensor<2xi64>, %c: tensor<2xi64>):
    %1 = stablehlo.add %a, %c : tensor<2xi64>
    stablehlo.return %1, %1 : tensor<2xi64>, tensor<2xi64>
  }) : (tensor<0x2xi64>, tensor<2xi64>) -> (tensor<0x2xi64>, tensor<2xi64>)
  check.expect_eq_const %0#0, dense<> : tensor<0x2xi64>
  check.expect_eq_const %0#1, dense<[7, -7]> : tensor<2xi64>
  func.return
}

// -----

// Scan along the middle dimension of a rank-3 input with a boolean carry (running OR).
func.func @main() {
  %input = stablehlo.constant dense<[[[false, false], [true, false], [false, false]], [[false, true], [false, false], [false, false]]]> : tensor<2x3x2xi1>
  %init = stablehlo.constant dense<false> : tensor<2x2xi1>
  %0:2 = "chlo.scan"(%input, %init) <{dimension = 1 : i64, operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%a: tensor<2x2xi1>, %c: tensor<2x2xi1>):
    %1 = stablehlo.or %a, %c : tensor<2x2xi1>
    stablehlo.return %1, %1 : tensor<2x2xi1>, tensor<2x2xi1>
  }) : (tensor<2x3x2xi1>, tensor<2x2xi1>) -> (tensor<2x3x2xi1>, tensor<2x2xi1>)
  check.expect_eq_const %0#0, dense<[[[false, false], [true, false], [true, false]], [[false, true], [false, true], [false, true]]]> : tensor<2x3x2xi1>
  check.expect_eq_const %0#1, dense<[[true, false], [false, true]]> : tensor<2x2xi1>
  func.return
}
