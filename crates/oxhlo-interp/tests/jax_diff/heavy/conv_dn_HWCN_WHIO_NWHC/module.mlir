module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5x6x4x2xf64>, %arg1: tensor<3x2x4x3xf64>) -> (tensor<2x6x3x3xf64> {jax.result_info = "result"}) {
    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [1, 0, f, b]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 2], pad = [[1, 1], [0, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<5x6x4x2xf64>, tensor<3x2x4x3xf64>) -> tensor<2x6x3x3xf64>
    return %0 : tensor<2x6x3x3xf64>
  }
}
