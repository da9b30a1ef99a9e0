// JAX 0.10.2: solve_triangular_f32
module @jit_solve_triangular_all attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x7x7xf32>, %arg1: tensor<2x7x3xf32>) -> (tensor<2x7x3xf32> {jax.result_info = "result[0]"}, tensor<2x7x3xf32> {jax.result_info = "result[1]"}, tensor<2x7x3xf32> {jax.result_info = "result[2]"}, tensor<2x7x3xf32> {jax.result_info = "result[3]"}, tensor<2x7x3xf32> {jax.result_info = "result[4]"}, tensor<2x7x3xf32> {jax.result_info = "result[5]"}) {
    %0 = call @tril(%arg0) : (tensor<2x7x7xf32>) -> tensor<2x7x7xf32>
    %1 = stablehlo.iota dim = 0 : tensor<7x7xi64>
    %2 = stablehlo.iota dim = 1 : tensor<7x7xi64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %3 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<7x7xi64>
    %4 = stablehlo.add %1, %3 : tensor<7x7xi64>
    %5 = stablehlo.compare EQ, %4, %2, SIGNED : (tensor<7x7xi64>, tensor<7x7xi64>) -> tensor<7x7xi1>
    %6 = stablehlo.convert %5 : (tensor<7x7xi1>) -> tensor<7x7xf32>
    %cst = stablehlo.constant dense<7.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<7x7xf32>
    %8 = stablehlo.multiply %7, %6 : tensor<7x7xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [1, 2] : (tensor<7x7xf32>) -> tensor<1x7x7xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1, 2] : (tensor<1x7x7xf32>) -> tensor<2x7x7xf32>
    %11 = stablehlo.add %0, %10 : tensor<2x7x7xf32>
    %12 = stablehlo.transpose %11, dims = [0, 2, 1] : (tensor<2x7x7xf32>) -> tensor<2x7x7xf32>
    %13 = call @_solve_triangular(%11, %arg1) : (tensor<2x7x7xf32>, tensor<2x7x3xf32>) -> tensor<2x7x3xf32>
    %14 = call @_solve_triangular_0(%12, %arg1) : (tensor<2x7x7xf32>, tensor<2x7x3xf32>) -> tensor<2x7x3xf32>
    %15 = call @_solve_triangular_1(%11, %arg1) : (tensor<2x7x7xf32>, tensor<2x7x3xf32>) -> tensor<2x7x3xf32>
    %16 = call @_solve_triangular_2(%12, %arg1) : (tensor<2x7x7xf32>, tensor<2x7x3xf32>) -> tensor<2x7x3xf32>
    %17 = call @_solve_triangular_3(%11, %arg1) : (tensor<2x7x7xf32>, tensor<2x7x3xf32>) -> tensor<2x7x3xf32>
    %18 = call @_solve_triangular_4(%12, %arg1) : (tensor<2x7x7xf32>, tensor<2x7x3xf32>) -> tensor<2x7x3xf32>
    return %13, %14, %15, %16, %17, %18 : tensor<2x7x3xf32>, tensor<2x7x3xf32>, tensor<2x7x3xf32>, tensor<2x7x3xf32>, tensor<2x7x3xf32>, tensor<2x7x3xf32>
  }
  func.func private @tril(%arg0: tensor<2x7x7xf32>) -> tensor<2x7x7xf32> {
    %0 = stablehlo.iota dim = 0 : tensor<7x7xi64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<7x7xi64>
    %2 = stablehlo.add %0, %1 : tensor<7x7xi64>
    %3 = stablehlo.iota dim = 1 : tensor<7x7xi64>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<7x7xi64>, tensor<7x7xi64>) -> tensor<7x7xi1>
    %5 = stablehlo.broadcast_in_dim %4, dims = [1, 2] : (tensor<7x7xi1>) -> tensor<2x7x7xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x7x7xf32>
    %7 = stablehlo.select %5, %arg0, %6 : tensor<2x7x7xi1>, tensor<2x7x7xf32>
    return %7 : tensor<2x7x7xf32>
  }
  func.func private @_solve_triangular(%arg0: tensor<2x7x7xf32>, %arg1: tensor<2x7x3xf32>) -> tensor<2x7x3xf32> {
    %0 = "stablehlo.triangular_solve"(%arg0, %arg1) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<2x7x7xf32>, tensor<2x7x3xf32>) -> tensor<2x7x3xf32>
    return %0 : tensor<2x7x3xf32>
  }
  func.func private @_solve_triangular_0(%arg0: tensor<2x7x7xf32>, %arg1: tensor<2x7x3xf32>) -> tensor<2x7x3xf32> {
    %0 = "stablehlo.triangular_solve"(%arg0, %arg1) <{left_side = true, lower = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = true}> : (tensor<2x7x7xf32>, tensor<2x7x3xf32>) -> tensor<2x7x3xf32>
    return %0 : tensor<2x7x3xf32>
  }
  func.func private @_solve_triangular_1(%arg0: tensor<2x7x7xf32>, %arg1: tensor<2x7x3xf32>) -> tensor<2x7x3xf32> {
    %0 = "stablehlo.triangular_solve"(%arg0, %arg1) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose TRANSPOSE>, unit_diagonal = false}> : (tensor<2x7x7xf32>, tensor<2x7x3xf32>) -> tensor<2x7x3xf32>
    return %0 : tensor<2x7x3xf32>
  }
  func.func private @_solve_triangular_2(%arg0: tensor<2x7x7xf32>, %arg1: tensor<2x7x3xf32>) -> tensor<2x7x3xf32> {
    %0 = "stablehlo.triangular_solve"(%arg0, %arg1) <{left_side = true, lower = false, transpose_a = #stablehlo<transpose TRANSPOSE>, unit_diagonal = true}> : (tensor<2x7x7xf32>, tensor<2x7x3xf32>) -> tensor<2x7x3xf32>
    return %0 : tensor<2x7x3xf32>
  }
  func.func private @_solve_triangular_3(%arg0: tensor<2x7x7xf32>, %arg1: tensor<2x7x3xf32>) -> tensor<2x7x3xf32> {
    %0 = "stablehlo.triangular_solve"(%arg0, %arg1) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose TRANSPOSE>, unit_diagonal = false}> : (tensor<2x7x7xf32>, tensor<2x7x3xf32>) -> tensor<2x7x3xf32>
    return %0 : tensor<2x7x3xf32>
  }
  func.func private @_solve_triangular_4(%arg0: tensor<2x7x7xf32>, %arg1: tensor<2x7x3xf32>) -> tensor<2x7x3xf32> {
    %0 = "stablehlo.triangular_solve"(%arg0, %arg1) <{left_side = true, lower = false, transpose_a = #stablehlo<transpose TRANSPOSE>, unit_diagonal = true}> : (tensor<2x7x7xf32>, tensor<2x7x3xf32>) -> tensor<2x7x3xf32>
    return %0 : tensor<2x7x3xf32>
  }
}
