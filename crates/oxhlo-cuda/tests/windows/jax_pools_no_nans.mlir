// JAX's pooling as the plugin receives it (jax.export bytecode, printed by oxhlo convert): max pooling 2x2
// stride 2 and average pooling 3x3 SAME (reduce_window), the max-pool gradient (select_and_scatter), the
// gradient of an overlapping 3x3 stride-2 max pool with padding, and jnp.cumsum (a reduce_window over
// the whole row with its padding) of [6, 64].
module @jit_pools attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func @main(%arg0: tensor<2x8x8x3xf32>, %arg1: tensor<1x9x9x2xf32>) -> (tensor<2x4x4x3xf32> {jax.result_info = "result[0]"}, tensor<2x8x8x3xf32> {jax.result_info = "result[1]"}, tensor<2x8x8x3xf32> {jax.result_info = "result[2]"}, tensor<1x9x9x2xf32> {jax.result_info = "result[3]"}, tensor<6x64xf32> {jax.result_info = "result[4]"}) {
    %0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<f32>) -> tensor<f32>
    %4 = "stablehlo.reduce_window"(%arg0, %3) <{window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %5 = stablehlo.maximum %arg2, %arg3 : tensor<f32>
      stablehlo.return %5 : tensor<f32>
    }) : (tensor<2x8x8x3xf32>, tensor<f32>) -> tensor<2x4x4x3xf32>
    %6 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<f32>) -> tensor<f32>
    %7 = "stablehlo.reduce_window"(%arg0, %6) <{padding = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 3, 3, 1>}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %8 = stablehlo.add %arg4, %arg5 : tensor<f32>
      stablehlo.return %8 : tensor<f32>
    }) : (tensor<2x8x8x3xf32>, tensor<f32>) -> tensor<2x8x8x3xf32>
    %9 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<2x4x4x3xf32>
    %10 = stablehlo.pad %arg0, %2, low = [0, 0, 0, 0], high = [0, 0, 0, 0], interior = [0, 0, 0, 0] : (tensor<2x8x8x3xf32>, tensor<f32>) -> tensor<2x8x8x3xf32>
    %11 = "stablehlo.select_and_scatter"(%10, %9, %1) <{window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      %12 = stablehlo.compare GE, %arg6, %arg7, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %12 : tensor<i1>
    }, {
    ^bb0(%arg8: tensor<f32>, %arg9: tensor<f32>):
      %13 = stablehlo.add %arg8, %arg9 : tensor<f32>
      stablehlo.return %13 : tensor<f32>
    }) : (tensor<2x8x8x3xf32>, tensor<2x4x4x3xf32>, tensor<f32>) -> tensor<2x8x8x3xf32>
    %14 = stablehlo.slice %11 [0:2, 0:8, 0:8, 0:3] : (tensor<2x8x8x3xf32>) -> tensor<2x8x8x3xf32>
    %15 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<1x5x5x2xf32>
    %16 = stablehlo.iota dim = 0 : tensor<50xf32>
    %17 = stablehlo.reshape %16 : (tensor<50xf32>) -> tensor<1x5x5x2xf32>
    %18 = stablehlo.multiply %15, %17 : tensor<1x5x5x2xf32>
    %19 = stablehlo.pad %arg1, %2, low = [0, 1, 1, 0], high = [0, 1, 1, 0], interior = [0, 0, 0, 0] : (tensor<1x9x9x2xf32>, tensor<f32>) -> tensor<1x11x11x2xf32>
    %20 = "stablehlo.select_and_scatter"(%19, %18, %1) <{window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg10: tensor<f32>, %arg11: tensor<f32>):
      %21 = stablehlo.compare GE, %arg10, %arg11, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %21 : tensor<i1>
    }, {
    ^bb0(%arg12: tensor<f32>, %arg13: tensor<f32>):
      %22 = stablehlo.add %arg12, %arg13 : tensor<f32>
      stablehlo.return %22 : tensor<f32>
    }) : (tensor<1x11x11x2xf32>, tensor<1x5x5x2xf32>, tensor<f32>) -> tensor<1x11x11x2xf32>
    %23 = stablehlo.slice %20 [0:1, 1:10, 1:10, 0:2] : (tensor<1x11x11x2xf32>) -> tensor<1x9x9x2xf32>
    %24 = stablehlo.reshape %arg0 : (tensor<2x8x8x3xf32>) -> tensor<6x64xf32>
    %25 = call @cumsum(%24) : (tensor<6x64xf32>) -> tensor<6x64xf32>
    return %4, %7, %14, %23, %25 : tensor<2x4x4x3xf32>, tensor<2x8x8x3xf32>, tensor<2x8x8x3xf32>, tensor<1x9x9x2xf32>, tensor<6x64xf32>
  }
  func.func private @cumsum(%arg0: tensor<6x64xf32>) -> tensor<6x64xf32> {
    %0 = call @cumsum_0(%arg0) : (tensor<6x64xf32>) -> tensor<6x64xf32>
    return %0 : tensor<6x64xf32>
  }
  func.func private @cumsum_0(%arg0: tensor<6x64xf32>) -> tensor<6x64xf32> {
    %0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<f32>
    %2 = "stablehlo.reduce_window"(%arg0, %1) <{padding = dense<[[0, 0], [63, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 64>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %3 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %3 : tensor<f32>
    }) : (tensor<6x64xf32>, tensor<f32>) -> tensor<6x64xf32>
    return %2 : tensor<6x64xf32>
  }
}
