// JAX 0.10.2: reductions_c64
module @jit_reductions attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x40xf32>, %arg1: tensor<6x40xf32>) -> (tensor<6xcomplex<f32>> {jax.result_info = "result[0]"}, tensor<complex<f32>> {jax.result_info = "result[1]"}, tensor<6xcomplex<f32>> {jax.result_info = "result[2]"}, tensor<40xcomplex<f32>> {jax.result_info = "result[3]"}) {
    %0 = stablehlo.complex %arg0, %arg1 : tensor<6x40xcomplex<f32>>
    %cst = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<6x40xcomplex<f32>>, tensor<complex<f32>>) -> tensor<6xcomplex<f32>>
    %cst_0 = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %2 = stablehlo.reduce(%0 init: %cst_0) applies stablehlo.add across dimensions = [0, 1] : (tensor<6x40xcomplex<f32>>, tensor<complex<f32>>) -> tensor<complex<f32>>
    %3 = stablehlo.slice %0 [0:6, 0:5] : (tensor<6x40xcomplex<f32>>) -> tensor<6x5xcomplex<f32>>
    %cst_1 = stablehlo.constant dense<(1.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %4 = stablehlo.reduce(%3 init: %cst_1) applies stablehlo.multiply across dimensions = [1] : (tensor<6x5xcomplex<f32>>, tensor<complex<f32>>) -> tensor<6xcomplex<f32>>
    %cst_2 = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %5 = stablehlo.reduce(%0 init: %cst_2) applies stablehlo.add across dimensions = [0] : (tensor<6x40xcomplex<f32>>, tensor<complex<f32>>) -> tensor<40xcomplex<f32>>
    %cst_3 = stablehlo.constant dense<(6.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %6 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<complex<f32>>) -> tensor<40xcomplex<f32>>
    %7 = stablehlo.divide %5, %6 : tensor<40xcomplex<f32>>
    return %1, %2, %4, %7 : tensor<6xcomplex<f32>>, tensor<complex<f32>>, tensor<6xcomplex<f32>>, tensor<40xcomplex<f32>>
  }
}
