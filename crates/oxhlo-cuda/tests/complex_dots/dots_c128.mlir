// JAX 0.10.2: dots_c128
module @jit_dots attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<12x12xf64>, %arg1: tensor<12x12xf64>, %arg2: tensor<12x12xf64>, %arg3: tensor<12x12xf64>) -> (tensor<12x12xcomplex<f64>> {jax.result_info = "result[0]"}, tensor<12x12xcomplex<f64>> {jax.result_info = "result[1]"}, tensor<4x6x6xcomplex<f64>> {jax.result_info = "result[2]"}, tensor<12xcomplex<f64>> {jax.result_info = "result[3]"}) {
    %0 = stablehlo.complex %arg0, %arg1 : tensor<12x12xcomplex<f64>>
    %1 = stablehlo.complex %arg2, %arg3 : tensor<12x12xcomplex<f64>>
    %2 = stablehlo.reshape %0 : (tensor<12x12xcomplex<f64>>) -> tensor<4x6x6xcomplex<f64>>
    %3 = stablehlo.dot_general %0, %1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<12x12xcomplex<f64>>, tensor<12x12xcomplex<f64>>) -> tensor<12x12xcomplex<f64>>
    %4 = stablehlo.transpose %1, dims = [1, 0] : (tensor<12x12xcomplex<f64>>) -> tensor<12x12xcomplex<f64>>
    %5 = stablehlo.dot_general %0, %4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<12x12xcomplex<f64>>, tensor<12x12xcomplex<f64>>) -> tensor<12x12xcomplex<f64>>
    %6 = stablehlo.dot_general %2, %2, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x6x6xcomplex<f64>>, tensor<4x6x6xcomplex<f64>>) -> tensor<4x6x6xcomplex<f64>>
    %7 = stablehlo.slice %1 [0:12, 0:1] : (tensor<12x12xcomplex<f64>>) -> tensor<12x1xcomplex<f64>>
    %8 = stablehlo.reshape %7 : (tensor<12x1xcomplex<f64>>) -> tensor<12xcomplex<f64>>
    %9 = stablehlo.dot_general %0, %8, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<12x12xcomplex<f64>>, tensor<12xcomplex<f64>>) -> tensor<12xcomplex<f64>>
    return %3, %5, %6, %9 : tensor<12x12xcomplex<f64>>, tensor<12x12xcomplex<f64>>, tensor<4x6x6xcomplex<f64>>, tensor<12xcomplex<f64>>
  }
}
