module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<7xf64>) -> (tensor<4xcomplex<f64>> {jax.result_info = "result"}) {
    %0 = call @fft(%arg0) : (tensor<7xf64>) -> tensor<4xcomplex<f64>>
    return %0 : tensor<4xcomplex<f64>>
  }
  func.func private @fft(%arg0: tensor<7xf64>) -> tensor<4xcomplex<f64>> {
    %0 = stablehlo.fft %arg0, type = RFFT, length = [7] : (tensor<7xf64>) -> tensor<4xcomplex<f64>>
    return %0 : tensor<4xcomplex<f64>>
  }
}
