// JAX 0.10.2: functions_c64
module @jit_functions attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<48xf32>, %arg1: tensor<48xf32>) -> (tensor<48xcomplex<f32>> {jax.result_info = "result[0]"}, tensor<48xcomplex<f32>> {jax.result_info = "result[1]"}, tensor<48xcomplex<f32>> {jax.result_info = "result[2]"}, tensor<48xcomplex<f32>> {jax.result_info = "result[3]"}, tensor<48xcomplex<f32>> {jax.result_info = "result[4]"}, tensor<48xcomplex<f32>> {jax.result_info = "result[5]"}, tensor<48xcomplex<f32>> {jax.result_info = "result[6]"}, tensor<48xcomplex<f32>> {jax.result_info = "result[7]"}) {
    %cst = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<48xf32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<48xf32>
    %cst_0 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<48xf32>
    %3 = stablehlo.multiply %arg1, %2 : tensor<48xf32>
    %4 = stablehlo.complex %1, %3 : tensor<48xcomplex<f32>>
    %cst_1 = stablehlo.constant dense<4.000000e+01> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<48xf32>
    %6 = stablehlo.multiply %arg0, %5 : tensor<48xf32>
    %7 = stablehlo.complex %6, %arg1 : tensor<48xcomplex<f32>>
    %8 = stablehlo.exponential %4 : tensor<48xcomplex<f32>>
    %9 = stablehlo.log %4 : tensor<48xcomplex<f32>>
    %10 = stablehlo.sqrt %4 : tensor<48xcomplex<f32>>
    %11 = stablehlo.real %4 : (tensor<48xcomplex<f32>>) -> tensor<48xf32>
    %12 = stablehlo.imag %4 : (tensor<48xcomplex<f32>>) -> tensor<48xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<48xf32>
    %14 = stablehlo.compare EQ, %11, %13, FLOAT : (tensor<48xf32>, tensor<48xf32>) -> tensor<48xi1>
    %15 = stablehlo.sine %11 : tensor<48xf32>
    %16 = stablehlo.cosine %11 : tensor<48xf32>
    %17 = stablehlo.exponential_minus_one %12 : tensor<48xf32>
    %18 = stablehlo.negate %12 : tensor<48xf32>
    %19 = stablehlo.exponential_minus_one %18 : tensor<48xf32>
    %20 = stablehlo.subtract %17, %19 : tensor<48xf32>
    %cst_3 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<48xf32>
    %22 = stablehlo.divide %20, %21 : tensor<48xf32>
    %23 = stablehlo.add %17, %19 : tensor<48xf32>
    %cst_4 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %24 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<48xf32>
    %25 = stablehlo.add %23, %24 : tensor<48xf32>
    %cst_5 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %26 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<48xf32>
    %27 = stablehlo.divide %25, %26 : tensor<48xf32>
    %28 = stablehlo.multiply %15, %27 : tensor<48xf32>
    %29 = stablehlo.multiply %16, %22 : tensor<48xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %30 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<48xf32>
    %31 = stablehlo.complex %30, %29 : tensor<48xcomplex<f32>>
    %32 = stablehlo.complex %28, %29 : tensor<48xcomplex<f32>>
    %33 = stablehlo.select %14, %31, %32 : tensor<48xi1>, tensor<48xcomplex<f32>>
    %34 = stablehlo.real %4 : (tensor<48xcomplex<f32>>) -> tensor<48xf32>
    %35 = stablehlo.imag %4 : (tensor<48xcomplex<f32>>) -> tensor<48xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %36 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<48xf32>
    %37 = stablehlo.compare EQ, %34, %36, FLOAT : (tensor<48xf32>, tensor<48xf32>) -> tensor<48xi1>
    %38 = stablehlo.sine %34 : tensor<48xf32>
    %39 = stablehlo.cosine %34 : tensor<48xf32>
    %40 = stablehlo.exponential_minus_one %35 : tensor<48xf32>
    %41 = stablehlo.negate %35 : tensor<48xf32>
    %42 = stablehlo.exponential_minus_one %41 : tensor<48xf32>
    %43 = stablehlo.subtract %40, %42 : tensor<48xf32>
    %cst_8 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %44 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<48xf32>
    %45 = stablehlo.divide %43, %44 : tensor<48xf32>
    %46 = stablehlo.add %40, %42 : tensor<48xf32>
    %cst_9 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %47 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<48xf32>
    %48 = stablehlo.add %46, %47 : tensor<48xf32>
    %cst_10 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %49 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<48xf32>
    %50 = stablehlo.divide %48, %49 : tensor<48xf32>
    %51 = stablehlo.multiply %39, %50 : tensor<48xf32>
    %52 = stablehlo.negate %38 : tensor<48xf32>
    %53 = stablehlo.multiply %52, %45 : tensor<48xf32>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %54 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<48xf32>
    %55 = stablehlo.complex %51, %54 : tensor<48xcomplex<f32>>
    %56 = stablehlo.complex %51, %53 : tensor<48xcomplex<f32>>
    %57 = stablehlo.select %37, %55, %56 : tensor<48xi1>, tensor<48xcomplex<f32>>
    %58 = stablehlo.tanh %4 : tensor<48xcomplex<f32>>
    %59 = stablehlo.tanh %7 : tensor<48xcomplex<f32>>
    %60 = stablehlo.negate %4 : tensor<48xcomplex<f32>>
    %61 = stablehlo.sqrt %60 : tensor<48xcomplex<f32>>
    return %8, %9, %10, %33, %57, %58, %59, %61 : tensor<48xcomplex<f32>>, tensor<48xcomplex<f32>>, tensor<48xcomplex<f32>>, tensor<48xcomplex<f32>>, tensor<48xcomplex<f32>>, tensor<48xcomplex<f32>>, tensor<48xcomplex<f32>>, tensor<48xcomplex<f32>>
  }
}
