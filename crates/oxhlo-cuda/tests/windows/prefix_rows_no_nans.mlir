// Written by hand: cumulative windows along rows (what jnp.cumsum / cummax of the last axis lower to
// on platforms without their own rule), taken by the tiled prefix kernel (a block 32 rows, 256 columns
// at a time): 300 rows (ten blocks, the last partial) of 70 (three chunks of 32 columns, the last
// partial) summed from 0.0, 40 bf16 rows of 33 maxed from -inf, a sum from 1.0 (a reducer that changes
// its init value: each result folds its own taps, padding included), and 45 rows of 600 (three rounds
// of 256 columns, the last of 88) summed from 0.0. Expected values: the reference interpreter.
func.func @main(%x: tensor<300x70xf32>, %y: tensor<40x33xbf16>, %z: tensor<35x40xf32>, %w: tensor<45x600xf32>) -> (tensor<300x70xf32>, tensor<40x33xbf16>, tensor<35x40xf32>, tensor<45x600xf32>) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %ninf = stablehlo.constant dense<0xFF80> : tensor<bf16>
  %0 = "stablehlo.reduce_window"(%x, %zero) <{padding = dense<[[0, 0], [69, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 70>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<300x70xf32>, tensor<f32>) -> tensor<300x70xf32>
  %1 = "stablehlo.reduce_window"(%y, %ninf) <{padding = dense<[[0, 0], [32, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 33>}> ({
  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
    %m = stablehlo.maximum %a, %b : tensor<bf16>
    stablehlo.return %m : tensor<bf16>
  }) : (tensor<40x33xbf16>, tensor<bf16>) -> tensor<40x33xbf16>
  %2 = "stablehlo.reduce_window"(%z, %one) <{padding = dense<[[0, 0], [39, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 40>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<35x40xf32>, tensor<f32>) -> tensor<35x40xf32>
  %3 = "stablehlo.reduce_window"(%w, %zero) <{padding = dense<[[0, 0], [599, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 600>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<45x600xf32>, tensor<f32>) -> tensor<45x600xf32>
  return %0, %1, %2, %3 : tensor<300x70xf32>, tensor<40x33xbf16>, tensor<35x40xf32>, tensor<45x600xf32>
}
