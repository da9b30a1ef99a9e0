// JAX 0.10.2: right_side_f32
module @jit_right_side attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x6xf32>, %arg1: tensor<4x6xf32>) -> (tensor<4x6xf32> {jax.result_info = "result[0]"}, tensor<4x6xf32> {jax.result_info = "result[1]"}, tensor<4x6xf32> {jax.result_info = "result[2]"}) {
    %0 = call @tril(%arg0) : (tensor<6x6xf32>) -> tensor<6x6xf32>
    %1 = stablehlo.iota dim = 0 : tensor<6x6xi64>
    %2 = stablehlo.iota dim = 1 : tensor<6x6xi64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %3 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<6x6xi64>
    %4 = stablehlo.add %1, %3 : tensor<6x6xi64>
    %5 = stablehlo.compare EQ, %4, %2, SIGNED : (tensor<6x6xi64>, tensor<6x6xi64>) -> tensor<6x6xi1>
    %6 = stablehlo.convert %5 : (tensor<6x6xi1>) -> tensor<6x6xf32>
    %cst = stablehlo.constant dense<6.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6x6xf32>
    %8 = stablehlo.multiply %7, %6 : tensor<6x6xf32>
    %9 = stablehlo.add %0, %8 : tensor<6x6xf32>
    %10 = "stablehlo.triangular_solve"(%9, %arg1) <{left_side = false, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<6x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
    %11 = "stablehlo.triangular_solve"(%9, %arg1) <{left_side = false, lower = false, transpose_a = #stablehlo<transpose TRANSPOSE>, unit_diagonal = false}> : (tensor<6x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
    %12 = "stablehlo.triangular_solve"(%9, %arg1) <{left_side = false, lower = true, transpose_a = #stablehlo<transpose TRANSPOSE>, unit_diagonal = true}> : (tensor<6x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
    return %10, %11, %12 : tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>
  }
  func.func private @tril(%arg0: tensor<6x6xf32>) -> tensor<6x6xf32> {
    %0 = stablehlo.iota dim = 0 : tensor<6x6xi64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<6x6xi64>
    %2 = stablehlo.add %0, %1 : tensor<6x6xi64>
    %3 = stablehlo.iota dim = 1 : tensor<6x6xi64>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<6x6xi64>, tensor<6x6xi64>) -> tensor<6x6xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6x6xf32>
    %6 = stablehlo.select %4, %arg0, %5 : tensor<6x6xi1>, tensor<6x6xf32>
    return %6 : tensor<6x6xf32>
  }
}
