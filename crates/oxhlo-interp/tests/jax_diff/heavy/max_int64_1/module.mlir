module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x4x5xi64>) -> (tensor<3x5xi64> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<-9223372036854775808> : tensor<i64>
    %0 = stablehlo.reduce(%arg0 init: %c) applies stablehlo.maximum across dimensions = [1] : (tensor<3x4x5xi64>, tensor<i64>) -> tensor<3x5xi64>
    return %0 : tensor<3x5xi64>
  }
}
