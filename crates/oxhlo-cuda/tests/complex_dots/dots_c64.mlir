// JAX 0.10.2: dots_c64
module @jit_dots attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<12x12xf32>, %arg1: tensor<12x12xf32>, %arg2: tensor<12x12xf32>, %arg3: tensor<12x12xf32>) -> (tensor<12x12xcomplex<f32>> {jax.result_info = "result[0]"}, tensor<12x12xcomplex<f32>> {jax.result_info = "result[1]"}, tensor<4x6x6xcomplex<f32>> {jax.result_info = "result[2]"}, tensor<12xcomplex<f32>> {jax.result_info = "result[3]"}) {
    %0 = stablehlo.complex %arg0, %arg1 : tensor<12x12xcomplex<f32>>
    %1 = stablehlo.complex %arg2, %arg3 : tensor<12x12xcomplex<f32>>
    %2 = stablehlo.reshape %0 : (tensor<12x12xcomplex<f32>>) -> tensor<4x6x6xcomplex<f32>>
    %3 = stablehlo.dot_general %0, %1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<12x12xcomplex<f32>>, tensor<12x12xcomplex<f32>>) -> tensor<12x12xcomplex<f32>>
    %4 = stablehlo.transpose %1, dims = [1, 0] : (tensor<12x12xcomplex<f32>>) -> tensor<12x12xcomplex<f32>>
    %5 = stablehlo.dot_general %0, %4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<12x12xcomplex<f32>>, tensor<12x12xcomplex<f32>>) -> tensor<12x12xcomplex<f32>>
    %6 = stablehlo.dot_general %2, %2, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x6x6xcomplex<f32>>, tensor<4x6x6xcomplex<f32>>) -> tensor<4x6x6xcomplex<f32>>
    %7 = stablehlo.slice %1 [0:12, 0:1] : (tensor<12x12xcomplex<f32>>) -> tensor<12x1xcomplex<f32>>
    %8 = stablehlo.reshape %7 : (tensor<12x1xcomplex<f32>>) -> tensor<12xcomplex<f32>>
    %9 = stablehlo.dot_general %0, %8, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<12x12xcomplex<f32>>, tensor<12xcomplex<f32>>) -> tensor<12xcomplex<f32>>
    return %3, %5, %6, %9 : tensor<12x12xcomplex<f32>>, tensor<12x12xcomplex<f32>>, tensor<4x6x6xcomplex<f32>>, tensor<12xcomplex<f32>>
  }
}
