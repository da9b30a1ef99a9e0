// Collectives, host communication, batch norm, triangular solve and other generic-only ops; custom
// calls and composites.
module @collectives attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 2 : i32} {
  func.func public @main(%x: tensor<2x4xf32>, %y: tensor<2x4xi32>, %t: !stablehlo.token) -> tensor<2x4xf32> {
    %0 = "stablehlo.all_gather"(%x) <{all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<2x4xf32>) -> tensor<2x8xf32>
    %1:2 = "stablehlo.all_gather"(%x, %y) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> : (tensor<2x4xf32>, tensor<2x4xi32>) -> (tensor<4x4xf32>, tensor<4x4xi32>)
    %2 = "stablehlo.all_reduce"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %3 = "stablehlo.reduce_scatter"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, scatter_dimension = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<2x4xf32>) -> tensor<2x2xf32>
    %4 = "stablehlo.all_to_all"(%x) <{concat_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 1 : i64}> : (tensor<2x4xf32>) -> tensor<4x2xf32>
    %5 = "stablehlo.collective_permute"(%x) <{source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}> : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %6 = "stablehlo.collective_broadcast"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %7 = "stablehlo.cross-replica-sum"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %8:2 = "stablehlo.infeed"(%t) <{infeed_config = "", layout = [[1, 0]]}> : (!stablehlo.token) -> (tensor<2x4xf32>, !stablehlo.token)
    %9 = "stablehlo.outfeed"(%x, %y, %t) <{outfeed_config = "cfg"}> : (tensor<2x4xf32>, tensor<2x4xi32>, !stablehlo.token) -> !stablehlo.token
    %10 = "stablehlo.send"(%x, %t) <{channel_handle = #stablehlo.channel_handle<handle = 5, type = 2>, is_host_transfer = true}> : (tensor<2x4xf32>, !stablehlo.token) -> !stablehlo.token
    %11:2 = "stablehlo.recv"(%t) <{channel_handle = #stablehlo.channel_handle<handle = 5, type = 3>, is_host_transfer = true}> : (!stablehlo.token) -> (tensor<2x4xf32>, !stablehlo.token)
    return %2 : tensor<2x4xf32>
  }

  func.func private @numerics(%x: tensor<2x3x4xf32>, %s: tensor<4xf32>, %a: tensor<3x3xf32>, %b: tensor<3x2xf32>, %idx: tensor<2xi32>, %img: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x16xf32>, %pad: tensor<2x2xi32>) -> tensor<2x3x4xf32> {
    %0 = "stablehlo.batch_norm_inference"(%x, %s, %s, %s, %s) <{epsilon = 1.000000e-03 : f32, feature_index = 2 : i64}> : (tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
    %1:3 = "stablehlo.batch_norm_training"(%x, %s, %s) <{epsilon = 9.99999974E-6 : f32, feature_index = 2 : i64}> : (tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>)
    %2:3 = "stablehlo.batch_norm_grad"(%x, %s, %s, %s, %x) <{epsilon = 1.000000e-03 : f32, feature_index = 2 : i64}> : (tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>)
    %3 = "stablehlo.triangular_solve"(%a, %b) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
    %4 = "stablehlo.triangular_solve"(%a, %a) <{left_side = false, lower = false, transpose_a = #stablehlo<transpose ADJOINT>, unit_diagonal = true}> : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
    %5 = "stablehlo.torch_index_select"(%x, %idx) <{batch_dims = 0 : i64, dim = 1 : i64}> : (tensor<2x3x4xf32>, tensor<2xi32>) -> tensor<2x2x4xf32>
    %6 = "stablehlo.dynamic_conv"(%img, %k, %pad) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, window_strides = array<i64: 1, 1>}> : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>, tensor<2x2xi32>) -> tensor<1x?x?x16xf32>
    %7 = "stablehlo.convolution"(%img, %k) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<0> : tensor<2x2xi64>, rhs_dilation = array<i64: 1, 1>, window_strides = array<i64: 1, 1>}> : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
    return %0 : tensor<2x3x4xf32>
  }

  func.func private @calls(%x: tensor<2x3xf32>, %t: !stablehlo.token) -> tensor<2x3xf32> {
    %0 = stablehlo.custom_call @foo(%x) {api_version = 2 : i32, backend_config = "cfg", has_side_effect = true} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %1 = stablehlo.custom_call @"not-an-identifier"(%x, %x) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tuple<tensor<2x3xf32>, tensor<f32>>
    stablehlo.custom_call @side_effect_only(%t) {has_side_effect = true} : (!stablehlo.token) -> ()
    %2 = stablehlo.custom_call @lapack_sgetrf_ffi(%x) {api_version = 4 : i32, backend_config = {mode = 1 : i64, name = "x"}, called_computations = [@decomp], operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %3 = stablehlo.composite "my.op" %x, %x {composite_attributes = {alpha = 5.000000e-01 : f32, mode = "fast"}, decomposition = @decomp2, version = 2 : i32} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %4 = stablehlo.composite "my.const"  {decomposition = @const} : () -> tensor<f32>
    return %3 : tensor<2x3xf32>
  }

  func.func private @decomp(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
    return %x : tensor<2x3xf32>
  }

  func.func private @decomp2(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %0 = stablehlo.add %x, %y : tensor<2x3xf32>
    return %0 : tensor<2x3xf32>
  }

  func.func private @const() -> tensor<f32> {
    %0 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    return %0 : tensor<f32>
  }
}
