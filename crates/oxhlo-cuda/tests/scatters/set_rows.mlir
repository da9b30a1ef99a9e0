// JAX 0.10.2: set_rows
module @jit_set_rows attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x5xf32>, %arg1: tensor<3x5xf32>) -> (tensor<8x5xf32> {jax.result_info = "result[0]"}, tensor<8x5xf32> {jax.result_info = "result[1]"}, tensor<8x5xf32> {jax.result_info = "result[2]"}) {
    %c = stablehlo.constant dense<[5, 0, 3]> : tensor<3xi32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %1 = stablehlo.compare LT, %c, %0, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_1 = stablehlo.constant dense<8> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %3 = stablehlo.add %c, %2 : tensor<3xi32>
    %4 = stablehlo.select %1, %3, %c : tensor<3xi1>, tensor<3xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %6 = "stablehlo.scatter"(%arg0, %5, %arg1) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      stablehlo.return %arg3 : tensor<f32>
    }) : (tensor<8x5xf32>, tensor<3x1xi32>, tensor<3x5xf32>) -> tensor<8x5xf32>
    %7 = stablehlo.slice %arg1 [0:1, 0:3] : (tensor<3x5xf32>) -> tensor<1x3xf32>
    %8 = stablehlo.reshape %7 : (tensor<1x3xf32>) -> tensor<3xf32>
    %c_2 = stablehlo.constant dense<2> : tensor<i32>
    %9 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %c_3 = stablehlo.constant dense<1> : tensor<i32>
    %10 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %11 = stablehlo.concatenate %9, %10, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %12 = "stablehlo.scatter"(%arg0, %11, %8) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0, 1]>, unique_indices = true}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      stablehlo.return %arg3 : tensor<f32>
    }) : (tensor<8x5xf32>, tensor<2xi32>, tensor<3xf32>) -> tensor<8x5xf32>
    %c_4 = stablehlo.constant dense<7> : tensor<i32>
    %13 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %cst = stablehlo.constant dense<7.000000e+00> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<5xf32>
    %15 = "stablehlo.scatter"(%arg0, %13, %14) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0]>, unique_indices = true}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      stablehlo.return %arg3 : tensor<f32>
    }) : (tensor<8x5xf32>, tensor<1xi32>, tensor<5xf32>) -> tensor<8x5xf32>
    return %6, %12, %15 : tensor<8x5xf32>, tensor<8x5xf32>, tensor<8x5xf32>
  }
}
