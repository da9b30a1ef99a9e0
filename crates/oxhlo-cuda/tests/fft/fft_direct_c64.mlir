// JAX 0.10.2: fft_direct_c64
module @jit_fft_1d attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x12xf32>, %arg1: tensor<2x12xf32>) -> (tensor<2x12xcomplex<f32>> {jax.result_info = "result[0]"}, tensor<2x12xcomplex<f32>> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.complex %arg0, %arg1 : tensor<2x12xcomplex<f32>>
    %1 = call @fft(%0) : (tensor<2x12xcomplex<f32>>) -> tensor<2x12xcomplex<f32>>
    %2 = call @fft_0(%0) : (tensor<2x12xcomplex<f32>>) -> tensor<2x12xcomplex<f32>>
    return %1, %2 : tensor<2x12xcomplex<f32>>, tensor<2x12xcomplex<f32>>
  }
  func.func private @fft(%arg0: tensor<2x12xcomplex<f32>>) -> tensor<2x12xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = FFT, length = [12] : (tensor<2x12xcomplex<f32>>) -> tensor<2x12xcomplex<f32>>
    return %0 : tensor<2x12xcomplex<f32>>
  }
  func.func private @fft_0(%arg0: tensor<2x12xcomplex<f32>>) -> tensor<2x12xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = IFFT, length = [12] : (tensor<2x12xcomplex<f32>>) -> tensor<2x12xcomplex<f32>>
    return %0 : tensor<2x12xcomplex<f32>>
  }
}
