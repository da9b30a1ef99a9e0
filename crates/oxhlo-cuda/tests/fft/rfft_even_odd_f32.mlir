// JAX 0.10.2: rfft_even_odd_f32
module @jit_rfft_irfft attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x20xf32>) -> (tensor<4x11xcomplex<f32>> {jax.result_info = "result[0]"}, tensor<4x20xf32> {jax.result_info = "result[1]"}) {
    %0 = call @fft(%arg0) : (tensor<4x20xf32>) -> tensor<4x11xcomplex<f32>>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %1 = call @_pad(%0, %c) : (tensor<4x11xcomplex<f32>>, tensor<i64>) -> tensor<4x11xcomplex<f32>>
    %2 = call @fft_0(%1) : (tensor<4x11xcomplex<f32>>) -> tensor<4x20xf32>
    return %0, %2 : tensor<4x11xcomplex<f32>>, tensor<4x20xf32>
  }
  func.func private @fft(%arg0: tensor<4x20xf32>) -> tensor<4x11xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = RFFT, length = [20] : (tensor<4x20xf32>) -> tensor<4x11xcomplex<f32>>
    return %0 : tensor<4x11xcomplex<f32>>
  }
  func.func private @_pad(%arg0: tensor<4x11xcomplex<f32>>, %arg1: tensor<i64>) -> tensor<4x11xcomplex<f32>> {
    %0 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<complex<f32>>
    %1 = stablehlo.pad %arg0, %0, low = [0, 0], high = [0, 0], interior = [0, 0] : (tensor<4x11xcomplex<f32>>, tensor<complex<f32>>) -> tensor<4x11xcomplex<f32>>
    return %1 : tensor<4x11xcomplex<f32>>
  }
  func.func private @fft_0(%arg0: tensor<4x11xcomplex<f32>>) -> tensor<4x20xf32> {
    %0 = stablehlo.fft %arg0, type = IRFFT, length = [20] : (tensor<4x11xcomplex<f32>>) -> tensor<4x20xf32>
    return %0 : tensor<4x20xf32>
  }
}
