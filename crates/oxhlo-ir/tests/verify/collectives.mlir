// Negative cases for distribution and side effects: replica groups and channels of the collectives,
// all_gather, all_reduce, all_to_all, reduce_scatter, collective_permute, collective_broadcast, tokens of
// infeed/send, send/recv channel types, replica_id.

func.func @main(%arg0: tensor<2x2xf32>) -> tensor<2x4xf32> {
  // expected-error@+1 {{stablehlo.all_gather: replica_groups values [0, 0] are not unique}}
  %0 = "stablehlo.all_gather"(%arg0) {all_gather_dim = 1 : i64, replica_groups = dense<[[0, 0]]> : tensor<1x2xi64>} : (tensor<2x2xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

func.func @main(%arg0: tensor<2x2xf32>) -> tensor<2x4xf32> {
  // expected-error@+1 {{stablehlo.all_gather: replica_groups value 2 is out of range [0, 2)}}
  %0 = "stablehlo.all_gather"(%arg0) {all_gather_dim = 1 : i64, replica_groups = dense<[[0, 2]]> : tensor<1x2xi64>} : (tensor<2x2xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

module attributes {mhlo.num_replicas = 4 : i32} {
func.func @main(%arg0: tensor<2x2xf32>) -> tensor<2x4xf32> {
  // expected-error@+1 {{stablehlo.all_gather: replica_groups has 2 ids but the module has 4 processes in this grouping}}
  %0 = "stablehlo.all_gather"(%arg0) {all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x2xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}
}

// -----

func.func @main(%arg0: tensor<2x2xf32>) -> tensor<2x4xf32> {
  // expected-error@+1 {{stablehlo.all_gather: use_global_device_ids requires a positive channel_id, got 0}}
  %0 = "stablehlo.all_gather"(%arg0) {all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids} : (tensor<2x2xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

func.func @main(%arg0: tensor<2x2xf32>) -> tensor<2x4xf32> {
  // expected-error@+1 {{stablehlo.all_gather: all_gather_dim 2 is out of range [0, 2)}}
  %0 = "stablehlo.all_gather"(%arg0) {all_gather_dim = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x2xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

func.func @main(%arg0: tensor<2x2xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{stablehlo.all_gather: result #0 type tensor<2x3xf32> must be tensor<2x4xf32>}}
  %0 = "stablehlo.all_gather"(%arg0) {all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x2xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf64> {
  // expected-error@+1 {{stablehlo.all_reduce: results (tensor<4xf64>) must have the operand types (tensor<4xf32>)}}
  %0 = "stablehlo.all_reduce"(%arg0) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 0, type = 0>} : (tensor<4xf32>) -> tensor<4xf64>
  func.return %0 : tensor<4xf64>
}

// -----

func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{stablehlo.all_reduce: computation must have type (tensor<f32>, tensor<f32>) -> (tensor<f32>), got (tensor<i32>, tensor<i32>) -> (tensor<i32>)}}
  %0 = "stablehlo.all_reduce"(%arg0) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%s) : (tensor<i32>) -> ()
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 0, type = 0>} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

func.func @main(%arg0: tensor<2x4xf32>) -> tensor<4x2xf32> {
  // expected-error@+1 {{stablehlo.all_to_all: split_dimension 2 is out of range [0, 2)}}
  %0 = "stablehlo.all_to_all"(%arg0) {split_dimension = 2 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x4xf32>) -> tensor<4x2xf32>
  func.return %0 : tensor<4x2xf32>
}

// -----

func.func @main(%arg0: tensor<2x4xf32>) -> tensor<4x2xf32> {
  // expected-error@+1 {{stablehlo.all_to_all: split_count 0 must be positive}}
  %0 = "stablehlo.all_to_all"(%arg0) {split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x4xf32>) -> tensor<4x2xf32>
  func.return %0 : tensor<4x2xf32>
}

// -----

func.func @main(%arg0: tensor<2x3xf32>) -> tensor<4x2xf32> {
  // expected-error@+1 {{stablehlo.all_to_all: split dimension size 3 is not divisible by split_count 2}}
  %0 = "stablehlo.all_to_all"(%arg0) {split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x3xf32>) -> tensor<4x2xf32>
  func.return %0 : tensor<4x2xf32>
}

// -----

func.func @main(%arg0: tensor<2x4xf32>) -> tensor<4x2xf32> {
  // expected-error@+1 {{stablehlo.all_to_all: replica groups have 3 members but split_count is 2}}
  %0 = "stablehlo.all_to_all"(%arg0) {split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>} : (tensor<2x4xf32>) -> tensor<4x2xf32>
  func.return %0 : tensor<4x2xf32>
}

// -----

func.func @main(%arg0: tensor<2x4xf32>) -> tensor<2x4xf32> {
  // expected-error@+1 {{stablehlo.all_to_all: result #0 type tensor<2x4xf32> must be tensor<4x2xf32>}}
  %0 = "stablehlo.all_to_all"(%arg0) {split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

func.func @main(%arg0: tensor<2x4xf32>) -> tensor<2x2xf32> {
  // expected-error@+1 {{stablehlo.reduce_scatter: scatter_dimension 2 is out of range [0, 2)}}
  %0 = "stablehlo.reduce_scatter"(%arg0) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {scatter_dimension = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x4xf32>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}

// -----

func.func @main(%arg0: tensor<2x3xf32>) -> tensor<2x2xf32> {
  // expected-error@+1 {{stablehlo.reduce_scatter: scatter dimension size 3 is not divisible by the group size 2}}
  %0 = "stablehlo.reduce_scatter"(%arg0) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {scatter_dimension = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x3xf32>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}

// -----

func.func @main(%arg0: tensor<2x4xf32>) -> tensor<2x4xf32> {
  // expected-error@+1 {{stablehlo.reduce_scatter: result #0 type tensor<2x4xf32> must be tensor<2x2xf32>}}
  %0 = "stablehlo.reduce_scatter"(%arg0) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {scatter_dimension = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

func.func @main(%arg0: tensor<2x2xf32>) -> tensor<2x2xf32> {
  // expected-error@+1 {{stablehlo.collective_permute: source_target_pairs must have shape [N, 2], got [1, 3]}}
  %0 = "stablehlo.collective_permute"(%arg0) {source_target_pairs = dense<[[0, 1, 2]]> : tensor<1x3xi64>} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}

// -----

func.func @main(%arg0: tensor<2x2xf32>) -> tensor<2x2xf32> {
  // expected-error@+1 {{stablehlo.collective_permute: sources [0, 0] and targets [1, 1] must each be unique}}
  %0 = "stablehlo.collective_permute"(%arg0) {source_target_pairs = dense<[[0, 1], [0, 1]]> : tensor<2x2xi64>} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}

// -----

module attributes {mhlo.num_replicas = 2 : i32} {
func.func @main(%arg0: tensor<2x2xf32>) -> tensor<2x2xf32> {
  // expected-error@+1 {{stablehlo.collective_permute: process id 2 in source_target_pairs is out of range [0, 2)}}
  %0 = "stablehlo.collective_permute"(%arg0) {source_target_pairs = dense<[[0, 2]]> : tensor<1x2xi64>} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}
}

// -----

func.func @main(%arg0: tensor<2x2xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{stablehlo.collective_permute: results (tensor<2x3xf32>) must have the operand types (tensor<2x2xf32>)}}
  %0 = "stablehlo.collective_permute"(%arg0) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x2xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @main(%arg0: tensor<2x2xf32>) -> tensor<2x2xf32> {
  // expected-error@+1 {{stablehlo.collective_broadcast: replica_groups values [0, 0] are not unique}}
  %0 = "stablehlo.collective_broadcast"(%arg0) {replica_groups = dense<[[0, 0]]> : tensor<1x2xi64>} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}

// -----

func.func @main(%arg0: !stablehlo.token) -> tensor<3xi32> {
  // expected-error@+1 {{stablehlo.infeed: the last result must be a !stablehlo.token, got (tensor<3xi32>, tensor<3xi32>)}}
  %0:2 = "stablehlo.infeed"(%arg0) {infeed_config = ""} : (!stablehlo.token) -> (tensor<3xi32>, tensor<3xi32>)
  func.return %0#0 : tensor<3xi32>
}

// -----

func.func @main(%arg0: tensor<3xi32>, %arg1: !stablehlo.token) -> !stablehlo.token {
  // expected-error@+1 {{stablehlo.send: channel type DEVICE_TO_DEVICE (1) must be DEVICE_TO_HOST when is_host_transfer = true}}
  %0 = "stablehlo.send"(%arg0, %arg1) {channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>, is_host_transfer = true} : (tensor<3xi32>, !stablehlo.token) -> !stablehlo.token
  func.return %0 : !stablehlo.token
}

// -----

func.func @main() -> tensor<i32> {
  // expected-error@+1 {{stablehlo.replica_id: result must be tensor<ui32>, got tensor<i32>}}
  %0 = "stablehlo.replica_id"() : () -> tensor<i32>
  func.return %0 : tensor<i32>
}
