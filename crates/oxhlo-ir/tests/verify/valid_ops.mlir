// Programs that must verify cleanly: every op family, with the boundary cases the rules must accept
// (dynamic dimensions, size-1 broadcasting, negative sort dimensions, empty and padded replica groups,
// variadic ops, tuples, tokens, quantized types, batching dimensions, grouped convolutions).

func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<4x?xf32>, %arg2: tensor<1x3xf32>, %arg3: tensor<?xf32>) -> tensor<?x?xf32> {
  %0 = "stablehlo.dot_general"(%arg0, %arg1) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision HIGHEST>]} : (tensor<?x4xf32>, tensor<4x?xf32>) -> tensor<?x?xf32>
  %1 = "stablehlo.add"(%0, %0) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %2 = "stablehlo.broadcast_in_dim"(%arg2) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<1x3xf32>) -> tensor<5x?x3xf32>
  %3 = "stablehlo.concatenate"(%arg3, %arg3) {dimension = 0 : i64} : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %4 = "stablehlo.reshape"(%arg0) : (tensor<?x4xf32>) -> tensor<?xf32>
  %5 = "stablehlo.slice"(%arg0) {start_indices = array<i64: 0, 1>, limit_indices = array<i64: 1, 4>, strides = array<i64: 1, 2>} : (tensor<?x4xf32>) -> tensor<1x2xf32>
  func.return %1 : tensor<?x?xf32>
}

// -----

module attributes {mhlo.num_replicas = 4 : i32, mhlo.num_partitions = 2 : i32} {
  func.func @main(%arg0: tensor<4xf32>, %arg1: tensor<2x3xf32>) -> tensor<4xf32> {
    %0 = "stablehlo.all_reduce"(%arg0) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<[[0, 1, 2], [3, -1, -1]]> : tensor<2x3xi64>} : (tensor<4xf32>) -> tensor<4xf32>
    %1 = "stablehlo.all_reduce"(%0) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = "stablehlo.maximum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {replica_groups = dense<> : tensor<0x0xi64>} : (tensor<4xf32>) -> tensor<4xf32>
    %2 = "stablehlo.all_gather"(%arg1) {all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, use_global_device_ids} : (tensor<2x3xf32>) -> tensor<2x24xf32>
    %3 = "stablehlo.all_gather"(%arg1) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>} : (tensor<2x3xf32>) -> tensor<8x3xf32>
    %4 = "stablehlo.collective_permute"(%arg1) {source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %5 = "stablehlo.collective_broadcast"(%arg1) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %6 = "stablehlo.all_to_all"(%arg1) {split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 3 : i64, replica_groups = dense<[[0, 1, 2], [3, -1, -1]]> : tensor<2x3xi64>} : (tensor<2x3xf32>) -> tensor<6x1xf32>
    %7 = "stablehlo.reduce_scatter"(%arg1) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} : (tensor<2x3xf32>) -> tensor<1x3xf32>
    %8 = "stablehlo.cross-replica-sum"(%arg0) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<4xf32>) -> tensor<4xf32>
    %9 = "stablehlo.replica_id"() : () -> tensor<ui32>
    %10 = "stablehlo.partition_id"() : () -> tensor<ui32>
    func.return %1 : tensor<4xf32>
  }
}

// -----

func.func @main(%arg0: tensor<4x6xf32>, %arg1: tensor<4x6xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %cst = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
  %c0 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %0:2 = "stablehlo.reduce"(%arg0, %arg1, %cst, %c0) ({
  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
    %p = "stablehlo.compare"(%a, %b) {comparison_direction = #stablehlo<comparison_direction GE>, compare_type = #stablehlo<comparison_type TOTALORDER>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %m = "stablehlo.select"(%p, %a, %b) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %i = "stablehlo.select"(%p, %ai, %bi) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%m, %i) : (tensor<f32>, tensor<i32>) -> ()
  }) {dimensions = array<i64: 1>} : (tensor<4x6xf32>, tensor<4x6xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
  %1:2 = "stablehlo.reduce_window"(%arg0, %arg1, %cst, %c0) ({
  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
    "stablehlo.return"(%a, %ai) : (tensor<f32>, tensor<i32>) -> ()
  }) {window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 3>, padding = dense<[[0, 0], [1, 2]]> : tensor<2x2xi64>} : (tensor<4x6xf32>, tensor<4x6xi32>, tensor<f32>, tensor<i32>) -> (tensor<2x3xf32>, tensor<2x3xi32>)
  %2:2 = "stablehlo.sort"(%arg0, %arg1) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %p = "stablehlo.compare"(%a, %b) {comparison_direction = #stablehlo<comparison_direction LT>, compare_type = #stablehlo<comparison_type FLOAT>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
    "stablehlo.return"(%p) : (tensor<i1>) -> ()
  }) {dimension = -1 : i64, is_stable = true} : (tensor<4x6xf32>, tensor<4x6xi32>) -> (tensor<4x6xf32>, tensor<4x6xi32>)
  %3 = "stablehlo.map"(%arg0, %arg0) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.multiply"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 0, 1>} : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  %4 = "stablehlo.select_and_scatter"(%arg0, %1#0, %cst) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = "stablehlo.compare"(%a, %b) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
    "stablehlo.return"(%p) : (tensor<i1>) -> ()
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 3>, padding = dense<[[0, 0], [1, 2]]> : tensor<2x2xi64>} : (tensor<4x6xf32>, tensor<2x3xf32>, tensor<f32>) -> tensor<4x6xf32>
  func.return %0#0, %0#1 : tensor<4xf32>, tensor<4xi32>
}

// -----

func.func @main(%arg0: tensor<i64>, %arg1: !stablehlo.token, %arg2: tensor<i32>, %arg3: tensor<i1>) -> (tensor<i64>, !stablehlo.token) {
  %0:2 = "stablehlo.while"(%arg0, %arg1) ({
  ^bb0(%i: tensor<i64>, %t: !stablehlo.token):
    %c = "stablehlo.compare"(%i, %i) {comparison_direction = #stablehlo<comparison_direction LT>, compare_type = #stablehlo<comparison_type SIGNED>} : (tensor<i64>, tensor<i64>) -> tensor<i1>
    "stablehlo.return"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i64>, %t: !stablehlo.token):
    %n = "stablehlo.add"(%i, %i) : (tensor<i64>, tensor<i64>) -> tensor<i64>
    %t2 = "stablehlo.after_all"(%t, %t) : (!stablehlo.token, !stablehlo.token) -> !stablehlo.token
    "stablehlo.return"(%n, %t2) : (tensor<i64>, !stablehlo.token) -> ()
  }) : (tensor<i64>, !stablehlo.token) -> (tensor<i64>, !stablehlo.token)
  %1 = "stablehlo.case"(%arg2) ({
    "stablehlo.return"(%arg0) : (tensor<i64>) -> ()
  }, {
    %n = "stablehlo.negate"(%arg0) : (tensor<i64>) -> tensor<i64>
    "stablehlo.return"(%n) : (tensor<i64>) -> ()
  }, {
    "stablehlo.return"(%0#0) : (tensor<i64>) -> ()
  }) : (tensor<i32>) -> tensor<i64>
  %2:2 = "stablehlo.if"(%arg3) ({
    "stablehlo.return"(%1, %0#1) : (tensor<i64>, !stablehlo.token) -> ()
  }, {
    %t = "stablehlo.create_token"() : () -> !stablehlo.token
    "stablehlo.return"(%arg0, %t) : (tensor<i64>, !stablehlo.token) -> ()
  }) : (tensor<i1>) -> (tensor<i64>, !stablehlo.token)
  %3:2 = "stablehlo.infeed"(%2#1) {infeed_config = ""} : (!stablehlo.token) -> (tensor<3xi32>, !stablehlo.token)
  %4 = "stablehlo.outfeed"(%3#0, %3#1) {outfeed_config = ""} : (tensor<3xi32>, !stablehlo.token) -> !stablehlo.token
  %5 = "stablehlo.send"(%3#0, %4) {channel_handle = #stablehlo.channel_handle<handle = 5, type = 2>, is_host_transfer = true} : (tensor<3xi32>, !stablehlo.token) -> !stablehlo.token
  %6:2 = "stablehlo.recv"(%5) {channel_handle = #stablehlo.channel_handle<handle = 6, type = 3>, is_host_transfer = true} : (!stablehlo.token) -> (tensor<3xi32>, !stablehlo.token)
  %7:2 = "stablehlo.recv"(%6#1) {channel_handle = #stablehlo.channel_handle<handle = 7, type = 1>, is_host_transfer = false} : (!stablehlo.token) -> (tensor<3xi32>, !stablehlo.token)
  func.return %2#0, %7#1 : tensor<i64>, !stablehlo.token
}

// -----

func.func @main(%arg0: tensor<2xf32>, %arg1: tensor<2xi32>, %arg2: tensor<2xcomplex<f64>>, %arg3: tensor<i1>) -> tensor<2x4xi8> {
  %0 = "stablehlo.bitcast_convert"(%arg0) : (tensor<2xf32>) -> tensor<2x4xi8>
  %1 = "stablehlo.bitcast_convert"(%arg1) : (tensor<2xi32>) -> tensor<f64>
  %2 = "stablehlo.bitcast_convert"(%arg2) : (tensor<2xcomplex<f64>>) -> tensor<2xcomplex<f64>>
  %3 = "stablehlo.abs"(%arg2) : (tensor<2xcomplex<f64>>) -> tensor<2xf64>
  %4 = "stablehlo.real"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
  %5 = "stablehlo.imag"(%arg2) : (tensor<2xcomplex<f64>>) -> tensor<2xf64>
  %6 = "stablehlo.complex"(%3, %5) : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xcomplex<f64>>
  %7 = "stablehlo.select"(%arg3, %arg0, %arg0) : (tensor<i1>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %8 = "stablehlo.clamp"(%4, %arg0, %4) : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %c = "stablehlo.constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %9 = "stablehlo.clamp"(%c, %arg0, %c) : (tensor<f32>, tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  %10 = "stablehlo.compare"(%arg3, %arg3) {comparison_direction = #stablehlo<comparison_direction EQ>, compare_type = #stablehlo<comparison_type UNSIGNED>} : (tensor<i1>, tensor<i1>) -> tensor<i1>
  %11 = "stablehlo.compare"(%arg2, %arg2) {comparison_direction = #stablehlo<comparison_direction NE>, compare_type = #stablehlo<comparison_type FLOAT>} : (tensor<2xcomplex<f64>>, tensor<2xcomplex<f64>>) -> tensor<2xi1>
  %12 = "stablehlo.convert"(%arg1) : (tensor<2xi32>) -> tensor<2xcomplex<f64>>
  %13 = "stablehlo.is_finite"(%arg0) : (tensor<2xf32>) -> tensor<2xi1>
  %14 = "stablehlo.reduce_precision"(%arg0) {exponent_bits = 5 : i32, mantissa_bits = 0 : i32} : (tensor<2xf32>) -> tensor<2xf32>
  %15 = "stablehlo.popcnt"(%arg1) : (tensor<2xi32>) -> tensor<2xi32>
  %16 = "stablehlo.not"(%arg3) : (tensor<i1>) -> tensor<i1>
  %17 = "stablehlo.atan2"(%arg2, %arg2) : (tensor<2xcomplex<f64>>, tensor<2xcomplex<f64>>) -> tensor<2xcomplex<f64>>
  %18 = "stablehlo.sign"(%arg1) : (tensor<2xi32>) -> tensor<2xi32>
  %19 = "stablehlo.add"(%arg3, %arg3) : (tensor<i1>, tensor<i1>) -> tensor<i1>
  %20:2 = "stablehlo.optimization_barrier"(%arg0, %arg3) : (tensor<2xf32>, tensor<i1>) -> (tensor<2xf32>, tensor<i1>)
  func.return %0 : tensor<2x4xi8>
}

// -----

func.func @main(%arg0: tensor<2x9x9x4xf32>, %arg1: tensor<3x3x1x8xf32>, %arg2: tensor<4x5x5x3xf32>, %arg3: tensor<3x3x3x4xf32>) -> tensor<2x9x9x8xf32> {
  %0 = "stablehlo.convolution"(%arg0, %arg1) {window_strides = array<i64: 1, 1>, padding = dense<1> : tensor<2x2xi64>, lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 4 : i64, batch_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x9x9x4xf32>, tensor<3x3x1x8xf32>) -> tensor<2x9x9x8xf32>
  %1 = "stablehlo.convolution"(%arg2, %arg3) {window_strides = array<i64: 1, 1>, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[0, 1, b, f]>, feature_group_count = 1 : i64, batch_group_count = 4 : i64} : (tensor<4x5x5x3xf32>, tensor<3x3x3x4xf32>) -> tensor<3x3x1x4xf32>
  %2 = "stablehlo.convolution"(%arg0, %arg1) {window_strides = array<i64: 2, 3>, padding = dense<[[0, 1], [2, 0]]> : tensor<2x2xi64>, lhs_dilation = array<i64: 2, 1>, rhs_dilation = array<i64: 1, 2>, dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2]>, feature_group_count = 4 : i64, batch_group_count = 1 : i64} : (tensor<2x9x9x4xf32>, tensor<3x3x1x8xf32>) -> tensor<2x8x3x8xf32>
  func.return %0 : tensor<2x9x9x8xf32>
}

// -----

func.func @main(%arg0: tensor<2x5x3xf32>, %arg1: tensor<2x4x1xi64>, %arg2: tensor<2x4x3xf32>, %arg3: tensor<3xi64>) -> tensor<2x4x3xf32> {
  %0 = "stablehlo.gather"(%arg0, %arg1) {dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 3>, indices_are_sorted = false} : (tensor<2x5x3xf32>, tensor<2x4x1xi64>) -> tensor<2x4x3xf32>
  %1 = "stablehlo.dynamic_gather"(%arg0, %arg1, %arg3) {dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>} : (tensor<2x5x3xf32>, tensor<2x4x1xi64>, tensor<3xi64>) -> tensor<2x4x3xf32>
  %2 = "stablehlo.scatter"(%arg0, %arg1, %arg2) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>, indices_are_sorted = true, unique_indices = true} : (tensor<2x5x3xf32>, tensor<2x4x1xi64>, tensor<2x4x3xf32>) -> tensor<2x5x3xf32>
  %i = "stablehlo.constant"() {value = dense<[[0], [2]]> : tensor<2x1xi32>} : () -> tensor<2x1xi32>
  %u = "stablehlo.constant"() {value = dense<1.0> : tensor<2x5x2xf32>} : () -> tensor<2x5x2xf32>
  %3:2 = "stablehlo.scatter"(%arg0, %arg0, %i, %u, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %d: tensor<f32>):
    "stablehlo.return"(%c, %d) : (tensor<f32>, tensor<f32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0, 1], inserted_window_dims = [2], scatter_dims_to_operand_dims = [2], index_vector_dim = 1>} : (tensor<2x5x3xf32>, tensor<2x5x3xf32>, tensor<2x1xi32>, tensor<2x5x2xf32>, tensor<2x5x2xf32>) -> (tensor<2x5x3xf32>, tensor<2x5x3xf32>)
  %z = "stablehlo.constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %4 = "stablehlo.dynamic_slice"(%arg0, %z, %z, %z) {slice_sizes = array<i64: 1, 5, 2>} : (tensor<2x5x3xf32>, tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<1x5x2xf32>
  %5 = "stablehlo.dynamic_update_slice"(%arg0, %4, %z, %z, %z) : (tensor<2x5x3xf32>, tensor<1x5x2xf32>, tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<2x5x3xf32>
  %6 = "stablehlo.torch_index_select"(%arg0, %arg3) {dim = 1 : i64, batch_dims = 0 : i64} : (tensor<2x5x3xf32>, tensor<3xi64>) -> tensor<2x3x3xf32>
  func.return %0 : tensor<2x4x3xf32>
}

// -----

func.func private @helper(%arg0: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  func.return %arg0, %arg0 : tensor<2xf32>, tensor<2xf32>
}
func.func private @decomposition(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  func.return %arg0 : tensor<2xf32>
}
func.func @main(%arg0: tensor<2xf32>, %arg1: tuple<tensor<2xf32>, tuple<tensor<i32>>>) -> tensor<2xf32> {
  %0:2 = func.call @helper(%arg0) : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  %1 = "stablehlo.composite"(%0#0) {name = "my.identity", decomposition = @decomposition, version = 2 : i32, composite_attributes = {k = 1 : i64}} : (tensor<2xf32>) -> tensor<2xf32>
  %2 = "stablehlo.custom_call"(%arg1, %1) {call_target_name = "foo", api_version = 2 : i32, backend_config = "cfg", has_side_effect = true, called_computations = [@helper], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 1, operand_tuple_indices = []>, #stablehlo.output_operand_alias<output_tuple_indices = [1], operand_index = 0, operand_tuple_indices = [1, 0]>]} : (tuple<tensor<2xf32>, tuple<tensor<i32>>>, tensor<2xf32>) -> tuple<tensor<2xf32>, tensor<i32>>
  %3 = "stablehlo.get_tuple_element"(%2) {index = 0 : i32} : (tuple<tensor<2xf32>, tensor<i32>>) -> tensor<2xf32>
  %4 = "stablehlo.tuple"(%3, %arg1) : (tensor<2xf32>, tuple<tensor<2xf32>, tuple<tensor<i32>>>) -> tuple<tensor<2xf32>, tuple<tensor<2xf32>, tuple<tensor<i32>>>>
  %5 = "stablehlo.custom_call"(%3) {call_target_name = "ffi", api_version = 4 : i32, backend_config = {alpha = 1.0 : f32}, operand_layouts = [dense<0> : tensor<1xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<2xf32>) -> tensor<2x2xf32>
  func.return %3 : tensor<2xf32>
}

// -----

func.func @main(%arg0: tensor<2x!quant.uniform<i8:f32, 0.5:3>>, %arg1: tensor<2x!quant.uniform<i8:f32, 0.25:-1>>, %arg2: tensor<3x2xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.add"(%arg0, %arg1) : (tensor<2x!quant.uniform<i8:f32, 0.5:3>>, tensor<2x!quant.uniform<i8:f32, 0.25:-1>>) -> tensor<2x!quant.uniform<i8:f32, 1.0:0>>
  %1 = "stablehlo.uniform_dequantize"(%0) : (tensor<2x!quant.uniform<i8:f32, 1.0:0>>) -> tensor<2xf32>
  %2 = "stablehlo.uniform_quantize"(%arg2) : (tensor<3x2xf32>) -> tensor<3x2x!quant.uniform<i8<-127:127>:f32:0, {0.1:0, 0.2:1, 0.3:-2}>>
  %3 = "stablehlo.uniform_quantize"(%2) : (tensor<3x2x!quant.uniform<i8<-127:127>:f32:0, {0.1:0, 0.2:1, 0.3:-2}>>) -> tensor<3x2x!quant.uniform<i8:f32, 0.5:0>>
  func.return %1 : tensor<2xf32>
}

// -----

func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<4x5xcomplex<f32>>, %arg2: tensor<3x4x4xf64>, %arg3: tensor<3x2x4xf64>) -> tensor<5xcomplex<f32>> {
  %0 = "stablehlo.fft"(%arg0) {fft_type = #stablehlo<fft_type RFFT>, fft_length = array<i64: 8>} : (tensor<8xf32>) -> tensor<5xcomplex<f32>>
  %1 = "stablehlo.fft"(%0) {fft_type = #stablehlo<fft_type IRFFT>, fft_length = array<i64: 8>} : (tensor<5xcomplex<f32>>) -> tensor<8xf32>
  %2 = "stablehlo.fft"(%arg1) {fft_type = #stablehlo<fft_type IFFT>, fft_length = array<i64: 4, 5>} : (tensor<4x5xcomplex<f32>>) -> tensor<4x5xcomplex<f32>>
  %3 = "stablehlo.cholesky"(%arg2) {lower = true} : (tensor<3x4x4xf64>) -> tensor<3x4x4xf64>
  %4 = "stablehlo.triangular_solve"(%3, %arg3) {left_side = false, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose ADJOINT>} : (tensor<3x4x4xf64>, tensor<3x2x4xf64>) -> tensor<3x2x4xf64>
  func.return %0 : tensor<5xcomplex<f32>>
}

// -----

func.func @main(%arg0: tensor<2x3x4xf32>, %arg1: tensor<3xf32>) -> tensor<2x3x4xf32> {
  %0 = "stablehlo.batch_norm_inference"(%arg0, %arg1, %arg1, %arg1, %arg1) {epsilon = 1.0e-5 : f32, feature_index = 1 : i64} : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4xf32>
  %1:3 = "stablehlo.batch_norm_training"(%arg0, %arg1, %arg1) {epsilon = 1.0e-5 : f32, feature_index = 1 : i64} : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>)
  %2:3 = "stablehlo.batch_norm_grad"(%arg0, %arg1, %1#1, %1#2, %0) {epsilon = 1.0e-5 : f32, feature_index = 1 : i64} : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>)
  func.return %2#0 : tensor<2x3x4xf32>
}

// -----

func.func @main(%arg0: tensor<?x3xf32>, %arg1: tensor<2xi64>, %arg2: tensor<f32>, %arg3: tensor<i32>) -> tensor<?x?xf32> {
  %0 = "stablehlo.dynamic_broadcast_in_dim"(%arg0, %arg1) {broadcast_dimensions = array<i64: 0, 1>, known_expanding_dimensions = array<i64: 0>, known_nonexpanding_dimensions = array<i64: 1>} : (tensor<?x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %1 = "stablehlo.dynamic_iota"(%arg1) {iota_dimension = 1 : i64} : (tensor<2xi64>) -> tensor<?x?xi32>
  %2 = "stablehlo.dynamic_pad"(%arg0, %arg2, %arg1, %arg1, %arg1) : (tensor<?x3xf32>, tensor<f32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  %3 = "stablehlo.dynamic_reshape"(%arg0, %arg1) : (tensor<?x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %4 = "stablehlo.real_dynamic_slice"(%arg0, %arg1, %arg1, %arg1) : (tensor<?x3xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  %5 = "stablehlo.get_dimension_size"(%arg0) {dimension = 0 : i64} : (tensor<?x3xf32>) -> tensor<i32>
  %6 = "stablehlo.set_dimension_size"(%arg0, %arg3) {dimension = 0 : i64} : (tensor<?x3xf32>, tensor<i32>) -> tensor<?x3xf32>
  %7 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<4xcomplex<f32>>
  func.return %0 : tensor<?x?xf32>
}

// -----

func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<3x4xf32>, %arg2: tensor<3xf32>, %arg3: tensor<i32>, %arg4: tensor<2xui64>, %arg5: tensor<3xui64>) -> tensor<2x4xf32> {
  %0 = "stablehlo.dot"(%arg0, %arg1) : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %1 = "stablehlo.dot"(%arg2, %arg1) : (tensor<3xf32>, tensor<3x4xf32>) -> tensor<4xf32>
  %2 = "stablehlo.einsum"(%arg0, %arg1) {einsum_config = "ab,bc->ac"} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %3 = "stablehlo.unary_einsum"(%arg0) {einsum_config = "ab->ba"} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %4 = "stablehlo.broadcast"(%arg2) {broadcast_sizes = array<i64: 5, 2>} : (tensor<3xf32>) -> tensor<5x2x3xf32>
  %5 = "stablehlo.transpose"(%arg0) {permutation = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %6 = "stablehlo.reverse"(%arg0) {dimensions = array<i64: 0, 1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %pv = "stablehlo.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %7 = "stablehlo.pad"(%arg0, %pv) {edge_padding_low = array<i64: -1, 2>, edge_padding_high = array<i64: 0, -1>, interior_padding = array<i64: 2, 0>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<3x4xf32>
  %sh = "stablehlo.constant"() {value = dense<[3, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  %8 = "stablehlo.rng"(%pv, %pv, %sh) {rng_distribution = #stablehlo<rng_distribution NORMAL>} : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<3x3xf32>
  %9:2 = "stablehlo.rng_bit_generator"(%arg4) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x2xui32>)
  %10:2 = "stablehlo.rng_bit_generator"(%arg5) {rng_algorithm = #stablehlo<rng_algorithm PHILOX>} : (tensor<3xui64>) -> (tensor<3xui64>, tensor<5xf32>)
  func.return %2 : tensor<2x4xf32>
}

// -----

func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<3xf32>, %arg2: tensor<4x5xf32>) -> tensor<2x3xf32> {
  %0 = "chlo.broadcast_add"(%arg0, %arg1) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = "chlo.broadcast_compare"(%arg0, %arg1) {comparison_direction = #chlo<comparison_direction LT>} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %2 = "chlo.broadcast_complex"(%arg0, %arg1) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xcomplex<f32>>
  %3 = "chlo.broadcast_multiply"(%arg0, %arg1) {broadcast_dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %4:2 = "chlo.top_k"(%arg2) {k = 2 : i64} : (tensor<4x5xf32>) -> (tensor<4x2xf32>, tensor<4x2xi32>)
  %5 = "chlo.is_inf"(%arg0) : (tensor<2x3xf32>) -> tensor<2x3xi1>
  %6 = "chlo.erf_inv"(%arg0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %7 = "chlo.next_after"(%arg0, %arg0) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %8 = "chlo.constant_like"(%arg0) {value = 1.0 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %9 = "chlo.square"(%arg0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @main(%arg0: tensor<2xf32>) {
  %0 = "stablehlo.constant"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  "check.expect_eq"(%arg0, %0) : (tensor<2xf32>, tensor<2xf32>) -> ()
  "check.expect_eq_const"(%arg0) {value = dense<[1.0, 2.0]> : tensor<2xf32>} : (tensor<2xf32>) -> ()
  "check.expect_almost_eq"(%arg0, %0) : (tensor<2xf32>, tensor<2xf32>) -> ()
  "check.expect_almost_eq_const"(%arg0) {value = dense<[1.0, 2.0]> : tensor<2xf32>} : (tensor<2xf32>) -> ()
  func.return
}

// -----

func.func @main(%arg0: tensor<4x8xf8E4M3FN>, %arg1: tensor<8x2xf8E5M2>, %arg2: tensor<4x8xbf16>, %arg3: tensor<8x2xf32>, %arg4: tensor<4x8xi8>, %arg5: tensor<8x2xui8>) -> tensor<4x2xf32> {
  %0 = "stablehlo.dot_general"(%arg0, %arg1) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<4x8xf8E4M3FN>, tensor<8x2xf8E5M2>) -> tensor<4x2xf32>
  %1 = "stablehlo.dot_general"(%arg2, %arg3) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<4x8xbf16>, tensor<8x2xf32>) -> tensor<4x2xf32>
  %2 = "stablehlo.dot_general"(%arg4, %arg5) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<4x8xi8>, tensor<8x2xui8>) -> tensor<4x2xi32>
  func.return %0 : tensor<4x2xf32>
}

// -----

func.func @main(%arg0: tensor<?x4xf32, #stablehlo.bounds<8, ?>>, %arg1: tensor<?xi32, #stablehlo.bounds<?>>) -> tensor<?x4xf32, #stablehlo.bounds<8, ?>> {
  %0 = "stablehlo.abs"(%arg0) : (tensor<?x4xf32, #stablehlo.bounds<8, ?>>) -> tensor<?x4xf32, #stablehlo.bounds<8, ?>>
  func.return %0 : tensor<?x4xf32, #stablehlo.bounds<8, ?>>
}
