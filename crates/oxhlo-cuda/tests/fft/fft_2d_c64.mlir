// JAX 0.10.2: fft_2d_c64
module @jit_fft_2d attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x8x6xf32>, %arg1: tensor<2x8x6xf32>) -> (tensor<2x8x6xcomplex<f32>> {jax.result_info = "result[0]"}, tensor<2x8x6xcomplex<f32>> {jax.result_info = "result[1]"}, tensor<2x8x4xcomplex<f32>> {jax.result_info = "result[2]"}, tensor<2x8x6xf32> {jax.result_info = "result[3]"}) {
    %0 = stablehlo.complex %arg0, %arg1 : tensor<2x8x6xcomplex<f32>>
    %1 = call @fft(%0) : (tensor<2x8x6xcomplex<f32>>) -> tensor<2x8x6xcomplex<f32>>
    %2 = call @fft_0(%0) : (tensor<2x8x6xcomplex<f32>>) -> tensor<2x8x6xcomplex<f32>>
    %3 = call @fft_1(%arg0) : (tensor<2x8x6xf32>) -> tensor<2x8x4xcomplex<f32>>
    %4 = call @fft_1(%arg0) : (tensor<2x8x6xf32>) -> tensor<2x8x4xcomplex<f32>>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %5 = call @_pad(%4, %c) : (tensor<2x8x4xcomplex<f32>>, tensor<i64>) -> tensor<2x8x4xcomplex<f32>>
    %6 = call @fft_2(%5) : (tensor<2x8x4xcomplex<f32>>) -> tensor<2x8x6xf32>
    return %1, %2, %3, %6 : tensor<2x8x6xcomplex<f32>>, tensor<2x8x6xcomplex<f32>>, tensor<2x8x4xcomplex<f32>>, tensor<2x8x6xf32>
  }
  func.func private @fft(%arg0: tensor<2x8x6xcomplex<f32>>) -> tensor<2x8x6xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = FFT, length = [8, 6] : (tensor<2x8x6xcomplex<f32>>) -> tensor<2x8x6xcomplex<f32>>
    return %0 : tensor<2x8x6xcomplex<f32>>
  }
  func.func private @fft_0(%arg0: tensor<2x8x6xcomplex<f32>>) -> tensor<2x8x6xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = IFFT, length = [8, 6] : (tensor<2x8x6xcomplex<f32>>) -> tensor<2x8x6xcomplex<f32>>
    return %0 : tensor<2x8x6xcomplex<f32>>
  }
  func.func private @fft_1(%arg0: tensor<2x8x6xf32>) -> tensor<2x8x4xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = RFFT, length = [8, 6] : (tensor<2x8x6xf32>) -> tensor<2x8x4xcomplex<f32>>
    return %0 : tensor<2x8x4xcomplex<f32>>
  }
  func.func private @_pad(%arg0: tensor<2x8x4xcomplex<f32>>, %arg1: tensor<i64>) -> tensor<2x8x4xcomplex<f32>> {
    %0 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<complex<f32>>
    %1 = stablehlo.pad %arg0, %0, low = [0, 0, 0], high = [0, 0, 0], interior = [0, 0, 0] : (tensor<2x8x4xcomplex<f32>>, tensor<complex<f32>>) -> tensor<2x8x4xcomplex<f32>>
    return %1 : tensor<2x8x4xcomplex<f32>>
  }
  func.func private @fft_2(%arg0: tensor<2x8x4xcomplex<f32>>) -> tensor<2x8x6xf32> {
    %0 = stablehlo.fft %arg0, type = IRFFT, length = [8, 6] : (tensor<2x8x4xcomplex<f32>>) -> tensor<2x8x6xf32>
    return %0 : tensor<2x8x6xf32>
  }
}
