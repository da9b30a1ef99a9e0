// Ops whose attributes have dedicated StableHLO encodings: dimension numbers, channel
// handles, enums, dot algorithms, result accuracy, bounded dynamism, tokens, aliases.
module @attrs attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 2 : i32} {
  func.func public @main(%x: tensor<2x3xf32>, %i: tensor<2x1xi32>, %img: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x4xf32>, %t: !stablehlo.token, %b: tensor<?xf32, #stablehlo.bounds<8>>) -> (tensor<2x2xf32>, tensor<2x3xf32>) {
    %0 = stablehlo.dot_general %x, %x, batching_dims = [] x [], contracting_dims = [1] x [1], precision = [HIGHEST, DEFAULT] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
    %1 = stablehlo.dot_general %x, %x, contracting_dims = [1] x [1], algorithm = <lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
    %2 = "stablehlo.gather"(%x, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = true, slice_sizes = array<i64: 1, 3>} : (tensor<2x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
    %3 = "stablehlo.scatter"(%x, %i, %x) ({
    ^bb0(%a: tensor<f32>, %c: tensor<f32>):
      %s = stablehlo.add %a, %c : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = true} : (tensor<2x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %4 = stablehlo.convolution(%img, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 1], pad = [[1, 1], [0, 2]], rhs_dilate = [1, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision HIGH>, #stablehlo<precision DEFAULT>]} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x4x6x4xf32>
    %5 = stablehlo.compare LT, %x, %x, TOTALORDER : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
    %6 = stablehlo.compare EQ, %x, %x : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
    %7 = stablehlo.exponential %x {result_accuracy = #stablehlo.result_accuracy<atol = 1.000000e-05, rtol = 0.000000e+00, ulps = 2, mode = #stablehlo.result_accuracy_mode<TOLERANCE>>} : tensor<2x3xf32>
    %8 = stablehlo.custom_call @foo(%x, %x) {api_version = 2 : i32, backend_config = "cfg", has_side_effect = true, output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>]} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %9 = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f32>, %c: tensor<f32>):
      %s = stablehlo.maximum %a, %c : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %10 = "stablehlo.send"(%x, %t) {channel_handle = #stablehlo.channel_handle<handle = 5, type = 2>, is_host_transfer = true} : (tensor<2x3xf32>, !stablehlo.token) -> !stablehlo.token
    %11 = stablehlo.fft %x, type = RFFT, length = [3] : (tensor<2x3xf32>) -> tensor<2x2xcomplex<f32>>
    %sq = stablehlo.slice %x [0:2, 0:2] : (tensor<2x3xf32>) -> tensor<2x2xf32>
    %12 = "stablehlo.triangular_solve"(%sq, %x) {left_side = true, lower = true, transpose_a = #stablehlo<transpose ADJOINT>, unit_diagonal = false} : (tensor<2x2xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %13 = stablehlo.add %b, %b : tensor<?xf32, #stablehlo.bounds<8>>
    %14, %15 = "stablehlo.rng_bit_generator"(%i) {rng_algorithm = #stablehlo<rng_algorithm PHILOX>} : (tensor<2x1xi32>) -> (tensor<2x1xi32>, tensor<4xui32>)
    %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %16 = "stablehlo.reduce_window"(%x, %zero) ({
    ^bb0(%a: tensor<f32>, %c: tensor<f32>):
      %s = stablehlo.add %a, %c : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {padding = dense<[[0, 0], [1, 1]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 3>, window_strides = array<i64: 1, 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
    %17 = "stablehlo.sort"(%x) ({
    ^bb0(%a: tensor<f32>, %c: tensor<f32>):
      %s = stablehlo.compare GT, %a, %c, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %s : tensor<i1>
    }) {dimension = 1 : i64, is_stable = true} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    return %0, %3 : tensor<2x2xf32>, tensor<2x3xf32>
  }
}
