module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5x4x3xf32>, %arg1: tensor<5x4x2xi32>) -> (tensor<5x4x2xf32> {jax.result_info = "result"}) {
    %0 = call @take_along_axis(%arg0, %arg1) : (tensor<5x4x3xf32>, tensor<5x4x2xi32>) -> tensor<5x4x2xf32>
    return %0 : tensor<5x4x2xf32>
  }
  func.func private @take_along_axis(%arg0: tensor<5x4x3xf32>, %arg1: tensor<5x4x2xi32>) -> tensor<5x4x2xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<5x4x2xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<5x4x2xi32>, tensor<5x4x2xi32>) -> tensor<5x4x2xi1>
    %c_0 = stablehlo.constant dense<3> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<5x4x2xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<5x4x2xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<5x4x2xi1>, tensor<5x4x2xi32>
    %5 = stablehlo.reshape %4 : (tensor<5x4x2xi32>) -> tensor<5x4x2x1xi32>
    %c_1 = stablehlo.constant dense<2> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<5x4x2x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<5x4x2x1xi32>, tensor<5x4x2x1xi32>) -> tensor<5x4x2x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [3] : (tensor<1xi32>) -> tensor<1x1x1x1xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2, 3] : (tensor<1x1x1x1xi32>) -> tensor<5x4x2x1xi32>
    %10 = stablehlo.compare LE, %5, %9, SIGNED : (tensor<5x4x2x1xi32>, tensor<5x4x2x1xi32>) -> tensor<5x4x2x1xi1>
    %11 = stablehlo.and %7, %10 : tensor<5x4x2x1xi1>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %12 = stablehlo.reduce(%11 init: %c_3) applies stablehlo.and across dimensions = [3] : (tensor<5x4x2x1xi1>, tensor<i1>) -> tensor<5x4x2xi1>
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [2], operand_batching_dims = [0, 1], start_indices_batching_dims = [0, 1], start_index_map = [2], index_vector_dim = 3>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1>}> : (tensor<5x4x3xf32>, tensor<5x4x2x1xi32>) -> tensor<5x4x2xf32>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<5x4x2xf32>
    %15 = stablehlo.select %12, %13, %14 : tensor<5x4x2xi1>, tensor<5x4x2xf32>
    return %15 : tensor<5x4x2xf32>
  }
}
