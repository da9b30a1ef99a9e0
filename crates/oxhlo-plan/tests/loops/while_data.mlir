// JAX 0.10.2: lax.while_loop until the sum reaches 100: not known
module @jit_while_data attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x4xf32>) -> (tensor<8x4xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.while(%iterArg = %arg0) : tensor<8x4xf32>
    cond {
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %1 = stablehlo.reduce(%iterArg init: %cst) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x4xf32>, tensor<f32>) -> tensor<f32>
      %cst_0 = stablehlo.constant dense<1.000000e+02> : tensor<f32>
      %2 = stablehlo.compare LT, %1, %cst_0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    } do {
      %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
      %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x4xf32>
      %2 = stablehlo.multiply %iterArg, %1 : tensor<8x4xf32>
      stablehlo.return %2 : tensor<8x4xf32>
    }
    return %0 : tensor<8x4xf32>
  }
}
