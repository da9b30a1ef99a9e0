// JAX 0.10.2: fft_3d_c128
module @jit_fft_3d attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x3x5xf64>, %arg1: tensor<4x3x5xf64>) -> (tensor<4x3x5xcomplex<f64>> {jax.result_info = "result"}) {
    %0 = stablehlo.complex %arg0, %arg1 : tensor<4x3x5xcomplex<f64>>
    %1 = call @fft(%0) : (tensor<4x3x5xcomplex<f64>>) -> tensor<4x3x5xcomplex<f64>>
    return %1 : tensor<4x3x5xcomplex<f64>>
  }
  func.func private @fft(%arg0: tensor<4x3x5xcomplex<f64>>) -> tensor<4x3x5xcomplex<f64>> {
    %0 = stablehlo.fft %arg0, type = FFT, length = [4, 3, 5] : (tensor<4x3x5xcomplex<f64>>) -> tensor<4x3x5xcomplex<f64>>
    return %0 : tensor<4x3x5xcomplex<f64>>
  }
}
