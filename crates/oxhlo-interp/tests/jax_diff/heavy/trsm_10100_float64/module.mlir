module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x4x4xf64>, %arg1: tensor<2x4x3xf64>) -> (tensor<2x4x3xf64> {jax.result_info = "result"}) {
    %0 = "stablehlo.triangular_solve"(%arg0, %arg1) <{left_side = true, lower = false, transpose_a = #stablehlo<transpose TRANSPOSE>, unit_diagonal = false}> : (tensor<2x4x4xf64>, tensor<2x4x3xf64>) -> tensor<2x4x3xf64>
    return %0 : tensor<2x4x3xf64>
  }
}
