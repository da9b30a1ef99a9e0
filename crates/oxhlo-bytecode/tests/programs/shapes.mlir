// Data movement, dynamic shapes and the remaining ops with attributes.
func.func @main(%x: tensor<4x6xf32>, %d: tensor<?x6xf32>, %s: tensor<2xi64>, %k: tensor<i32>, %q: tensor<4x6xi32>) -> tensor<4x6xf32> {
  %0 = stablehlo.reshape %x : (tensor<4x6xf32>) -> tensor<24xf32>
  %1 = stablehlo.transpose %x, dims = [1, 0] : (tensor<4x6xf32>) -> tensor<6x4xf32>
  %2 = stablehlo.reverse %x, dims = [0] : tensor<4x6xf32>
  %3 = stablehlo.broadcast_in_dim %0, dims = [1] : (tensor<24xf32>) -> tensor<2x24xf32>
  %4 = stablehlo.broadcast %x, sizes = [3] : (tensor<4x6xf32>) -> tensor<3x4x6xf32>
  %5 = stablehlo.concatenate %x, %x, dim = 0 : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  %6 = stablehlo.iota dim = 1 : tensor<4x6xi32>
  %z = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %7 = stablehlo.pad %x, %z, low = [1, 0], high = [0, 2], interior = [1, 1] : (tensor<4x6xf32>, tensor<f32>) -> tensor<8x13xf32>
  %8 = stablehlo.dynamic_slice %x, %k, %k, sizes = [2, 3] : (tensor<4x6xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
  %9 = stablehlo.dynamic_update_slice %x, %8, %k, %k : (tensor<4x6xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<4x6xf32>
  %10 = stablehlo.get_dimension_size %d, dim = 0 : (tensor<?x6xf32>) -> tensor<i32>
  %11 = stablehlo.dynamic_reshape %d, %s : (tensor<?x6xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %12 = stablehlo.dynamic_broadcast_in_dim %d, %s, dims = [0, 1] : (tensor<?x6xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %13 = "stablehlo.dynamic_broadcast_in_dim"(%d, %s) {broadcast_dimensions = array<i64: 0, 1>, known_expanding_dimensions = array<i64: 0>, known_nonexpanding_dimensions = array<i64: 1>} : (tensor<?x6xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %14 = stablehlo.dynamic_iota %s, dim = 0 : (tensor<2xi64>) -> tensor<?x?xf32>
  %15 = stablehlo.convert %q : (tensor<4x6xi32>) -> tensor<4x6xf32>
  %16 = stablehlo.bitcast_convert %x : (tensor<4x6xf32>) -> tensor<4x6xi32>
  %17 = stablehlo.clamp %z, %x, %x : (tensor<f32>, tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  %c = stablehlo.compare GE, %x, %x : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xi1>
  %18 = stablehlo.select %c, %x, %x : tensor<4x6xi1>, tensor<4x6xf32>
  %19 = stablehlo.reduce_precision %x, format = e5m10 : tensor<4x6xf32>
  %20 = stablehlo.popcnt %q : tensor<4x6xi32>
  %21 = stablehlo.count_leading_zeros %q : tensor<4x6xi32>
  %22 = stablehlo.shift_right_logical %q, %q : tensor<4x6xi32>
  %23 = stablehlo.real_dynamic_slice %d, %s, %s, %s : (tensor<?x6xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  %24 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4x6xf32>, tensor<f32>) -> tensor<4xf32>
  %25 = "stablehlo.map"(%x, %x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.multiply %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) {dimensions = array<i64: 0, 1>} : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  %26 = "stablehlo.select_and_scatter"(%x, %x, %z) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %g = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %g : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s2 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s2 : tensor<f32>
  }) {window_dimensions = array<i64: 1, 1>, window_strides = array<i64: 1, 1>} : (tensor<4x6xf32>, tensor<4x6xf32>, tensor<f32>) -> tensor<4x6xf32>
  %27 = "stablehlo.reduce_window"(%x, %z) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %mx = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %mx : tensor<f32>
  }) {base_dilations = array<i64: 2, 1>, padding = dense<0> : tensor<2x2xi64>, window_dilations = array<i64: 1, 2>, window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 3>} : (tensor<4x6xf32>, tensor<f32>) -> tensor<3x2xf32>
  %mean = stablehlo.constant dense<1.0> : tensor<6xf32>
  %28 = "stablehlo.batch_norm_inference"(%x, %mean, %mean, %mean, %mean) {epsilon = 1.0e-05 : f32, feature_index = 1 : i64} : (tensor<4x6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<4x6xf32>
  %29 = "stablehlo.rng"(%z, %z, %s) {rng_distribution = #stablehlo<rng_distribution NORMAL>} : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<?x?xf32>
  %sq = stablehlo.slice %x [0:4, 0:4] : (tensor<4x6xf32>) -> tensor<4x4xf32>
  %30 = "stablehlo.cholesky"(%sq) {lower = true} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %31 = "stablehlo.einsum"(%x, %x) {einsum_config = "ab,cb->ac"} : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x4xf32>
  return %9 : tensor<4x6xf32>
}
