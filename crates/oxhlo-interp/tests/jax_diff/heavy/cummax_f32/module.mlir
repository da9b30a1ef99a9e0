module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x2xf32>) -> (tensor<6x2xf32> {jax.result_info = "result"}) {
    %0 = call @cummax(%arg0) : (tensor<6x2xf32>) -> tensor<6x2xf32>
    return %0 : tensor<6x2xf32>
  }
  func.func private @cummax(%arg0: tensor<6x2xf32>) -> tensor<6x2xf32> {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1>, padding = dense<[[5, 0], [0, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 6, 1>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %2 = stablehlo.maximum %arg1, %arg2 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<6x2xf32>, tensor<f32>) -> tensor<6x2xf32>
    return %1 : tensor<6x2xf32>
  }
}
