// JAX 0.10.2: int_ops_dup
module @jit_int_ops_dup attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5x4xi32>, %arg1: tensor<4xi32>) -> (tensor<5x4xi32> {jax.result_info = "result[0]"}, tensor<5x4xi32> {jax.result_info = "result[1]"}, tensor<5x4xi32> {jax.result_info = "result[2]"}, tensor<5x4xi32> {jax.result_info = "result[3]"}) {
    %c = stablehlo.constant dense<[[0, 1], [2, 3], [0, 1], [4, 0]]> : tensor<4x2xi32>
    %0 = stablehlo.slice %c [0:4, 0:1] : (tensor<4x2xi32>) -> tensor<4x1xi32>
    %1 = stablehlo.reshape %0 : (tensor<4x1xi32>) -> tensor<4xi32>
    %2 = stablehlo.slice %c [0:4, 1:2] : (tensor<4x2xi32>) -> tensor<4x1xi32>
    %3 = stablehlo.reshape %2 : (tensor<4x1xi32>) -> tensor<4xi32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %4 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %5 = stablehlo.compare LT, %1, %4, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
    %c_1 = stablehlo.constant dense<5> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %7 = stablehlo.add %1, %6 : tensor<4xi32>
    %8 = stablehlo.select %5, %7, %1 : tensor<4xi1>, tensor<4xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %9 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %10 = stablehlo.compare LT, %3, %9, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
    %c_3 = stablehlo.constant dense<4> : tensor<i32>
    %11 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %12 = stablehlo.add %3, %11 : tensor<4xi32>
    %13 = stablehlo.select %10, %12, %3 : tensor<4xi1>, tensor<4xi32>
    %14 = stablehlo.broadcast_in_dim %8, dims = [0] : (tensor<4xi32>) -> tensor<4x1xi32>
    %15 = stablehlo.broadcast_in_dim %13, dims = [0] : (tensor<4xi32>) -> tensor<4x1xi32>
    %16 = stablehlo.concatenate %14, %15, dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x2xi32>
    %17 = "stablehlo.scatter"(%arg0, %16, %arg1) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<i32>, %arg3: tensor<i32>):
      %65 = stablehlo.multiply %arg2, %arg3 : tensor<i32>
      stablehlo.return %65 : tensor<i32>
    }) : (tensor<5x4xi32>, tensor<4x2xi32>, tensor<4xi32>) -> tensor<5x4xi32>
    %18 = stablehlo.slice %c [0:4, 0:1] : (tensor<4x2xi32>) -> tensor<4x1xi32>
    %19 = stablehlo.reshape %18 : (tensor<4x1xi32>) -> tensor<4xi32>
    %20 = stablehlo.slice %c [0:4, 1:2] : (tensor<4x2xi32>) -> tensor<4x1xi32>
    %21 = stablehlo.reshape %20 : (tensor<4x1xi32>) -> tensor<4xi32>
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %22 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %23 = stablehlo.compare LT, %19, %22, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
    %c_5 = stablehlo.constant dense<5> : tensor<i32>
    %24 = stablehlo.broadcast_in_dim %c_5, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %25 = stablehlo.add %19, %24 : tensor<4xi32>
    %26 = stablehlo.select %23, %25, %19 : tensor<4xi1>, tensor<4xi32>
    %c_6 = stablehlo.constant dense<0> : tensor<i32>
    %27 = stablehlo.broadcast_in_dim %c_6, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %28 = stablehlo.compare LT, %21, %27, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
    %c_7 = stablehlo.constant dense<4> : tensor<i32>
    %29 = stablehlo.broadcast_in_dim %c_7, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %30 = stablehlo.add %21, %29 : tensor<4xi32>
    %31 = stablehlo.select %28, %30, %21 : tensor<4xi1>, tensor<4xi32>
    %32 = stablehlo.broadcast_in_dim %26, dims = [0] : (tensor<4xi32>) -> tensor<4x1xi32>
    %33 = stablehlo.broadcast_in_dim %31, dims = [0] : (tensor<4xi32>) -> tensor<4x1xi32>
    %34 = stablehlo.concatenate %32, %33, dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x2xi32>
    %35 = "stablehlo.scatter"(%arg0, %34, %arg1) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<i32>, %arg3: tensor<i32>):
      %65 = stablehlo.add %arg2, %arg3 : tensor<i32>
      stablehlo.return %65 : tensor<i32>
    }) : (tensor<5x4xi32>, tensor<4x2xi32>, tensor<4xi32>) -> tensor<5x4xi32>
    %36 = stablehlo.slice %c [0:4, 0:1] : (tensor<4x2xi32>) -> tensor<4x1xi32>
    %37 = stablehlo.reshape %36 : (tensor<4x1xi32>) -> tensor<4xi32>
    %38 = stablehlo.slice %c [0:4, 1:2] : (tensor<4x2xi32>) -> tensor<4x1xi32>
    %39 = stablehlo.reshape %38 : (tensor<4x1xi32>) -> tensor<4xi32>
    %c_8 = stablehlo.constant dense<0> : tensor<i32>
    %40 = stablehlo.broadcast_in_dim %c_8, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %41 = stablehlo.compare LT, %37, %40, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
    %c_9 = stablehlo.constant dense<5> : tensor<i32>
    %42 = stablehlo.broadcast_in_dim %c_9, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %43 = stablehlo.add %37, %42 : tensor<4xi32>
    %44 = stablehlo.select %41, %43, %37 : tensor<4xi1>, tensor<4xi32>
    %c_10 = stablehlo.constant dense<0> : tensor<i32>
    %45 = stablehlo.broadcast_in_dim %c_10, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %46 = stablehlo.compare LT, %39, %45, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
    %c_11 = stablehlo.constant dense<4> : tensor<i32>
    %47 = stablehlo.broadcast_in_dim %c_11, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %48 = stablehlo.add %39, %47 : tensor<4xi32>
    %49 = stablehlo.select %46, %48, %39 : tensor<4xi1>, tensor<4xi32>
    %50 = stablehlo.broadcast_in_dim %44, dims = [0] : (tensor<4xi32>) -> tensor<4x1xi32>
    %51 = stablehlo.broadcast_in_dim %49, dims = [0] : (tensor<4xi32>) -> tensor<4x1xi32>
    %52 = stablehlo.concatenate %50, %51, dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x2xi32>
    %53 = "stablehlo.scatter"(%arg0, %52, %arg1) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<i32>, %arg3: tensor<i32>):
      %65 = stablehlo.maximum %arg2, %arg3 : tensor<i32>
      stablehlo.return %65 : tensor<i32>
    }) : (tensor<5x4xi32>, tensor<4x2xi32>, tensor<4xi32>) -> tensor<5x4xi32>
    %54 = stablehlo.slice %c [0:4, 0:1] : (tensor<4x2xi32>) -> tensor<4x1xi32>
    %55 = stablehlo.reshape %54 : (tensor<4x1xi32>) -> tensor<4xi32>
    %c_12 = stablehlo.constant dense<0> : tensor<i32>
    %56 = stablehlo.broadcast_in_dim %c_12, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %c_13 = stablehlo.constant dense<0> : tensor<i32>
    %57 = stablehlo.broadcast_in_dim %c_13, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %58 = stablehlo.compare LT, %55, %57, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
    %c_14 = stablehlo.constant dense<5> : tensor<i32>
    %59 = stablehlo.broadcast_in_dim %c_14, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %60 = stablehlo.add %55, %59 : tensor<4xi32>
    %61 = stablehlo.select %58, %60, %55 : tensor<4xi1>, tensor<4xi32>
    %62 = stablehlo.broadcast_in_dim %61, dims = [0] : (tensor<4xi32>) -> tensor<4x1xi32>
    %63 = stablehlo.broadcast_in_dim %56, dims = [1] : (tensor<4xi32>) -> tensor<4x4xi32>
    %64 = "stablehlo.scatter"(%arg0, %62, %63) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<i32>, %arg3: tensor<i32>):
      stablehlo.return %arg3 : tensor<i32>
    }) : (tensor<5x4xi32>, tensor<4x1xi32>, tensor<4x4xi32>) -> tensor<5x4xi32>
    return %17, %35, %53, %64 : tensor<5x4xi32>, tensor<5x4xi32>, tensor<5x4xi32>, tensor<5x4xi32>
  }
}
