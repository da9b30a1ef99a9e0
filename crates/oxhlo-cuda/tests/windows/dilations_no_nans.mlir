// reduce_window beyond pooling: base and window dilations, strides and negative padding (the spec's
// example geometry on a larger i32 operand), a product over windows of a bf16 operand, and two inputs at
// once (the maximum and its position: JAX's argmax reducer over 2x3 windows with padding).
func.func @main(%x: tensor<9x7xi32>, %b: tensor<6x10xbf16>, %v: tensor<7x9xf32>) -> (tensor<4x4xi32>, tensor<5x5xbf16>, tensor<4x4xf32>, tensor<4x4xi32>) {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %0 = "stablehlo.reduce_window"(%x, %zero) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 4, 3>, base_dilations = array<i64: 2, 2>, window_dilations = array<i64: 3, 2>, padding = dense<[[2, -1], [-2, 3]]> : tensor<2x2xi64>}> ({
  ^bb0(%a: tensor<i32>, %c: tensor<i32>):
    %s = stablehlo.add %a, %c : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) : (tensor<9x7xi32>, tensor<i32>) -> tensor<4x4xi32>
  %one = stablehlo.constant dense<1.0> : tensor<bf16>
  %1 = "stablehlo.reduce_window"(%b, %one) <{window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 1, 2>, padding = dense<[[0, 0], [1, 0]]> : tensor<2x2xi64>}> ({
  ^bb0(%a: tensor<bf16>, %c: tensor<bf16>):
    %s = stablehlo.multiply %a, %c : tensor<bf16>
    stablehlo.return %s : tensor<bf16>
  }) : (tensor<6x10xbf16>, tensor<bf16>) -> tensor<5x5xbf16>
  %i = stablehlo.iota dim = 1 : tensor<7x9xi32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %2:2 = "stablehlo.reduce_window"(%v, %i, %ninf, %zero) <{window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 2>, padding = dense<[[1, 0], [0, 1]]> : tensor<2x2xi64>}> ({
  ^bb0(%p0: tensor<f32>, %p1: tensor<i32>, %q0: tensor<f32>, %q1: tensor<i32>):
    %g = stablehlo.compare GT, %p0, %q0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %n = stablehlo.compare NE, %p0, %p0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %gn = stablehlo.or %g, %n : tensor<i1>
    %e = stablehlo.compare EQ, %p0, %q0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %l = stablehlo.compare LT, %p1, %q1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %el = stablehlo.and %e, %l : tensor<i1>
    %k = stablehlo.or %gn, %el : tensor<i1>
    %rv = stablehlo.select %gn, %p0, %q0 : tensor<i1>, tensor<f32>
    %ri = stablehlo.select %k, %p1, %q1 : tensor<i1>, tensor<i32>
    stablehlo.return %rv, %ri : tensor<f32>, tensor<i32>
  }) : (tensor<7x9xf32>, tensor<7x9xi32>, tensor<f32>, tensor<i32>) -> (tensor<4x4xf32>, tensor<4x4xi32>)
  return %0, %1, %2#0, %2#1 : tensor<4x4xi32>, tensor<5x5xbf16>, tensor<4x4xf32>, tensor<4x4xi32>
}
