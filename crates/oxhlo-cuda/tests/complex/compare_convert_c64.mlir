// JAX 0.10.2: compare_convert_c64
module @jit_compare_and_convert attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5x7xf32>, %arg1: tensor<5x7xf32>, %arg2: tensor<5x7xi32>) -> (tensor<5x7xi1> {jax.result_info = "result[0]"}, tensor<5x7xi1> {jax.result_info = "result[1]"}, tensor<5x7xcomplex<f32>> {jax.result_info = "result[2]"}, tensor<5x7xcomplex<f32>> {jax.result_info = "result[3]"}) {
    %0 = stablehlo.complex %arg0, %arg1 : tensor<5x7xcomplex<f32>>
    %cst = stablehlo.constant dense<(1.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f32>>) -> tensor<5x7xcomplex<f32>>
    %2 = stablehlo.multiply %0, %1 : tensor<5x7xcomplex<f32>>
    %3 = stablehlo.compare EQ, %0, %2, FLOAT : (tensor<5x7xcomplex<f32>>, tensor<5x7xcomplex<f32>>) -> tensor<5x7xi1>
    %4 = stablehlo.convert %arg0 : (tensor<5x7xf32>) -> tensor<5x7xcomplex<f32>>
    %5 = stablehlo.compare NE, %0, %4, FLOAT : (tensor<5x7xcomplex<f32>>, tensor<5x7xcomplex<f32>>) -> tensor<5x7xi1>
    %6 = stablehlo.convert %arg2 : (tensor<5x7xi32>) -> tensor<5x7xcomplex<f32>>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<5x7xf32>
    %8 = stablehlo.compare GT, %arg0, %7, FLOAT : (tensor<5x7xf32>, tensor<5x7xf32>) -> tensor<5x7xi1>
    %9 = stablehlo.multiply %0, %0 : tensor<5x7xcomplex<f32>>
    %10 = call @_where(%8, %0, %9) : (tensor<5x7xi1>, tensor<5x7xcomplex<f32>>, tensor<5x7xcomplex<f32>>) -> tensor<5x7xcomplex<f32>>
    return %3, %5, %6, %10 : tensor<5x7xi1>, tensor<5x7xi1>, tensor<5x7xcomplex<f32>>, tensor<5x7xcomplex<f32>>
  }
  func.func private @_where(%arg0: tensor<5x7xi1>, %arg1: tensor<5x7xcomplex<f32>>, %arg2: tensor<5x7xcomplex<f32>>) -> tensor<5x7xcomplex<f32>> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<5x7xi1>, tensor<5x7xcomplex<f32>>
    return %0 : tensor<5x7xcomplex<f32>>
  }
}
