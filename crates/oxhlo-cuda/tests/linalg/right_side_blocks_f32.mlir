// JAX 0.10.2: right_side_blocks_f32
module @jit_right_side attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x67x67xf32>, %arg1: tensor<2x9x67xf32>) -> (tensor<2x9x67xf32> {jax.result_info = "result[0]"}, tensor<2x9x67xf32> {jax.result_info = "result[1]"}, tensor<2x9x67xf32> {jax.result_info = "result[2]"}) {
    %0 = call @tril(%arg0) : (tensor<2x67x67xf32>) -> tensor<2x67x67xf32>
    %1 = stablehlo.iota dim = 0 : tensor<67x67xi64>
    %2 = stablehlo.iota dim = 1 : tensor<67x67xi64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %3 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<67x67xi64>
    %4 = stablehlo.add %1, %3 : tensor<67x67xi64>
    %5 = stablehlo.compare EQ, %4, %2, SIGNED : (tensor<67x67xi64>, tensor<67x67xi64>) -> tensor<67x67xi1>
    %6 = stablehlo.convert %5 : (tensor<67x67xi1>) -> tensor<67x67xf32>
    %cst = stablehlo.constant dense<6.700000e+01> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<67x67xf32>
    %8 = stablehlo.multiply %7, %6 : tensor<67x67xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [1, 2] : (tensor<67x67xf32>) -> tensor<1x67x67xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1, 2] : (tensor<1x67x67xf32>) -> tensor<2x67x67xf32>
    %11 = stablehlo.add %0, %10 : tensor<2x67x67xf32>
    %12 = "stablehlo.triangular_solve"(%11, %arg1) <{left_side = false, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<2x67x67xf32>, tensor<2x9x67xf32>) -> tensor<2x9x67xf32>
    %13 = "stablehlo.triangular_solve"(%11, %arg1) <{left_side = false, lower = false, transpose_a = #stablehlo<transpose TRANSPOSE>, unit_diagonal = false}> : (tensor<2x67x67xf32>, tensor<2x9x67xf32>) -> tensor<2x9x67xf32>
    %14 = "stablehlo.triangular_solve"(%11, %arg1) <{left_side = false, lower = true, transpose_a = #stablehlo<transpose TRANSPOSE>, unit_diagonal = true}> : (tensor<2x67x67xf32>, tensor<2x9x67xf32>) -> tensor<2x9x67xf32>
    return %12, %13, %14 : tensor<2x9x67xf32>, tensor<2x9x67xf32>, tensor<2x9x67xf32>
  }
  func.func private @tril(%arg0: tensor<2x67x67xf32>) -> tensor<2x67x67xf32> {
    %0 = stablehlo.iota dim = 0 : tensor<67x67xi64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<67x67xi64>
    %2 = stablehlo.add %0, %1 : tensor<67x67xi64>
    %3 = stablehlo.iota dim = 1 : tensor<67x67xi64>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<67x67xi64>, tensor<67x67xi64>) -> tensor<67x67xi1>
    %5 = stablehlo.broadcast_in_dim %4, dims = [1, 2] : (tensor<67x67xi1>) -> tensor<2x67x67xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x67x67xf32>
    %7 = stablehlo.select %5, %arg0, %6 : tensor<2x67x67xi1>, tensor<2x67x67xf32>
    return %7 : tensor<2x67x67xf32>
  }
}
