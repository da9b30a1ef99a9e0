// JAX 0.10.2: max_min_dup_no_nans
module @jit_max_min_dup attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x3xf32>, %arg1: tensor<6x3xf32>) -> (tensor<8x3xf32> {jax.result_info = "result[0]"}, tensor<8x3xf32> {jax.result_info = "result[1]"}) {
    %c = stablehlo.constant dense<[1, 4, 1, 1, 6, 4]> : tensor<6xi32>
    %cst = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x3xf32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<8x3xf32>
    %2 = call @round(%1) : (tensor<8x3xf32>) -> tensor<8x3xf32>
    %c_0 = stablehlo.constant dense<-8> : tensor<i32>
    %c_1 = stablehlo.constant dense<8> : tensor<i32>
    %3 = call @clip(%2, %c_0, %c_1) : (tensor<8x3xf32>, tensor<i32>, tensor<i32>) -> tensor<8x3xf32>
    %cst_2 = stablehlo.constant dense<2.500000e-01> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x3xf32>
    %5 = stablehlo.add %3, %4 : tensor<8x3xf32>
    %cst_3 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<6x3xf32>
    %7 = stablehlo.multiply %arg1, %6 : tensor<6x3xf32>
    %8 = call @round_0(%7) : (tensor<6x3xf32>) -> tensor<6x3xf32>
    %c_4 = stablehlo.constant dense<-8> : tensor<i32>
    %c_5 = stablehlo.constant dense<8> : tensor<i32>
    %9 = call @clip_1(%8, %c_4, %c_5) : (tensor<6x3xf32>, tensor<i32>, tensor<i32>) -> tensor<6x3xf32>
    %cst_6 = stablehlo.constant dense<2.500000e-01> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<6x3xf32>
    %11 = stablehlo.add %9, %10 : tensor<6x3xf32>
    %c_7 = stablehlo.constant dense<0> : tensor<i32>
    %12 = stablehlo.broadcast_in_dim %c_7, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %13 = stablehlo.compare LT, %c, %12, SIGNED : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi1>
    %c_8 = stablehlo.constant dense<8> : tensor<i32>
    %14 = stablehlo.broadcast_in_dim %c_8, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %15 = stablehlo.add %c, %14 : tensor<6xi32>
    %16 = stablehlo.select %13, %15, %c : tensor<6xi1>, tensor<6xi32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [0] : (tensor<6xi32>) -> tensor<6x1xi32>
    %18 = "stablehlo.scatter"(%5, %17, %11) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %26 = stablehlo.maximum %arg2, %arg3 : tensor<f32>
      stablehlo.return %26 : tensor<f32>
    }) : (tensor<8x3xf32>, tensor<6x1xi32>, tensor<6x3xf32>) -> tensor<8x3xf32>
    %c_9 = stablehlo.constant dense<0> : tensor<i32>
    %19 = stablehlo.broadcast_in_dim %c_9, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %20 = stablehlo.compare LT, %c, %19, SIGNED : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi1>
    %c_10 = stablehlo.constant dense<8> : tensor<i32>
    %21 = stablehlo.broadcast_in_dim %c_10, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %22 = stablehlo.add %c, %21 : tensor<6xi32>
    %23 = stablehlo.select %20, %22, %c : tensor<6xi1>, tensor<6xi32>
    %24 = stablehlo.broadcast_in_dim %23, dims = [0] : (tensor<6xi32>) -> tensor<6x1xi32>
    %25 = "stablehlo.scatter"(%5, %24, %11) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %26 = stablehlo.minimum %arg2, %arg3 : tensor<f32>
      stablehlo.return %26 : tensor<f32>
    }) : (tensor<8x3xf32>, tensor<6x1xi32>, tensor<6x3xf32>) -> tensor<8x3xf32>
    return %18, %25 : tensor<8x3xf32>, tensor<8x3xf32>
  }
  func.func private @round(%arg0: tensor<8x3xf32>) -> tensor<8x3xf32> {
    %0 = stablehlo.round_nearest_even %arg0 : tensor<8x3xf32>
    return %0 : tensor<8x3xf32>
  }
  func.func private @clip(%arg0: tensor<8x3xf32>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<8x3xf32> {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<8x3xf32>
    %2 = stablehlo.maximum %1, %arg0 : tensor<8x3xf32>
    %3 = stablehlo.convert %arg2 : (tensor<i32>) -> tensor<f32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<8x3xf32>
    %5 = stablehlo.minimum %4, %2 : tensor<8x3xf32>
    return %5 : tensor<8x3xf32>
  }
  func.func private @round_0(%arg0: tensor<6x3xf32>) -> tensor<6x3xf32> {
    %0 = stablehlo.round_nearest_even %arg0 : tensor<6x3xf32>
    return %0 : tensor<6x3xf32>
  }
  func.func private @clip_1(%arg0: tensor<6x3xf32>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<6x3xf32> {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<6x3xf32>
    %2 = stablehlo.maximum %1, %arg0 : tensor<6x3xf32>
    %3 = stablehlo.convert %arg2 : (tensor<i32>) -> tensor<f32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<6x3xf32>
    %5 = stablehlo.minimum %4, %2 : tensor<6x3xf32>
    return %5 : tensor<6x3xf32>
  }
}
