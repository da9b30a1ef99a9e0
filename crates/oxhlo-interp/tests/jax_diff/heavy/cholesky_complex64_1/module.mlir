module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x1x1xcomplex<f32>>) -> (tensor<2x1x1xcomplex<f32>> {jax.result_info = "result"}) {
    %0 = stablehlo.cholesky %arg0, lower = true : tensor<2x1x1xcomplex<f32>>
    %1 = stablehlo.iota dim = 0 : tensor<1x1xi64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %2 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<1x1xi64>
    %3 = stablehlo.add %1, %2 : tensor<1x1xi64>
    %4 = stablehlo.iota dim = 1 : tensor<1x1xi64>
    %5 = stablehlo.compare GE, %3, %4, SIGNED : (tensor<1x1xi64>, tensor<1x1xi64>) -> tensor<1x1xi1>
    %6 = stablehlo.broadcast_in_dim %5, dims = [1, 2] : (tensor<1x1xi1>) -> tensor<2x1x1xi1>
    %cst = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %7 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f32>>) -> tensor<2x1x1xcomplex<f32>>
    %8 = stablehlo.select %6, %0, %7 : tensor<2x1x1xi1>, tensor<2x1x1xcomplex<f32>>
    return %8 : tensor<2x1x1xcomplex<f32>>
  }
}
