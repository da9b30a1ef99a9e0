// JAX 0.10.2: functions_c128
module @jit_functions attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<40xf64>, %arg1: tensor<40xf64>) -> (tensor<40xcomplex<f64>> {jax.result_info = "result[0]"}, tensor<40xcomplex<f64>> {jax.result_info = "result[1]"}, tensor<40xcomplex<f64>> {jax.result_info = "result[2]"}, tensor<40xcomplex<f64>> {jax.result_info = "result[3]"}, tensor<40xcomplex<f64>> {jax.result_info = "result[4]"}, tensor<40xcomplex<f64>> {jax.result_info = "result[5]"}, tensor<40xcomplex<f64>> {jax.result_info = "result[6]"}, tensor<40xcomplex<f64>> {jax.result_info = "result[7]"}) {
    %cst = stablehlo.constant dense<3.000000e+00> : tensor<f64>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<40xf64>
    %1 = stablehlo.multiply %arg0, %0 : tensor<40xf64>
    %cst_0 = stablehlo.constant dense<3.000000e+00> : tensor<f64>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f64>) -> tensor<40xf64>
    %3 = stablehlo.multiply %arg1, %2 : tensor<40xf64>
    %4 = stablehlo.complex %1, %3 : tensor<40xcomplex<f64>>
    %cst_1 = stablehlo.constant dense<4.000000e+01> : tensor<f64>
    %5 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f64>) -> tensor<40xf64>
    %6 = stablehlo.multiply %arg0, %5 : tensor<40xf64>
    %7 = stablehlo.complex %6, %arg1 : tensor<40xcomplex<f64>>
    %8 = stablehlo.exponential %4 : tensor<40xcomplex<f64>>
    %9 = stablehlo.log %4 : tensor<40xcomplex<f64>>
    %10 = stablehlo.sqrt %4 : tensor<40xcomplex<f64>>
    %11 = stablehlo.real %4 : (tensor<40xcomplex<f64>>) -> tensor<40xf64>
    %12 = stablehlo.imag %4 : (tensor<40xcomplex<f64>>) -> tensor<40xf64>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %13 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f64>) -> tensor<40xf64>
    %14 = stablehlo.compare EQ, %11, %13, FLOAT : (tensor<40xf64>, tensor<40xf64>) -> tensor<40xi1>
    %15 = stablehlo.sine %11 : tensor<40xf64>
    %16 = stablehlo.cosine %11 : tensor<40xf64>
    %17 = stablehlo.exponential_minus_one %12 : tensor<40xf64>
    %18 = stablehlo.negate %12 : tensor<40xf64>
    %19 = stablehlo.exponential_minus_one %18 : tensor<40xf64>
    %20 = stablehlo.subtract %17, %19 : tensor<40xf64>
    %cst_3 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %21 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f64>) -> tensor<40xf64>
    %22 = stablehlo.divide %20, %21 : tensor<40xf64>
    %23 = stablehlo.add %17, %19 : tensor<40xf64>
    %cst_4 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %24 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f64>) -> tensor<40xf64>
    %25 = stablehlo.add %23, %24 : tensor<40xf64>
    %cst_5 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %26 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f64>) -> tensor<40xf64>
    %27 = stablehlo.divide %25, %26 : tensor<40xf64>
    %28 = stablehlo.multiply %15, %27 : tensor<40xf64>
    %29 = stablehlo.multiply %16, %22 : tensor<40xf64>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %30 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f64>) -> tensor<40xf64>
    %31 = stablehlo.complex %30, %29 : tensor<40xcomplex<f64>>
    %32 = stablehlo.complex %28, %29 : tensor<40xcomplex<f64>>
    %33 = stablehlo.select %14, %31, %32 : tensor<40xi1>, tensor<40xcomplex<f64>>
    %34 = stablehlo.real %4 : (tensor<40xcomplex<f64>>) -> tensor<40xf64>
    %35 = stablehlo.imag %4 : (tensor<40xcomplex<f64>>) -> tensor<40xf64>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %36 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f64>) -> tensor<40xf64>
    %37 = stablehlo.compare EQ, %34, %36, FLOAT : (tensor<40xf64>, tensor<40xf64>) -> tensor<40xi1>
    %38 = stablehlo.sine %34 : tensor<40xf64>
    %39 = stablehlo.cosine %34 : tensor<40xf64>
    %40 = stablehlo.exponential_minus_one %35 : tensor<40xf64>
    %41 = stablehlo.negate %35 : tensor<40xf64>
    %42 = stablehlo.exponential_minus_one %41 : tensor<40xf64>
    %43 = stablehlo.subtract %40, %42 : tensor<40xf64>
    %cst_8 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %44 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f64>) -> tensor<40xf64>
    %45 = stablehlo.divide %43, %44 : tensor<40xf64>
    %46 = stablehlo.add %40, %42 : tensor<40xf64>
    %cst_9 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %47 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f64>) -> tensor<40xf64>
    %48 = stablehlo.add %46, %47 : tensor<40xf64>
    %cst_10 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %49 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f64>) -> tensor<40xf64>
    %50 = stablehlo.divide %48, %49 : tensor<40xf64>
    %51 = stablehlo.multiply %39, %50 : tensor<40xf64>
    %52 = stablehlo.negate %38 : tensor<40xf64>
    %53 = stablehlo.multiply %52, %45 : tensor<40xf64>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %54 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f64>) -> tensor<40xf64>
    %55 = stablehlo.complex %51, %54 : tensor<40xcomplex<f64>>
    %56 = stablehlo.complex %51, %53 : tensor<40xcomplex<f64>>
    %57 = stablehlo.select %37, %55, %56 : tensor<40xi1>, tensor<40xcomplex<f64>>
    %58 = stablehlo.tanh %4 : tensor<40xcomplex<f64>>
    %59 = stablehlo.tanh %7 : tensor<40xcomplex<f64>>
    %60 = stablehlo.negate %4 : tensor<40xcomplex<f64>>
    %61 = stablehlo.sqrt %60 : tensor<40xcomplex<f64>>
    return %8, %9, %10, %33, %57, %58, %59, %61 : tensor<40xcomplex<f64>>, tensor<40xcomplex<f64>>, tensor<40xcomplex<f64>>, tensor<40xcomplex<f64>>, tensor<40xcomplex<f64>>, tensor<40xcomplex<f64>>, tensor<40xcomplex<f64>>, tensor<40xcomplex<f64>>
  }
}
