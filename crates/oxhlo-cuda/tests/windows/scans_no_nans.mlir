// Prefix windows (JAX's cumulative ops as our platform receives them: a reduce_window whose window is the
// whole dimension, padded by n - 1 before): a cumulative sum down the columns of [50, 7] f32, a running
// maximum along the rows of [5, 40] i32, a running product of [4, 30] bf16, and a sum whose init (1.0) the
// reducer does not keep (1 + 1 = 2: each result folds its own padding taps, n - 1 - i of them).
func.func @main(%x: tensor<50x7xf32>, %y: tensor<5x40xi32>, %b: tensor<4x30xbf16>, %z: tensor<3x20xf32>) -> (tensor<50x7xf32>, tensor<5x40xi32>, tensor<4x30xbf16>, tensor<3x20xf32>) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %zero) <{window_dimensions = array<i64: 50, 1>, padding = dense<[[49, 0], [0, 0]]> : tensor<2x2xi64>}> ({
  ^bb0(%a: tensor<f32>, %c: tensor<f32>):
    %s = stablehlo.add %a, %c : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<50x7xf32>, tensor<f32>) -> tensor<50x7xf32>
  %min = stablehlo.constant dense<-2147483648> : tensor<i32>
  %1 = "stablehlo.reduce_window"(%y, %min) <{window_dimensions = array<i64: 1, 40>, window_strides = array<i64: 1, 1>, padding = dense<[[0, 0], [39, 0]]> : tensor<2x2xi64>}> ({
  ^bb0(%a: tensor<i32>, %c: tensor<i32>):
    %s = stablehlo.maximum %a, %c : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) : (tensor<5x40xi32>, tensor<i32>) -> tensor<5x40xi32>
  %one = stablehlo.constant dense<1.0> : tensor<bf16>
  %2 = "stablehlo.reduce_window"(%b, %one) <{window_dimensions = array<i64: 1, 30>, padding = dense<[[0, 0], [29, 0]]> : tensor<2x2xi64>}> ({
  ^bb0(%a: tensor<bf16>, %c: tensor<bf16>):
    %s = stablehlo.multiply %a, %c : tensor<bf16>
    stablehlo.return %s : tensor<bf16>
  }) : (tensor<4x30xbf16>, tensor<bf16>) -> tensor<4x30xbf16>
  %onef = stablehlo.constant dense<1.0> : tensor<f32>
  %3 = "stablehlo.reduce_window"(%z, %onef) <{window_dimensions = array<i64: 1, 20>, padding = dense<[[0, 0], [19, 0]]> : tensor<2x2xi64>}> ({
  ^bb0(%a: tensor<f32>, %c: tensor<f32>):
    %s = stablehlo.add %a, %c : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<3x20xf32>, tensor<f32>) -> tensor<3x20xf32>
  return %0, %1, %2, %3 : tensor<50x7xf32>, tensor<5x40xi32>, tensor<4x30xbf16>, tensor<3x20xf32>
}
