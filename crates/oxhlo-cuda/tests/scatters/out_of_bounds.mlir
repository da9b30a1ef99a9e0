// JAX 0.10.2: out_of_bounds
module @jit_out_of_bounds attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<10x2xf32>, %arg1: tensor<4x2xf32>) -> (tensor<10x2xf32> {jax.result_info = "result[0]"}, tensor<10x2xf32> {jax.result_info = "result[1]"}) {
    %c = stablehlo.constant dense<[9, -20, 3, 100]> : tensor<4xi32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %1 = stablehlo.compare LT, %c, %0, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
    %c_1 = stablehlo.constant dense<10> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %3 = stablehlo.add %c, %2 : tensor<4xi32>
    %4 = stablehlo.select %1, %3, %c : tensor<4xi1>, tensor<4xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<4xi32>) -> tensor<4x1xi32>
    %6 = "stablehlo.scatter"(%arg0, %5, %arg1) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      stablehlo.return %arg3 : tensor<f32>
    }) : (tensor<10x2xf32>, tensor<4x1xi32>, tensor<4x2xf32>) -> tensor<10x2xf32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %8 = stablehlo.compare LT, %c, %7, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
    %c_3 = stablehlo.constant dense<10> : tensor<i32>
    %9 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %10 = stablehlo.add %c, %9 : tensor<4xi32>
    %11 = stablehlo.select %8, %10, %c : tensor<4xi1>, tensor<4xi32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0] : (tensor<4xi32>) -> tensor<4x1xi32>
    %13 = "stablehlo.scatter"(%arg0, %12, %arg1) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %14 = stablehlo.maximum %arg2, %arg3 : tensor<f32>
      stablehlo.return %14 : tensor<f32>
    }) : (tensor<10x2xf32>, tensor<4x1xi32>, tensor<4x2xf32>) -> tensor<10x2xf32>
    return %6, %13 : tensor<10x2xf32>, tensor<10x2xf32>
  }
}
