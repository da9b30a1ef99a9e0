// Programs in the pretty syntax (as JAX prints them) that must verify cleanly.

module @jit_mlp attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x16xf32>, %arg1: tensor<16x4xf32>, %arg2: tensor<4xf32>) -> (tensor<8x4xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<4xf32>) -> tensor<8x4xf32>
    %2 = stablehlo.add %0, %1 : tensor<8x4xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x4xf32>
    %4 = stablehlo.maximum %2, %3 : tensor<8x4xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %5 = stablehlo.reduce(%4 init: %cst_0) applies stablehlo.maximum across dimensions = [1] : (tensor<8x4xf32>, tensor<f32>) -> tensor<8xf32>
    %6 = stablehlo.reshape %5 : (tensor<8xf32>) -> tensor<8x1xf32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x4xf32>
    %8 = stablehlo.subtract %4, %7 : tensor<8x4xf32>
    %9 = stablehlo.exponential %8 : tensor<8x4xf32>
    %10 = call @helper(%9) : (tensor<8x4xf32>) -> tensor<8x4xf32>
    return %10 : tensor<8x4xf32>
  }
  func.func private @helper(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
    %0 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<8x4xf32>) -> tensor<4x8xf32>
    %1 = stablehlo.transpose %0, dims = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>
    %2 = stablehlo.compare GT, %arg0, %1, FLOAT : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xi1>
    %3 = stablehlo.select %2, %arg0, %1 : tensor<8x4xi1>, tensor<8x4xf32>
    %4 = stablehlo.slice %3 [0:8:2, 1:4] : (tensor<8x4xf32>) -> tensor<4x3xf32>
    %5 = stablehlo.concatenate %4, %4, dim = 0 : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<8x3xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %6 = stablehlo.pad %5, %cst, low = [0, 1], high = [0, 0], interior = [0, 0] : (tensor<8x3xf32>, tensor<f32>) -> tensor<8x4xf32>
    return %6 : tensor<8x4xf32>
  }
}

// -----

func.func @main(%arg0: tensor<2x16x16x3xf32>, %arg1: tensor<3x3x3x8xf32>, %arg2: tensor<i32>) -> tensor<2x8x8x8xf32> {
  %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x16x16x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x16x16x8xf32>
  %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %1 = "stablehlo.reduce_window"(%0, %cst) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<2x16x16x8xf32>, tensor<f32>) -> tensor<2x8x8x8xf32>
  %c = stablehlo.constant dense<0> : tensor<i32>
  %2:2 = stablehlo.while(%iterArg = %c, %iterArg_0 = %1) : tensor<i32>, tensor<2x8x8x8xf32>
  cond {
    %3 = stablehlo.compare LT, %iterArg, %arg2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %3 : tensor<i1>
  } do {
    %c_1 = stablehlo.constant dense<1> : tensor<i32>
    %3 = stablehlo.add %iterArg, %c_1 : tensor<i32>
    %4 = stablehlo.tanh %iterArg_0 : tensor<2x8x8x8xf32>
    stablehlo.return %3, %4 : tensor<i32>, tensor<2x8x8x8xf32>
  }
  return %2#1 : tensor<2x8x8x8xf32>
}

// -----

func.func @main(%arg0: tensor<5x3xf32>, %arg1: tensor<4xi32>) -> tensor<4x3xf32> {
  %0 = stablehlo.iota dim = 0 : tensor<4xi32>
  %1 = stablehlo.convert %arg1 : (tensor<4xi32>) -> tensor<4xi64>
  %2 = stablehlo.reshape %1 : (tensor<4xi64>) -> tensor<4x1xi64>
  %3 = "stablehlo.gather"(%arg0, %2) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 3>}> : (tensor<5x3xf32>, tensor<4x1xi64>) -> tensor<4x3xf32>
  %4 = stablehlo.sqrt %3 : tensor<4x3xf32>
  %5 = stablehlo.is_finite %4 : (tensor<4x3xf32>) -> tensor<4x3xi1>
  return %4 : tensor<4x3xf32>
}
