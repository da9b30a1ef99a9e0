// JAX 0.10.2: cho_solve_f32
module @jit_cho_solve attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<12x12xf32>, %arg1: tensor<12x5xf32>) -> (tensor<12x5xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<12x12xf32>) -> tensor<12x12xf32>
    %1 = stablehlo.dot_general %arg0, %0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<12x12xf32>, tensor<12x12xf32>) -> tensor<12x12xf32>
    %2 = stablehlo.iota dim = 0 : tensor<12x12xi64>
    %3 = stablehlo.iota dim = 1 : tensor<12x12xi64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %4 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<12x12xi64>
    %5 = stablehlo.add %2, %4 : tensor<12x12xi64>
    %6 = stablehlo.compare EQ, %5, %3, SIGNED : (tensor<12x12xi64>, tensor<12x12xi64>) -> tensor<12x12xi1>
    %7 = stablehlo.convert %6 : (tensor<12x12xi1>) -> tensor<12x12xf32>
    %cst = stablehlo.constant dense<1.200000e+01> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<12x12xf32>
    %9 = stablehlo.multiply %8, %7 : tensor<12x12xf32>
    %10 = stablehlo.add %1, %9 : tensor<12x12xf32>
    %11 = call @_cholesky(%10) : (tensor<12x12xf32>) -> tensor<12x12xf32>
    %12 = call @_cho_solve(%11, %arg1) : (tensor<12x12xf32>, tensor<12x5xf32>) -> tensor<12x5xf32>
    return %12 : tensor<12x5xf32>
  }
  func.func private @_cholesky(%arg0: tensor<12x12xf32>) -> tensor<12x12xf32> {
    %0 = stablehlo.cholesky %arg0, lower = true : tensor<12x12xf32>
    %1 = stablehlo.iota dim = 0 : tensor<12x12xi64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %2 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<12x12xi64>
    %3 = stablehlo.add %1, %2 : tensor<12x12xi64>
    %4 = stablehlo.iota dim = 1 : tensor<12x12xi64>
    %5 = stablehlo.compare GE, %3, %4, SIGNED : (tensor<12x12xi64>, tensor<12x12xi64>) -> tensor<12x12xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<12x12xf32>
    %7 = stablehlo.select %5, %0, %6 : tensor<12x12xi1>, tensor<12x12xf32>
    return %7 : tensor<12x12xf32>
  }
  func.func private @_cho_solve(%arg0: tensor<12x12xf32>, %arg1: tensor<12x5xf32>) -> tensor<12x5xf32> {
    %0 = "stablehlo.triangular_solve"(%arg0, %arg1) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<12x12xf32>, tensor<12x5xf32>) -> tensor<12x5xf32>
    %1 = "stablehlo.triangular_solve"(%arg0, %0) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose TRANSPOSE>, unit_diagonal = false}> : (tensor<12x12xf32>, tensor<12x5xf32>) -> tensor<12x5xf32>
    return %1 : tensor<12x5xf32>
  }
}
