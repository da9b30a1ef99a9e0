// JAX 0.10.2: lax.fori_loop(0, n, ...) with n an argument: not known
module @jit_fori_traced_bound attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x4xf32>, %arg1: tensor<i32>) -> (tensor<8x4xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:3 = stablehlo.while(%iterArg = %c, %iterArg_0 = %arg1, %iterArg_1 = %arg0) : tensor<i32>, tensor<i32>, tensor<8x4xf32>
    cond {
      %1 = stablehlo.compare LT, %iterArg, %iterArg_0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %c_2 = stablehlo.constant dense<1> : tensor<i32>
      %1 = stablehlo.add %iterArg, %c_2 : tensor<i32>
      %2 = stablehlo.convert %iterArg : (tensor<i32>) -> tensor<f32>
      %3 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<f32>) -> tensor<8x4xf32>
      %4 = stablehlo.add %iterArg_1, %3 : tensor<8x4xf32>
      stablehlo.return %1, %iterArg_0, %4 : tensor<i32>, tensor<i32>, tensor<8x4xf32>
    }
    return %0#2 : tensor<8x4xf32>
  }
}
