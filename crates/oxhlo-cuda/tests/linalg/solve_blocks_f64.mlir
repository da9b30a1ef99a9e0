// JAX 0.10.2: solve_blocks_f64
module @jit_solve_triangular_all attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<70x70xf64>, %arg1: tensor<70x13xf64>) -> (tensor<70x13xf64> {jax.result_info = "result[0]"}, tensor<70x13xf64> {jax.result_info = "result[1]"}, tensor<70x13xf64> {jax.result_info = "result[2]"}, tensor<70x13xf64> {jax.result_info = "result[3]"}, tensor<70x13xf64> {jax.result_info = "result[4]"}, tensor<70x13xf64> {jax.result_info = "result[5]"}) {
    %0 = call @tril(%arg0) : (tensor<70x70xf64>) -> tensor<70x70xf64>
    %1 = stablehlo.iota dim = 0 : tensor<70x70xi64>
    %2 = stablehlo.iota dim = 1 : tensor<70x70xi64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %3 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<70x70xi64>
    %4 = stablehlo.add %1, %3 : tensor<70x70xi64>
    %5 = stablehlo.compare EQ, %4, %2, SIGNED : (tensor<70x70xi64>, tensor<70x70xi64>) -> tensor<70x70xi1>
    %6 = stablehlo.convert %5 : (tensor<70x70xi1>) -> tensor<70x70xf64>
    %cst = stablehlo.constant dense<7.000000e+01> : tensor<f64>
    %7 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<70x70xf64>
    %8 = stablehlo.multiply %7, %6 : tensor<70x70xf64>
    %9 = stablehlo.add %0, %8 : tensor<70x70xf64>
    %10 = stablehlo.transpose %9, dims = [1, 0] : (tensor<70x70xf64>) -> tensor<70x70xf64>
    %11 = call @_solve_triangular(%9, %arg1) : (tensor<70x70xf64>, tensor<70x13xf64>) -> tensor<70x13xf64>
    %12 = call @_solve_triangular_0(%10, %arg1) : (tensor<70x70xf64>, tensor<70x13xf64>) -> tensor<70x13xf64>
    %13 = call @_solve_triangular_1(%9, %arg1) : (tensor<70x70xf64>, tensor<70x13xf64>) -> tensor<70x13xf64>
    %14 = call @_solve_triangular_2(%10, %arg1) : (tensor<70x70xf64>, tensor<70x13xf64>) -> tensor<70x13xf64>
    %15 = call @_solve_triangular_3(%9, %arg1) : (tensor<70x70xf64>, tensor<70x13xf64>) -> tensor<70x13xf64>
    %16 = call @_solve_triangular_4(%10, %arg1) : (tensor<70x70xf64>, tensor<70x13xf64>) -> tensor<70x13xf64>
    return %11, %12, %13, %14, %15, %16 : tensor<70x13xf64>, tensor<70x13xf64>, tensor<70x13xf64>, tensor<70x13xf64>, tensor<70x13xf64>, tensor<70x13xf64>
  }
  func.func private @tril(%arg0: tensor<70x70xf64>) -> tensor<70x70xf64> {
    %0 = stablehlo.iota dim = 0 : tensor<70x70xi64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<70x70xi64>
    %2 = stablehlo.add %0, %1 : tensor<70x70xi64>
    %3 = stablehlo.iota dim = 1 : tensor<70x70xi64>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<70x70xi64>, tensor<70x70xi64>) -> tensor<70x70xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<70x70xf64>
    %6 = stablehlo.select %4, %arg0, %5 : tensor<70x70xi1>, tensor<70x70xf64>
    return %6 : tensor<70x70xf64>
  }
  func.func private @_solve_triangular(%arg0: tensor<70x70xf64>, %arg1: tensor<70x13xf64>) -> tensor<70x13xf64> {
    %0 = "stablehlo.triangular_solve"(%arg0, %arg1) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<70x70xf64>, tensor<70x13xf64>) -> tensor<70x13xf64>
    return %0 : tensor<70x13xf64>
  }
  func.func private @_solve_triangular_0(%arg0: tensor<70x70xf64>, %arg1: tensor<70x13xf64>) -> tensor<70x13xf64> {
    %0 = "stablehlo.triangular_solve"(%arg0, %arg1) <{left_side = true, lower = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = true}> : (tensor<70x70xf64>, tensor<70x13xf64>) -> tensor<70x13xf64>
    return %0 : tensor<70x13xf64>
  }
  func.func private @_solve_triangular_1(%arg0: tensor<70x70xf64>, %arg1: tensor<70x13xf64>) -> tensor<70x13xf64> {
    %0 = "stablehlo.triangular_solve"(%arg0, %arg1) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose TRANSPOSE>, unit_diagonal = false}> : (tensor<70x70xf64>, tensor<70x13xf64>) -> tensor<70x13xf64>
    return %0 : tensor<70x13xf64>
  }
  func.func private @_solve_triangular_2(%arg0: tensor<70x70xf64>, %arg1: tensor<70x13xf64>) -> tensor<70x13xf64> {
    %0 = "stablehlo.triangular_solve"(%arg0, %arg1) <{left_side = true, lower = false, transpose_a = #stablehlo<transpose TRANSPOSE>, unit_diagonal = true}> : (tensor<70x70xf64>, tensor<70x13xf64>) -> tensor<70x13xf64>
    return %0 : tensor<70x13xf64>
  }
  func.func private @_solve_triangular_3(%arg0: tensor<70x70xf64>, %arg1: tensor<70x13xf64>) -> tensor<70x13xf64> {
    %0 = "stablehlo.triangular_solve"(%arg0, %arg1) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose TRANSPOSE>, unit_diagonal = false}> : (tensor<70x70xf64>, tensor<70x13xf64>) -> tensor<70x13xf64>
    return %0 : tensor<70x13xf64>
  }
  func.func private @_solve_triangular_4(%arg0: tensor<70x70xf64>, %arg1: tensor<70x13xf64>) -> tensor<70x13xf64> {
    %0 = "stablehlo.triangular_solve"(%arg0, %arg1) <{left_side = true, lower = false, transpose_a = #stablehlo<transpose TRANSPOSE>, unit_diagonal = true}> : (tensor<70x70xf64>, tensor<70x13xf64>) -> tensor<70x13xf64>
    return %0 : tensor<70x13xf64>
  }
}
