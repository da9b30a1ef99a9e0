// JAX 0.10.2: arithmetic_c128
module @jit_arithmetic_c128 attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x9xf64>, %arg1: tensor<3x9xf64>, %arg2: tensor<3x9xf64>, %arg3: tensor<3x9xf64>) -> (tensor<3x9xcomplex<f64>> {jax.result_info = "result[0]"}, tensor<3x9xcomplex<f64>> {jax.result_info = "result[1]"}, tensor<3x9xf64> {jax.result_info = "result[2]"}, tensor<3x9xi1> {jax.result_info = "result[3]"}) {
    %0 = stablehlo.complex %arg0, %arg1 : tensor<3x9xcomplex<f64>>
    %1 = stablehlo.complex %arg2, %arg3 : tensor<3x9xcomplex<f64>>
    %2 = stablehlo.multiply %0, %1 : tensor<3x9xcomplex<f64>>
    %3 = stablehlo.add %2, %0 : tensor<3x9xcomplex<f64>>
    %4 = stablehlo.divide %0, %1 : tensor<3x9xcomplex<f64>>
    %5 = stablehlo.subtract %0, %1 : tensor<3x9xcomplex<f64>>
    %6 = stablehlo.abs %5 : (tensor<3x9xcomplex<f64>>) -> tensor<3x9xf64>
    %7 = stablehlo.convert %0 : (tensor<3x9xcomplex<f64>>) -> tensor<3x9xcomplex<f32>>
    %8 = stablehlo.convert %7 : (tensor<3x9xcomplex<f32>>) -> tensor<3x9xcomplex<f64>>
    %9 = stablehlo.compare EQ, %8, %0, FLOAT : (tensor<3x9xcomplex<f64>>, tensor<3x9xcomplex<f64>>) -> tensor<3x9xi1>
    return %3, %4, %6, %9 : tensor<3x9xcomplex<f64>>, tensor<3x9xcomplex<f64>>, tensor<3x9xf64>, tensor<3x9xi1>
  }
}
