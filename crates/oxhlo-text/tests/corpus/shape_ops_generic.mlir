// MLIR's generic print (print_generic_op_form, jaxlib 0.10.2) of shape_ops.mlir: every op in the generic form,
// the module and functions too.
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<2x3xf32>, tensor<f32>, tensor<i32>, tensor<2xi64>, !stablehlo.token) -> tensor<2x3xf32>, sym_name = "shapes"}> ({
  ^bb0(%arg12: tensor<2x3xf32>, %arg13: tensor<f32>, %arg14: tensor<i32>, %arg15: tensor<2xi64>, %arg16: !stablehlo.token):
    %25 = "stablehlo.constant"() <{value = dense<[[1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, 6.000000e+00]]> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>
    %26 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<2x3xi32>
    %27 = "stablehlo.dynamic_iota"(%arg15) <{iota_dimension = 0 : i64}> : (tensor<2xi64>) -> tensor<?x?xf32>
    %28 = "stablehlo.create_token"() : () -> !stablehlo.token
    %29 = "stablehlo.replica_id"() : () -> tensor<ui32>
    %30 = "stablehlo.partition_id"() : () -> tensor<ui32>
    %31 = "stablehlo.after_all"(%arg16, %28) : (!stablehlo.token, !stablehlo.token) -> !stablehlo.token
    %32 = "stablehlo.after_all"() : () -> !stablehlo.token
    %33 = "stablehlo.tuple"(%arg12, %arg13, %arg16) : (tensor<2x3xf32>, tensor<f32>, !stablehlo.token) -> tuple<tensor<2x3xf32>, tensor<f32>, !stablehlo.token>
    %34 = "stablehlo.get_tuple_element"(%33) <{index = 1 : i32}> : (tuple<tensor<2x3xf32>, tensor<f32>, !stablehlo.token>) -> tensor<f32>
    %35 = "stablehlo.tuple"() : () -> tuple<>
    %36 = "stablehlo.slice"(%arg12) <{limit_indices = array<i64: 2, 3>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 2>}> : (tensor<2x3xf32>) -> tensor<2x1xf32>
    %37 = "stablehlo.dynamic_slice"(%arg12, %arg14, %arg14) <{slice_sizes = array<i64: 1, 2>}> : (tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<1x2xf32>
    %38 = "stablehlo.dynamic_update_slice"(%arg12, %37, %arg14, %arg14) : (tensor<2x3xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
    %39 = "stablehlo.broadcast_in_dim"(%arg12) <{broadcast_dimensions = array<i64: 0, 2>}> : (tensor<2x3xf32>) -> tensor<2x4x3xf32>
    %40 = "stablehlo.broadcast_in_dim"(%arg13) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x3xf32>
    %41 = "stablehlo.broadcast"(%arg12) <{broadcast_sizes = array<i64: 5>}> : (tensor<2x3xf32>) -> tensor<5x2x3xf32>
    %42 = "stablehlo.dynamic_broadcast_in_dim"(%arg12, %arg15) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
    %43 = "stablehlo.dynamic_broadcast_in_dim"(%arg12, %arg15) <{broadcast_dimensions = array<i64: 0, 1>, known_expanding_dimensions = array<i64: 0>, known_nonexpanding_dimensions = array<i64: 1>}> : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
    %44 = "stablehlo.transpose"(%arg12) <{permutation = array<i64: 1, 0>}> : (tensor<2x3xf32>) -> tensor<3x2xf32>
    %45 = "stablehlo.reverse"(%arg12) <{dimensions = array<i64: 0, 1>}> : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %46 = "stablehlo.pad"(%arg12, %arg13) <{edge_padding_high = array<i64: 1, 0>, edge_padding_low = array<i64: 0, 1>, interior_padding = array<i64: 1, 1>}> : (tensor<2x3xf32>, tensor<f32>) -> tensor<4x6xf32>
    %47 = "stablehlo.concatenate"(%arg12, %arg12, %arg12) <{dimension = 0 : i64}> : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<6x3xf32>
    %48 = "stablehlo.get_dimension_size"(%arg12) <{dimension = 1 : i64}> : (tensor<2x3xf32>) -> tensor<i32>
    %49 = "stablehlo.set_dimension_size"(%arg12, %arg14) <{dimension = 1 : i64}> : (tensor<2x3xf32>, tensor<i32>) -> tensor<2x?xf32, #stablehlo.bounds<?, 3>>
    %50 = "stablehlo.dynamic_reshape"(%arg12, %arg15) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
    %51 = "stablehlo.real_dynamic_slice"(%arg12, %arg15, %arg15, %arg15) : (tensor<2x3xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
    %52 = "stablehlo.dynamic_pad"(%arg12, %arg13, %arg15, %arg15, %arg15) : (tensor<2x3xf32>, tensor<f32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
    %53 = "stablehlo.reduce_precision"(%arg12) <{exponent_bits = 5 : i32, mantissa_bits = 10 : i32}> : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %54:2 = "stablehlo.optimization_barrier"(%arg12, %arg13) : (tensor<2x3xf32>, tensor<f32>) -> (tensor<2x3xf32>, tensor<f32>)
    "stablehlo.optimization_barrier"() : () -> ()
    %55 = "stablehlo.reshape"(%arg12) : (tensor<2x3xf32>) -> tensor<6xf32>
    %56 = "stablehlo.slice"(%arg12) <{limit_indices = array<i64: 2, 3>, start_indices = array<i64: 1, 0>, strides = array<i64: 1, 1>}> : (tensor<2x3xf32>) -> tensor<1x3xf32>
    "func.return"(%38) : (tensor<2x3xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4x4xf32>, tensor<8xcomplex<f32>>, tensor<16xf32>, tensor<2xui64>, tensor<f32>, tensor<2xi64>) -> tensor<4x4xf32>, sym_name = "linalg_and_random"}> ({
  ^bb0(%arg6: tensor<4x4xf32>, %arg7: tensor<8xcomplex<f32>>, %arg8: tensor<16xf32>, %arg9: tensor<2xui64>, %arg10: tensor<f32>, %arg11: tensor<2xi64>):
    %12 = "stablehlo.cholesky"(%arg6) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %13 = "stablehlo.cholesky"(%arg6) <{lower = true}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %14 = "stablehlo.fft"(%arg7) <{fft_length = array<i64: 8>, fft_type = #stablehlo<fft_type FFT>}> : (tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>>
    %15 = "stablehlo.fft"(%arg7) <{fft_length = array<i64: 8>, fft_type = #stablehlo<fft_type IFFT>}> : (tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>>
    %16 = "stablehlo.fft"(%arg8) <{fft_length = array<i64: 16>, fft_type = #stablehlo<fft_type RFFT>}> : (tensor<16xf32>) -> tensor<9xcomplex<f32>>
    %17 = "stablehlo.fft"(%16) <{fft_length = array<i64: 16>, fft_type = #stablehlo<fft_type IRFFT>}> : (tensor<9xcomplex<f32>>) -> tensor<16xf32>
    %18 = "stablehlo.einsum"(%arg6, %arg6) <{einsum_config = "ab,bc->ac"}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %19 = "stablehlo.unary_einsum"(%arg6) <{einsum_config = "ab->a"}> : (tensor<4x4xf32>) -> tensor<4xf32>
    %20 = "stablehlo.rng"(%arg10, %arg10, %arg11) <{rng_distribution = #stablehlo<rng_distribution UNIFORM>}> : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<3x5xf32>
    %21 = "stablehlo.rng"(%arg10, %arg10, %arg11) <{rng_distribution = #stablehlo<rng_distribution NORMAL>}> : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<3x5xf32>
    %22:2 = "stablehlo.rng_bit_generator"(%arg9) <{rng_algorithm = #stablehlo<rng_algorithm DEFAULT>}> : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4x4xui32>)
    %23:2 = "stablehlo.rng_bit_generator"(%arg9) <{rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>}> : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8xui64>)
    %24:2 = "stablehlo.rng_bit_generator"(%arg9) <{rng_algorithm = #stablehlo<rng_algorithm PHILOX>}> : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8xui8>)
    "func.return"(%12) : (tensor<4x4xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<2x3x4xf32>, tensor<2x4x5xf32>, tensor<3x4xf32>, tensor<4xf32>, tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<2x3x5xf32>, sym_name = "contractions"}> ({
  ^bb0(%arg0: tensor<2x3x4xf32>, %arg1: tensor<2x4x5xf32>, %arg2: tensor<3x4xf32>, %arg3: tensor<4xf32>, %arg4: tensor<1x8x8x3xf32>, %arg5: tensor<3x3x3x16xf32>):
    %0 = "stablehlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>}> : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
    %1 = "stablehlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision HIGHEST>]}> : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
    %2 = "stablehlo.dot_general"(%arg2, %arg3) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3xf32>
    %3 = "stablehlo.dot_general"(%arg2, %arg3) <{algorithm = #stablehlo.dot_algorithm<lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 3, allow_imprecise_accumulation = false>, dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3xf32>
    %4 = "stablehlo.dot"(%arg2, %arg3) : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3xf32>
    %5 = "stablehlo.dot"(%arg2, %arg3) <{precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3xf32>
    %6 = "stablehlo.dot_general"(%arg2, %arg2) <{dot_dimension_numbers = #stablehlo.dot<>}> : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4x3x4xf32>
    %7 = "stablehlo.convolution"(%arg4, %arg5) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<[[1, 1], [0, 0]]> : tensor<2x2xi64>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>], rhs_dilation = array<i64: 1, 2>, window_reversal = array<i1: false, true>, window_strides = array<i64: 2, 1>}> : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x4x4x16xf32>
    %8 = "stablehlo.convolution"(%arg4, %arg5) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64}> : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
    %9 = "stablehlo.transpose"(%arg5) <{permutation = array<i64: 3, 2, 0, 1>}> : (tensor<3x3x3x16xf32>) -> tensor<16x3x3x3xf32>
    %10 = "stablehlo.transpose"(%arg4) <{permutation = array<i64: 0, 3, 1, 2>}> : (tensor<1x8x8x3xf32>) -> tensor<1x3x8x8xf32>
    %11 = "stablehlo.convolution"(%10, %9) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>, feature_group_count = 1 : i64, padding = dense<0> : tensor<2x2xi64>, rhs_dilation = array<i64: 1, 1>, window_strides = array<i64: 1, 1>}> : (tensor<1x3x8x8xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x6x6xf32>
    "func.return"(%0) : (tensor<2x3x5xf32>) -> ()
  }) : () -> ()
}) : () -> ()

