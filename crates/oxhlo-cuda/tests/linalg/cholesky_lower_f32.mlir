// JAX 0.10.2: cholesky_lower_f32
module @jit_cholesky_lower attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x16xf32>) -> (tensor<16x16xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<16x16xf32>) -> tensor<16x16xf32>
    %1 = stablehlo.dot_general %arg0, %0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %2 = stablehlo.iota dim = 0 : tensor<16x16xi64>
    %3 = stablehlo.iota dim = 1 : tensor<16x16xi64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %4 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<16x16xi64>
    %5 = stablehlo.add %2, %4 : tensor<16x16xi64>
    %6 = stablehlo.compare EQ, %5, %3, SIGNED : (tensor<16x16xi64>, tensor<16x16xi64>) -> tensor<16x16xi1>
    %7 = stablehlo.convert %6 : (tensor<16x16xi1>) -> tensor<16x16xf32>
    %cst = stablehlo.constant dense<1.600000e+01> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x16xf32>
    %9 = stablehlo.multiply %8, %7 : tensor<16x16xf32>
    %10 = stablehlo.add %1, %9 : tensor<16x16xf32>
    %11 = call @cholesky(%10) : (tensor<16x16xf32>) -> tensor<16x16xf32>
    return %11 : tensor<16x16xf32>
  }
  func.func private @cholesky(%arg0: tensor<16x16xf32>) -> tensor<16x16xf32> {
    %0 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<16x16xf32>) -> tensor<16x16xf32>
    %1 = stablehlo.add %arg0, %0 : tensor<16x16xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x16xf32>
    %3 = stablehlo.divide %1, %2 : tensor<16x16xf32>
    %4 = stablehlo.cholesky %3, lower = true : tensor<16x16xf32>
    %5 = stablehlo.iota dim = 0 : tensor<16x16xi64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %6 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<16x16xi64>
    %7 = stablehlo.add %5, %6 : tensor<16x16xi64>
    %8 = stablehlo.iota dim = 1 : tensor<16x16xi64>
    %9 = stablehlo.compare GE, %7, %8, SIGNED : (tensor<16x16xi64>, tensor<16x16xi64>) -> tensor<16x16xi1>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<16x16xf32>
    %11 = stablehlo.select %9, %4, %10 : tensor<16x16xi1>, tensor<16x16xf32>
    return %11 : tensor<16x16xf32>
  }
}
