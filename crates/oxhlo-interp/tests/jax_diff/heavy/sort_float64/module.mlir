module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x17xf64>) -> (tensor<3x17xf64> {jax.result_info = "result"}) {
    %0 = call @sort(%arg0) : (tensor<3x17xf64>) -> tensor<3x17xf64>
    return %0 : tensor<3x17xf64>
  }
  func.func private @sort(%arg0: tensor<3x17xf64>) -> tensor<3x17xf64> {
    %0 = "stablehlo.sort"(%arg0) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<f64>, %arg2: tensor<f64>):
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f64>
      %1 = stablehlo.compare EQ, %arg1, %cst, FLOAT : (tensor<f64>, tensor<f64>) -> tensor<i1>
      %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
      %2 = stablehlo.select %1, %cst_0, %arg1 : tensor<i1>, tensor<f64>
      %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f64>, tensor<f64>) -> tensor<i1>
      %cst_1 = stablehlo.constant dense<0x7FF8000000000000> : tensor<f64>
      %4 = stablehlo.select %3, %cst_1, %2 : tensor<i1>, tensor<f64>
      %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
      %5 = stablehlo.compare EQ, %arg2, %cst_2, FLOAT : (tensor<f64>, tensor<f64>) -> tensor<i1>
      %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
      %6 = stablehlo.select %5, %cst_3, %arg2 : tensor<i1>, tensor<f64>
      %7 = stablehlo.compare NE, %arg2, %arg2, FLOAT : (tensor<f64>, tensor<f64>) -> tensor<i1>
      %cst_4 = stablehlo.constant dense<0x7FF8000000000000> : tensor<f64>
      %8 = stablehlo.select %7, %cst_4, %6 : tensor<i1>, tensor<f64>
      %9 = stablehlo.compare LT, %4, %8, TOTALORDER : (tensor<f64>, tensor<f64>) -> tensor<i1>
      stablehlo.return %9 : tensor<i1>
    }) : (tensor<3x17xf64>) -> tensor<3x17xf64>
    return %0 : tensor<3x17xf64>
  }
}
