// JAX 0.10.2: outer lax.scan over 8 rows: 8; inner lax.scan over 5: 5
module @jit_nested_scans attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x4xf32>) -> (tensor<4xf32> {jax.result_info = "result[0]"}, tensor<8xf32> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.slice %arg0 [0:1, 0:4] : (tensor<8x4xf32>) -> tensor<1x4xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x4xf32>) -> tensor<4xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %3:4 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %c, %iterArg_1 = %1, %iterArg_2 = %2) : tensor<8x4xf32>, tensor<i32>, tensor<4xf32>, tensor<8xf32>
    cond {
      %c_3 = stablehlo.constant dense<8> : tensor<i32>
      %4 = stablehlo.compare LT, %iterArg_0, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %4 : tensor<i1>
    } do {
      %4 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_0) : (tensor<8x4xf32>, tensor<i32>) -> tensor<4xf32>
      %5:2 = func.call @closed_call(%iterArg_1, %4) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<f32>)
      %6 = func.call @dynamic_update_index_in_dim_2(%iterArg_2, %5#1, %iterArg_0) : (tensor<8xf32>, tensor<f32>, tensor<i32>) -> tensor<8xf32>
      %c_3 = stablehlo.constant dense<1> : tensor<i32>
      %7 = stablehlo.add %iterArg_0, %c_3 : tensor<i32>
      stablehlo.return %iterArg, %7, %5#0, %6 : tensor<8x4xf32>, tensor<i32>, tensor<4xf32>, tensor<8xf32>
    }
    return %3#2, %3#3 : tensor<4xf32>, tensor<8xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<8x4xf32>, %arg1: tensor<i32>) -> tensor<4xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, sizes = [1, 4] : (tensor<8x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x4xf32>) -> tensor<4xf32>
    return %1 : tensor<4xf32>
  }
  func.func private @closed_call(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> (tensor<4xf32>, tensor<f32>) {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %2 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %3 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %4 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %5 = stablehlo.concatenate %0, %1, %2, %3, %4, dim = 0 : (tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<5x4xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<5x4xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %7:4 = stablehlo.while(%iterArg = %5, %iterArg_1 = %c, %iterArg_2 = %arg0, %iterArg_3 = %6) : tensor<5x4xf32>, tensor<i32>, tensor<4xf32>, tensor<5x4xf32>
    cond {
      %c_4 = stablehlo.constant dense<5> : tensor<i32>
      %9 = stablehlo.compare LT, %iterArg_1, %c_4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %9 : tensor<i1>
    } do {
      %9 = func.call @dynamic_index_in_dim_0(%iterArg, %iterArg_1) : (tensor<5x4xf32>, tensor<i32>) -> tensor<4xf32>
      %10:2 = func.call @closed_call_1(%iterArg_2, %9) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
      %11 = func.call @dynamic_update_index_in_dim(%iterArg_3, %10#1, %iterArg_1) : (tensor<5x4xf32>, tensor<4xf32>, tensor<i32>) -> tensor<5x4xf32>
      %c_4 = stablehlo.constant dense<1> : tensor<i32>
      %12 = stablehlo.add %iterArg_1, %c_4 : tensor<i32>
      stablehlo.return %iterArg, %12, %10#0, %11 : tensor<5x4xf32>, tensor<i32>, tensor<4xf32>, tensor<5x4xf32>
    }
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.reduce(%7#3 init: %cst_0) applies stablehlo.add across dimensions = [0, 1] : (tensor<5x4xf32>, tensor<f32>) -> tensor<f32>
    return %7#2, %8 : tensor<4xf32>, tensor<f32>
  }
  func.func private @dynamic_index_in_dim_0(%arg0: tensor<5x4xf32>, %arg1: tensor<i32>) -> tensor<4xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, sizes = [1, 4] : (tensor<5x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x4xf32>) -> tensor<4xf32>
    return %1 : tensor<4xf32>
  }
  func.func private @closed_call_1(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %0 = stablehlo.add %arg0, %arg1 : tensor<4xf32>
    return %0, %arg0 : tensor<4xf32>, tensor<4xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<5x4xf32>, %arg1: tensor<4xf32>, %arg2: tensor<i32>) -> tensor<5x4xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c : (tensor<5x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<5x4xf32>
    return %1 : tensor<5x4xf32>
  }
  func.func private @dynamic_update_index_in_dim_2(%arg0: tensor<8xf32>, %arg1: tensor<f32>, %arg2: tensor<i32>) -> tensor<8xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2 : (tensor<8xf32>, tensor<1xf32>, tensor<i32>) -> tensor<8xf32>
    return %1 : tensor<8xf32>
  }
}
