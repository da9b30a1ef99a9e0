module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x5xi64>, %arg1: tensor<5x2xi64>) -> (tensor<3x2xi64> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x5xi64>, tensor<5x2xi64>) -> tensor<3x2xi64>
    return %0 : tensor<3x2xi64>
  }
}
