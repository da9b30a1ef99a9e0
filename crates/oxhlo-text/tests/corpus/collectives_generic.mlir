// MLIR's generic print (print_generic_op_form, jaxlib 0.10.2) of collectives.mlir: every op in the generic form,
// the module and functions too.
"builtin.module"() <{sym_name = "collectives"}> ({
  "func.func"() <{function_type = (tensor<2x4xf32>, tensor<2x4xi32>, !stablehlo.token) -> tensor<2x4xf32>, sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg13: tensor<2x4xf32>, %arg14: tensor<2x4xi32>, %arg15: !stablehlo.token):
    %15 = "stablehlo.all_gather"(%arg13) <{all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<2x4xf32>) -> tensor<2x8xf32>
    %16:2 = "stablehlo.all_gather"(%arg13, %arg14) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> : (tensor<2x4xf32>, tensor<2x4xi32>) -> (tensor<4x4xf32>, tensor<4x4xi32>)
    %17 = "stablehlo.all_reduce"(%arg13) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
    ^bb0(%arg18: tensor<f32>, %arg19: tensor<f32>):
      %28 = "stablehlo.add"(%arg18, %arg19) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%28) : (tensor<f32>) -> ()
    }) : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %18 = "stablehlo.reduce_scatter"(%arg13) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, scatter_dimension = 1 : i64}> ({
    ^bb0(%arg16: tensor<f32>, %arg17: tensor<f32>):
      %27 = "stablehlo.add"(%arg16, %arg17) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%27) : (tensor<f32>) -> ()
    }) : (tensor<2x4xf32>) -> tensor<2x2xf32>
    %19 = "stablehlo.all_to_all"(%arg13) <{concat_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 1 : i64}> : (tensor<2x4xf32>) -> tensor<4x2xf32>
    %20 = "stablehlo.collective_permute"(%arg13) <{source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}> : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %21 = "stablehlo.collective_broadcast"(%arg13) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %22 = "stablehlo.cross-replica-sum"(%arg13) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %23:2 = "stablehlo.infeed"(%arg15) <{infeed_config = "", layout = [[1, 0]]}> : (!stablehlo.token) -> (tensor<2x4xf32>, !stablehlo.token)
    %24 = "stablehlo.outfeed"(%arg13, %arg14, %arg15) <{outfeed_config = "cfg"}> : (tensor<2x4xf32>, tensor<2x4xi32>, !stablehlo.token) -> !stablehlo.token
    %25 = "stablehlo.send"(%arg13, %arg15) <{channel_handle = #stablehlo.channel_handle<handle = 5, type = 2>, is_host_transfer = true}> : (tensor<2x4xf32>, !stablehlo.token) -> !stablehlo.token
    %26:2 = "stablehlo.recv"(%arg15) <{channel_handle = #stablehlo.channel_handle<handle = 5, type = 3>, is_host_transfer = true}> : (!stablehlo.token) -> (tensor<2x4xf32>, !stablehlo.token)
    "func.return"(%17) : (tensor<2x4xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<2x3x4xf32>, tensor<4xf32>, tensor<3x3xf32>, tensor<3x2xf32>, tensor<2xi32>, tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>, tensor<2x2xi32>) -> tensor<2x3x4xf32>, sym_name = "numerics", sym_visibility = "private"}> ({
  ^bb0(%arg5: tensor<2x3x4xf32>, %arg6: tensor<4xf32>, %arg7: tensor<3x3xf32>, %arg8: tensor<3x2xf32>, %arg9: tensor<2xi32>, %arg10: tensor<1x8x8x3xf32>, %arg11: tensor<3x3x3x16xf32>, %arg12: tensor<2x2xi32>):
    %7 = "stablehlo.batch_norm_inference"(%arg5, %arg6, %arg6, %arg6, %arg6) <{epsilon = 1.000000e-03 : f32, feature_index = 2 : i64}> : (tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
    %8:3 = "stablehlo.batch_norm_training"(%arg5, %arg6, %arg6) <{epsilon = 9.99999974E-6 : f32, feature_index = 2 : i64}> : (tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>)
    %9:3 = "stablehlo.batch_norm_grad"(%arg5, %arg6, %arg6, %arg6, %arg5) <{epsilon = 1.000000e-03 : f32, feature_index = 2 : i64}> : (tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>)
    %10 = "stablehlo.triangular_solve"(%arg7, %arg8) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
    %11 = "stablehlo.triangular_solve"(%arg7, %arg7) <{left_side = false, lower = false, transpose_a = #stablehlo<transpose ADJOINT>, unit_diagonal = true}> : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
    %12 = "stablehlo.torch_index_select"(%arg5, %arg9) <{batch_dims = 0 : i64, dim = 1 : i64}> : (tensor<2x3x4xf32>, tensor<2xi32>) -> tensor<2x2x4xf32>
    %13 = "stablehlo.dynamic_conv"(%arg10, %arg11, %arg12) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, window_strides = array<i64: 1, 1>}> : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>, tensor<2x2xi32>) -> tensor<1x?x?x16xf32>
    %14 = "stablehlo.convolution"(%arg10, %arg11) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<0> : tensor<2x2xi64>, rhs_dilation = array<i64: 1, 1>, window_strides = array<i64: 1, 1>}> : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
    "func.return"(%7) : (tensor<2x3x4xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<2x3xf32>, !stablehlo.token) -> tensor<2x3xf32>, sym_name = "calls", sym_visibility = "private"}> ({
  ^bb0(%arg3: tensor<2x3xf32>, %arg4: !stablehlo.token):
    %2 = "stablehlo.custom_call"(%arg3) <{api_version = 2 : i32, backend_config = "cfg", call_target_name = "foo", has_side_effect = true}> : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %3 = "stablehlo.custom_call"(%arg3, %arg3) <{call_target_name = "not-an-identifier"}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tuple<tensor<2x3xf32>, tensor<f32>>
    "stablehlo.custom_call"(%arg4) <{call_target_name = "side_effect_only", has_side_effect = true}> : (!stablehlo.token) -> ()
    %4 = "stablehlo.custom_call"(%arg3) <{api_version = 4 : i32, backend_config = {mode = 1 : i64, name = "x"}, call_target_name = "lapack_sgetrf_ffi", called_computations = [@decomp], operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>]}> : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %5 = "stablehlo.composite"(%arg3, %arg3) <{composite_attributes = {alpha = 5.000000e-01 : f32, mode = "fast"}, decomposition = @decomp2, name = "my.op", version = 2 : i32}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %6 = "stablehlo.composite"() <{decomposition = @const, name = "my.const"}> : () -> tensor<f32>
    "func.return"(%5) : (tensor<2x3xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<2x3xf32>) -> tensor<2x3xf32>, sym_name = "decomp", sym_visibility = "private"}> ({
  ^bb0(%arg2: tensor<2x3xf32>):
    "func.return"(%arg2) : (tensor<2x3xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>, sym_name = "decomp2", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<2x3xf32>, %arg1: tensor<2x3xf32>):
    %1 = "stablehlo.add"(%arg0, %arg1) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    "func.return"(%1) : (tensor<2x3xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = () -> tensor<f32>, sym_name = "const", sym_visibility = "private"}> ({
    %0 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    "func.return"(%0) : (tensor<f32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 2 : i32} : () -> ()

