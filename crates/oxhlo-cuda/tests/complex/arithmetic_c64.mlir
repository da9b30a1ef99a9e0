// JAX 0.10.2: arithmetic_c64
module @jit_arithmetic attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<64xf32>, %arg1: tensor<64xf32>, %arg2: tensor<64xf32>, %arg3: tensor<64xf32>) -> (tensor<64xcomplex<f32>> {jax.result_info = "result[0]"}, tensor<64xcomplex<f32>> {jax.result_info = "result[1]"}, tensor<64xcomplex<f32>> {jax.result_info = "result[2]"}, tensor<64xcomplex<f32>> {jax.result_info = "result[3]"}, tensor<64xcomplex<f32>> {jax.result_info = "result[4]"}, tensor<64xcomplex<f32>> {jax.result_info = "result[5]"}, tensor<64xf32> {jax.result_info = "result[6]"}, tensor<64xf32> {jax.result_info = "result[7]"}, tensor<64xf32> {jax.result_info = "result[8]"}) {
    %0 = stablehlo.complex %arg0, %arg1 : tensor<64xcomplex<f32>>
    %1 = stablehlo.complex %arg2, %arg3 : tensor<64xcomplex<f32>>
    %2 = stablehlo.add %0, %1 : tensor<64xcomplex<f32>>
    %3 = stablehlo.subtract %0, %1 : tensor<64xcomplex<f32>>
    %4 = stablehlo.multiply %0, %1 : tensor<64xcomplex<f32>>
    %5 = stablehlo.divide %0, %1 : tensor<64xcomplex<f32>>
    %6 = stablehlo.negate %0 : tensor<64xcomplex<f32>>
    %7 = stablehlo.real %0 : (tensor<64xcomplex<f32>>) -> tensor<64xf32>
    %8 = stablehlo.imag %0 : (tensor<64xcomplex<f32>>) -> tensor<64xf32>
    %9 = stablehlo.negate %8 : tensor<64xf32>
    %10 = stablehlo.complex %7, %9 : tensor<64xcomplex<f32>>
    %11 = stablehlo.abs %0 : (tensor<64xcomplex<f32>>) -> tensor<64xf32>
    %12 = stablehlo.multiply %0, %1 : tensor<64xcomplex<f32>>
    %13 = stablehlo.real %12 : (tensor<64xcomplex<f32>>) -> tensor<64xf32>
    %14 = stablehlo.divide %0, %1 : tensor<64xcomplex<f32>>
    %15 = stablehlo.imag %14 : (tensor<64xcomplex<f32>>) -> tensor<64xf32>
    return %2, %3, %4, %5, %6, %10, %11, %13, %15 : tensor<64xcomplex<f32>>, tensor<64xcomplex<f32>>, tensor<64xcomplex<f32>>, tensor<64xcomplex<f32>>, tensor<64xcomplex<f32>>, tensor<64xcomplex<f32>>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
  }
}
