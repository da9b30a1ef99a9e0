// JAX 0.10.2: rfft_long_f64
module @jit_rfft_irfft attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x130xf64>) -> (tensor<2x66xcomplex<f64>> {jax.result_info = "result[0]"}, tensor<2x130xf64> {jax.result_info = "result[1]"}) {
    %0 = call @fft(%arg0) : (tensor<2x130xf64>) -> tensor<2x66xcomplex<f64>>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %1 = call @_pad(%0, %c) : (tensor<2x66xcomplex<f64>>, tensor<i64>) -> tensor<2x66xcomplex<f64>>
    %2 = call @fft_0(%1) : (tensor<2x66xcomplex<f64>>) -> tensor<2x130xf64>
    return %0, %2 : tensor<2x66xcomplex<f64>>, tensor<2x130xf64>
  }
  func.func private @fft(%arg0: tensor<2x130xf64>) -> tensor<2x66xcomplex<f64>> {
    %0 = stablehlo.fft %arg0, type = RFFT, length = [130] : (tensor<2x130xf64>) -> tensor<2x66xcomplex<f64>>
    return %0 : tensor<2x66xcomplex<f64>>
  }
  func.func private @_pad(%arg0: tensor<2x66xcomplex<f64>>, %arg1: tensor<i64>) -> tensor<2x66xcomplex<f64>> {
    %0 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<complex<f64>>
    %1 = stablehlo.pad %arg0, %0, low = [0, 0], high = [0, 0], interior = [0, 0] : (tensor<2x66xcomplex<f64>>, tensor<complex<f64>>) -> tensor<2x66xcomplex<f64>>
    return %1 : tensor<2x66xcomplex<f64>>
  }
  func.func private @fft_0(%arg0: tensor<2x66xcomplex<f64>>) -> tensor<2x130xf64> {
    %0 = stablehlo.fft %arg0, type = IRFFT, length = [130] : (tensor<2x66xcomplex<f64>>) -> tensor<2x130xf64>
    return %0 : tensor<2x130xf64>
  }
}
