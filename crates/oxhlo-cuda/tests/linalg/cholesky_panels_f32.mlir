// JAX 0.10.2: cholesky_panels_f32
module @jit_cholesky_upper_batched attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x100x100xf32>) -> (tensor<2x100x100xf32> {jax.result_info = "result[0]"}, tensor<2x100x100xf32> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.transpose %arg0, dims = [0, 2, 1] : (tensor<2x100x100xf32>) -> tensor<2x100x100xf32>
    %1 = stablehlo.dot_general %arg0, %0, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x100x100xf32>, tensor<2x100x100xf32>) -> tensor<2x100x100xf32>
    %2 = stablehlo.iota dim = 0 : tensor<100x100xi64>
    %3 = stablehlo.iota dim = 1 : tensor<100x100xi64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %4 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<100x100xi64>
    %5 = stablehlo.add %2, %4 : tensor<100x100xi64>
    %6 = stablehlo.compare EQ, %5, %3, SIGNED : (tensor<100x100xi64>, tensor<100x100xi64>) -> tensor<100x100xi1>
    %7 = stablehlo.convert %6 : (tensor<100x100xi1>) -> tensor<100x100xf32>
    %cst = stablehlo.constant dense<1.000000e+02> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<100x100xf32>
    %9 = stablehlo.multiply %8, %7 : tensor<100x100xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [1, 2] : (tensor<100x100xf32>) -> tensor<1x100x100xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [0, 1, 2] : (tensor<1x100x100xf32>) -> tensor<2x100x100xf32>
    %12 = stablehlo.add %1, %11 : tensor<2x100x100xf32>
    %13 = stablehlo.cholesky %12, lower = true : tensor<2x100x100xf32>
    %14 = stablehlo.iota dim = 0 : tensor<100x100xi64>
    %c_0 = stablehlo.constant dense<0> : tensor<i64>
    %15 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i64>) -> tensor<100x100xi64>
    %16 = stablehlo.add %14, %15 : tensor<100x100xi64>
    %17 = stablehlo.iota dim = 1 : tensor<100x100xi64>
    %18 = stablehlo.compare GE, %16, %17, SIGNED : (tensor<100x100xi64>, tensor<100x100xi64>) -> tensor<100x100xi1>
    %19 = stablehlo.broadcast_in_dim %18, dims = [1, 2] : (tensor<100x100xi1>) -> tensor<2x100x100xi1>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %20 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<2x100x100xf32>
    %21 = stablehlo.select %19, %13, %20 : tensor<2x100x100xi1>, tensor<2x100x100xf32>
    %22 = stablehlo.transpose %arg0, dims = [0, 2, 1] : (tensor<2x100x100xf32>) -> tensor<2x100x100xf32>
    %23 = stablehlo.dot_general %arg0, %22, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x100x100xf32>, tensor<2x100x100xf32>) -> tensor<2x100x100xf32>
    %24 = stablehlo.iota dim = 0 : tensor<100x100xi64>
    %25 = stablehlo.iota dim = 1 : tensor<100x100xi64>
    %c_2 = stablehlo.constant dense<0> : tensor<i64>
    %26 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i64>) -> tensor<100x100xi64>
    %27 = stablehlo.add %24, %26 : tensor<100x100xi64>
    %28 = stablehlo.compare EQ, %27, %25, SIGNED : (tensor<100x100xi64>, tensor<100x100xi64>) -> tensor<100x100xi1>
    %29 = stablehlo.convert %28 : (tensor<100x100xi1>) -> tensor<100x100xf32>
    %cst_3 = stablehlo.constant dense<1.000000e+02> : tensor<f32>
    %30 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<100x100xf32>
    %31 = stablehlo.multiply %30, %29 : tensor<100x100xf32>
    %32 = stablehlo.broadcast_in_dim %31, dims = [1, 2] : (tensor<100x100xf32>) -> tensor<1x100x100xf32>
    %33 = stablehlo.broadcast_in_dim %32, dims = [0, 1, 2] : (tensor<1x100x100xf32>) -> tensor<2x100x100xf32>
    %34 = stablehlo.add %23, %33 : tensor<2x100x100xf32>
    %35 = call @_cholesky(%34) : (tensor<2x100x100xf32>) -> tensor<2x100x100xf32>
    return %21, %35 : tensor<2x100x100xf32>, tensor<2x100x100xf32>
  }
  func.func private @_cholesky(%arg0: tensor<2x100x100xf32>) -> tensor<2x100x100xf32> {
    %0 = stablehlo.transpose %arg0, dims = [0, 2, 1] : (tensor<2x100x100xf32>) -> tensor<2x100x100xf32>
    %1 = stablehlo.cholesky %0, lower = true : tensor<2x100x100xf32>
    %2 = stablehlo.iota dim = 0 : tensor<100x100xi64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %3 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<100x100xi64>
    %4 = stablehlo.add %2, %3 : tensor<100x100xi64>
    %5 = stablehlo.iota dim = 1 : tensor<100x100xi64>
    %6 = stablehlo.compare GE, %4, %5, SIGNED : (tensor<100x100xi64>, tensor<100x100xi64>) -> tensor<100x100xi1>
    %7 = stablehlo.broadcast_in_dim %6, dims = [1, 2] : (tensor<100x100xi1>) -> tensor<2x100x100xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x100x100xf32>
    %9 = stablehlo.select %7, %1, %8 : tensor<2x100x100xi1>, tensor<2x100x100xf32>
    %10 = stablehlo.transpose %9, dims = [0, 2, 1] : (tensor<2x100x100xf32>) -> tensor<2x100x100xf32>
    return %10 : tensor<2x100x100xf32>
  }
}
