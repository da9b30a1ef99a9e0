// Collectives, channels and host transfer, written so that every target version
// down to 0.9.0 can hold them (their _v1 forms).
module @collectives attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 2 : i32} {
  func.func @main(%x: tensor<2x4xf32>, %t: !stablehlo.token, %i: tensor<3x1xi32>) -> tensor<2x4xf32> {
    %ag = "stablehlo.all_gather"(%x) {all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids} : (tensor<2x4xf32>) -> tensor<2x8xf32>
    %ar = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0], [1]]> : tensor<2x1xi64>} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %a2a = "stablehlo.all_to_all"(%x) {concat_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 1 : i64} : (tensor<2x4xf32>) -> tensor<4x2xf32>
    %rs = "stablehlo.reduce_scatter"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.maximum %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {channel_handle = #stablehlo.channel_handle<handle = 2, type = 0>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, scatter_dimension = 1 : i64} : (tensor<2x4xf32>) -> tensor<2x2xf32>
    %cp = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %cb = "stablehlo.collective_broadcast"(%x) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %crs = "stablehlo.cross-replica-sum"(%x) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %rid = stablehlo.replica_id : tensor<ui32>
    %pid = stablehlo.partition_id : tensor<ui32>
    %in:2 = "stablehlo.infeed"(%t) {infeed_config = "cfg", layout = [[1, 0]]} : (!stablehlo.token) -> (tensor<2x4xf32>, !stablehlo.token)
    %in2:2 = "stablehlo.infeed"(%t) {infeed_config = ""} : (!stablehlo.token) -> (tensor<2x4xf32>, !stablehlo.token)
    %out = "stablehlo.outfeed"(%x, %t) {outfeed_config = ""} : (tensor<2x4xf32>, !stablehlo.token) -> !stablehlo.token
    %snd = "stablehlo.send"(%x, %t) {channel_handle = #stablehlo.channel_handle<handle = 5, type = 2>, is_host_transfer = true} : (tensor<2x4xf32>, !stablehlo.token) -> !stablehlo.token
    %rcv:2 = "stablehlo.recv"(%t) {channel_handle = #stablehlo.channel_handle<handle = 6, type = 1>} : (!stablehlo.token) -> (tensor<2x4xf32>, !stablehlo.token)
    %g = "stablehlo.gather"(%x, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>} : (tensor<2x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
    %d = stablehlo.dot_general %x, %x, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x2xf32>
    %xt = stablehlo.transpose %x, dims = [1, 0] : (tensor<2x4xf32>) -> tensor<4x2xf32>
    %d2 = stablehlo.dot %x, %xt, precision = [HIGH, HIGHEST] : (tensor<2x4xf32>, tensor<4x2xf32>) -> tensor<2x2xf32>
    %cc = stablehlo.custom_call @tgt(%x) {backend_config = "", called_computations = [@helper], operand_layouts = [dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>]} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %cc2 = stablehlo.custom_call @ffi(%x) {api_version = 4 : i32, backend_config = {n = 1 : i32, s = "x"}, has_side_effect = false} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    return %ar : tensor<2x4xf32>
  }
  func.func private @helper(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
    return %x : tensor<2x4xf32>
  }
}
