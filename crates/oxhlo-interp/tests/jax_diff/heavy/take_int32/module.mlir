module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5x4x3xi32>, %arg1: tensor<2x3xi32>) -> (tensor<2x3x4x3xi32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2x3xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
    %c_0 = stablehlo.constant dense<5> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<2x3xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<2x3xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<2x3xi1>, tensor<2x3xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<2x3xi32>) -> tensor<2x3x1xi32>
    %6 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 4, 3>}> : (tensor<5x4x3xi32>, tensor<2x3x1xi32>) -> tensor<2x3x4x3xi32>
    return %6 : tensor<2x3x4x3xi32>
  }
}
