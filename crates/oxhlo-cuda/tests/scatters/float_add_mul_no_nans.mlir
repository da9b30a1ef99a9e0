// JAX 0.10.2: float_add_mul_no_nans
module @jit_float_add_mul attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x4xf32>, %arg1: tensor<5x4xf32>) -> (tensor<8x4xf32> {jax.result_info = "result[0]"}, tensor<8x4xf32> {jax.result_info = "result[1]"}, tensor<8x4xbf16> {jax.result_info = "result[2]"}) {
    %c = stablehlo.constant dense<[2, 2, 0, 7, 2]> : tensor<5xi32>
    %c_0 = stablehlo.constant dense<[1, 3, 5, 0, 2]> : tensor<5xi32>
    %cst = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x4xf32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<8x4xf32>
    %2 = call @round(%1) : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %c_1 = stablehlo.constant dense<-8> : tensor<i32>
    %c_2 = stablehlo.constant dense<8> : tensor<i32>
    %3 = call @clip(%2, %c_1, %c_2) : (tensor<8x4xf32>, tensor<i32>, tensor<i32>) -> tensor<8x4xf32>
    %cst_3 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<5x4xf32>
    %5 = stablehlo.multiply %arg1, %4 : tensor<5x4xf32>
    %6 = call @round_0(%5) : (tensor<5x4xf32>) -> tensor<5x4xf32>
    %c_4 = stablehlo.constant dense<-8> : tensor<i32>
    %c_5 = stablehlo.constant dense<8> : tensor<i32>
    %7 = call @clip_1(%6, %c_4, %c_5) : (tensor<5x4xf32>, tensor<i32>, tensor<i32>) -> tensor<5x4xf32>
    %c_6 = stablehlo.constant dense<0> : tensor<i32>
    %8 = stablehlo.broadcast_in_dim %c_6, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %9 = stablehlo.compare LT, %c, %8, SIGNED : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
    %c_7 = stablehlo.constant dense<8> : tensor<i32>
    %10 = stablehlo.broadcast_in_dim %c_7, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %11 = stablehlo.add %c, %10 : tensor<5xi32>
    %12 = stablehlo.select %9, %11, %c : tensor<5xi1>, tensor<5xi32>
    %13 = stablehlo.broadcast_in_dim %12, dims = [0] : (tensor<5xi32>) -> tensor<5x1xi32>
    %14 = "stablehlo.scatter"(%3, %13, %7) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %31 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %31 : tensor<f32>
    }) : (tensor<8x4xf32>, tensor<5x1xi32>, tensor<5x4xf32>) -> tensor<8x4xf32>
    %c_8 = stablehlo.constant dense<0> : tensor<i32>
    %15 = stablehlo.broadcast_in_dim %c_8, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %16 = stablehlo.compare LT, %c_0, %15, SIGNED : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
    %c_9 = stablehlo.constant dense<8> : tensor<i32>
    %17 = stablehlo.broadcast_in_dim %c_9, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %18 = stablehlo.add %c_0, %17 : tensor<5xi32>
    %19 = stablehlo.select %16, %18, %c_0 : tensor<5xi1>, tensor<5xi32>
    %20 = stablehlo.broadcast_in_dim %19, dims = [0] : (tensor<5xi32>) -> tensor<5x1xi32>
    %21 = "stablehlo.scatter"(%3, %20, %7) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %31 = stablehlo.multiply %arg2, %arg3 : tensor<f32>
      stablehlo.return %31 : tensor<f32>
    }) : (tensor<8x4xf32>, tensor<5x1xi32>, tensor<5x4xf32>) -> tensor<8x4xf32>
    %22 = stablehlo.convert %3 : (tensor<8x4xf32>) -> tensor<8x4xbf16>
    %23 = stablehlo.convert %7 : (tensor<5x4xf32>) -> tensor<5x4xbf16>
    %c_10 = stablehlo.constant dense<0> : tensor<i32>
    %24 = stablehlo.broadcast_in_dim %c_10, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %25 = stablehlo.compare LT, %c, %24, SIGNED : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
    %c_11 = stablehlo.constant dense<8> : tensor<i32>
    %26 = stablehlo.broadcast_in_dim %c_11, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %27 = stablehlo.add %c, %26 : tensor<5xi32>
    %28 = stablehlo.select %25, %27, %c : tensor<5xi1>, tensor<5xi32>
    %29 = stablehlo.broadcast_in_dim %28, dims = [0] : (tensor<5xi32>) -> tensor<5x1xi32>
    %30 = "stablehlo.scatter"(%22, %29, %23) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<bf16>, %arg3: tensor<bf16>):
      %31 = stablehlo.add %arg2, %arg3 : tensor<bf16>
      stablehlo.return %31 : tensor<bf16>
    }) : (tensor<8x4xbf16>, tensor<5x1xi32>, tensor<5x4xbf16>) -> tensor<8x4xbf16>
    return %14, %21, %30 : tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xbf16>
  }
  func.func private @round(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
    %0 = stablehlo.round_nearest_even %arg0 : tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }
  func.func private @clip(%arg0: tensor<8x4xf32>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<8x4xf32> {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<8x4xf32>
    %2 = stablehlo.maximum %1, %arg0 : tensor<8x4xf32>
    %3 = stablehlo.convert %arg2 : (tensor<i32>) -> tensor<f32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<8x4xf32>
    %5 = stablehlo.minimum %4, %2 : tensor<8x4xf32>
    return %5 : tensor<8x4xf32>
  }
  func.func private @round_0(%arg0: tensor<5x4xf32>) -> tensor<5x4xf32> {
    %0 = stablehlo.round_nearest_even %arg0 : tensor<5x4xf32>
    return %0 : tensor<5x4xf32>
  }
  func.func private @clip_1(%arg0: tensor<5x4xf32>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<5x4xf32> {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<5x4xf32>
    %2 = stablehlo.maximum %1, %arg0 : tensor<5x4xf32>
    %3 = stablehlo.convert %arg2 : (tensor<i32>) -> tensor<f32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<5x4xf32>
    %5 = stablehlo.minimum %4, %2 : tensor<5x4xf32>
    return %5 : tensor<5x4xf32>
  }
}
