module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x4x5xui8>) -> (tensor<ui8> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<ui8>
    %0 = stablehlo.reduce(%arg0 init: %c) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<3x4x5xui8>, tensor<ui8>) -> tensor<ui8>
    return %0 : tensor<ui8>
  }
}
