// JAX 0.10.2: cholesky_f64
module @jit_cholesky_lower attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x33x33xf64>) -> (tensor<2x33x33xf64> {jax.result_info = "result"}) {
    %0 = stablehlo.transpose %arg0, dims = [0, 2, 1] : (tensor<2x33x33xf64>) -> tensor<2x33x33xf64>
    %1 = stablehlo.dot_general %arg0, %0, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x33x33xf64>, tensor<2x33x33xf64>) -> tensor<2x33x33xf64>
    %2 = stablehlo.iota dim = 0 : tensor<33x33xi64>
    %3 = stablehlo.iota dim = 1 : tensor<33x33xi64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %4 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<33x33xi64>
    %5 = stablehlo.add %2, %4 : tensor<33x33xi64>
    %6 = stablehlo.compare EQ, %5, %3, SIGNED : (tensor<33x33xi64>, tensor<33x33xi64>) -> tensor<33x33xi1>
    %7 = stablehlo.convert %6 : (tensor<33x33xi1>) -> tensor<33x33xf64>
    %cst = stablehlo.constant dense<3.300000e+01> : tensor<f64>
    %8 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<33x33xf64>
    %9 = stablehlo.multiply %8, %7 : tensor<33x33xf64>
    %10 = stablehlo.broadcast_in_dim %9, dims = [1, 2] : (tensor<33x33xf64>) -> tensor<1x33x33xf64>
    %11 = stablehlo.broadcast_in_dim %10, dims = [0, 1, 2] : (tensor<1x33x33xf64>) -> tensor<2x33x33xf64>
    %12 = stablehlo.add %1, %11 : tensor<2x33x33xf64>
    %13 = call @cholesky(%12) : (tensor<2x33x33xf64>) -> tensor<2x33x33xf64>
    return %13 : tensor<2x33x33xf64>
  }
  func.func private @cholesky(%arg0: tensor<2x33x33xf64>) -> tensor<2x33x33xf64> {
    %0 = stablehlo.transpose %arg0, dims = [0, 2, 1] : (tensor<2x33x33xf64>) -> tensor<2x33x33xf64>
    %1 = stablehlo.add %arg0, %0 : tensor<2x33x33xf64>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<2x33x33xf64>
    %3 = stablehlo.divide %1, %2 : tensor<2x33x33xf64>
    %4 = stablehlo.cholesky %3, lower = true : tensor<2x33x33xf64>
    %5 = stablehlo.iota dim = 0 : tensor<33x33xi64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %6 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<33x33xi64>
    %7 = stablehlo.add %5, %6 : tensor<33x33xi64>
    %8 = stablehlo.iota dim = 1 : tensor<33x33xi64>
    %9 = stablehlo.compare GE, %7, %8, SIGNED : (tensor<33x33xi64>, tensor<33x33xi64>) -> tensor<33x33xi1>
    %10 = stablehlo.broadcast_in_dim %9, dims = [1, 2] : (tensor<33x33xi1>) -> tensor<2x33x33xi1>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %11 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f64>) -> tensor<2x33x33xf64>
    %12 = stablehlo.select %10, %4, %11 : tensor<2x33x33xi1>, tensor<2x33x33xf64>
    return %12 : tensor<2x33x33xf64>
  }
}
