// Negative cases for data movement: broadcast_in_dim, broadcast, reshape, transpose, slice,
// concatenate, pad, reverse, iota, get/set_dimension_size and the dynamic-shape variants.

func.func @main(%arg0: tensor<1x3xf32>) -> tensor<2x3x2xf64> {
  // expected-error@+1 {{stablehlo.broadcast_in_dim: operand element type f32 and result element type f64 differ}}
  %0 = "stablehlo.broadcast_in_dim"(%arg0) {broadcast_dimensions = array<i64: 2, 1>} : (tensor<1x3xf32>) -> tensor<2x3x2xf64>
  func.return %0 : tensor<2x3x2xf64>
}

// -----

func.func @main(%arg0: tensor<1x3xf32>) -> tensor<2x3x2xf32> {
  // expected-error@+1 {{stablehlo.broadcast_in_dim: broadcast_dimensions has 1 entries but the operand has rank 2}}
  %0 = "stablehlo.broadcast_in_dim"(%arg0) {broadcast_dimensions = array<i64: 2>} : (tensor<1x3xf32>) -> tensor<2x3x2xf32>
  func.return %0 : tensor<2x3x2xf32>
}

// -----

func.func @main(%arg0: tensor<1x3xf32>) -> tensor<2x3x2xf32> {
  // expected-error@+1 {{stablehlo.broadcast_in_dim: broadcast dimension 3 is out of range [0, 3)}}
  %0 = "stablehlo.broadcast_in_dim"(%arg0) {broadcast_dimensions = array<i64: 3, 1>} : (tensor<1x3xf32>) -> tensor<2x3x2xf32>
  func.return %0 : tensor<2x3x2xf32>
}

// -----

func.func @main(%arg0: tensor<1x1xf32>) -> tensor<2x3x2xf32> {
  // expected-error@+1 {{stablehlo.broadcast_in_dim: broadcast_dimensions [1, 1] are not unique}}
  %0 = "stablehlo.broadcast_in_dim"(%arg0) {broadcast_dimensions = array<i64: 1, 1>} : (tensor<1x1xf32>) -> tensor<2x3x2xf32>
  func.return %0 : tensor<2x3x2xf32>
}

// -----

func.func @main(%arg0: tensor<1x4xf32>) -> tensor<2x3x2xf32> {
  // expected-error@+1 {{stablehlo.broadcast_in_dim: operand dimension 1 has size 4 but result dimension 1 has size 3; it must be 1 or equal}}
  %0 = "stablehlo.broadcast_in_dim"(%arg0) {broadcast_dimensions = array<i64: 2, 1>} : (tensor<1x4xf32>) -> tensor<2x3x2xf32>
  func.return %0 : tensor<2x3x2xf32>
}

// -----

func.func @main(%arg0: tensor<3xf32>) -> tensor<2x4xf32> {
  // expected-error@+1 {{stablehlo.broadcast: result shape [2x4] does not match the expected shape [2x3]}}
  %0 = "stablehlo.broadcast"(%arg0) {broadcast_sizes = array<i64: 2>} : (tensor<3xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

func.func @main(%arg0: tensor<2x3xf32>) -> tensor<7xf32> {
  // expected-error@+1 {{stablehlo.reshape: operand has 6 elements but result has 7 (tensor<2x3xf32> -> tensor<7xf32>)}}
  %0 = "stablehlo.reshape"(%arg0) : (tensor<2x3xf32>) -> tensor<7xf32>
  func.return %0 : tensor<7xf32>
}

// -----

func.func @main(%arg0: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error@+1 {{stablehlo.transpose: permutation [0, 0] is not a permutation of [0, 2)}}
  %0 = "stablehlo.transpose"(%arg0) {permutation = array<i64: 0, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  func.return %0 : tensor<3x2xf32>
}

// -----

func.func @main(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{stablehlo.transpose: result shape [2x3] does not match the expected shape [3x2]}}
  %0 = "stablehlo.transpose"(%arg0) {permutation = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @main(%arg0: tensor<3x4xf32>) -> tensor<2x2xf32> {
  // expected-error@+1 {{stablehlo.slice: start_indices, limit_indices and strides have 1, 2 and 2 entries but the operand has rank 2}}
  %0 = "stablehlo.slice"(%arg0) {start_indices = array<i64: 1>, limit_indices = array<i64: 3, 4>, strides = array<i64: 1, 1>} : (tensor<3x4xf32>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}

// -----

func.func @main(%arg0: tensor<3x4xf32>) -> tensor<2x2xf32> {
  // expected-error@+1 {{stablehlo.slice: dimension 1: need 0 <= start (2) <= limit (5) <= dimension size (4)}}
  %0 = "stablehlo.slice"(%arg0) {start_indices = array<i64: 1, 2>, limit_indices = array<i64: 3, 5>, strides = array<i64: 1, 1>} : (tensor<3x4xf32>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}

// -----

func.func @main(%arg0: tensor<3x4xf32>) -> tensor<2x2xf32> {
  // expected-error@+1 {{stablehlo.slice: stride 0 of dimension 1 must be positive}}
  %0 = "stablehlo.slice"(%arg0) {start_indices = array<i64: 1, 2>, limit_indices = array<i64: 3, 4>, strides = array<i64: 1, 0>} : (tensor<3x4xf32>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}

// -----

func.func @main(%arg0: tensor<3x4xf32>) -> tensor<2x1xf32> {
  // expected-error@+1 {{stablehlo.slice: result shape [2x1] does not match the expected shape [2x2]}}
  %0 = "stablehlo.slice"(%arg0) {start_indices = array<i64: 1, 2>, limit_indices = array<i64: 3, 4>, strides = array<i64: 1, 1>} : (tensor<3x4xf32>) -> tensor<2x1xf32>
  func.return %0 : tensor<2x1xf32>
}

// -----

func.func @main(%arg0: tensor<3x2xf32>, %arg1: tensor<1x2xf32>) -> tensor<4x2xf32> {
  // expected-error@+1 {{stablehlo.concatenate: dimension 2 is out of range [0, 2)}}
  %0 = "stablehlo.concatenate"(%arg0, %arg1) {dimension = 2 : i64} : (tensor<3x2xf32>, tensor<1x2xf32>) -> tensor<4x2xf32>
  func.return %0 : tensor<4x2xf32>
}

// -----

func.func @main(%arg0: tensor<3x2xf32>, %arg1: tensor<1x3xf32>) -> tensor<4x2xf32> {
  // expected-error@+1 {{stablehlo.concatenate: input #1 has shape [1x3], which differs from input #0's [3x2] outside dimension 0}}
  %0 = "stablehlo.concatenate"(%arg0, %arg1) {dimension = 0 : i64} : (tensor<3x2xf32>, tensor<1x3xf32>) -> tensor<4x2xf32>
  func.return %0 : tensor<4x2xf32>
}

// -----

func.func @main(%arg0: tensor<3x2xf32>, %arg1: tensor<1x2xf32>) -> tensor<5x2xf32> {
  // expected-error@+1 {{stablehlo.concatenate: result shape [5x2] does not match the expected shape [4x2]}}
  %0 = "stablehlo.concatenate"(%arg0, %arg1) {dimension = 0 : i64} : (tensor<3x2xf32>, tensor<1x2xf32>) -> tensor<5x2xf32>
  func.return %0 : tensor<5x2xf32>
}

// -----

func.func @main(%arg0: tensor<3x2xf32>, %arg1: tensor<1x2xi32>) -> tensor<4x2xf32> {
  // expected-error@+1 {{stablehlo.concatenate: input #1 element type i32 and result element type f32 differ}}
  %0 = "stablehlo.concatenate"(%arg0, %arg1) {dimension = 0 : i64} : (tensor<3x2xf32>, tensor<1x2xi32>) -> tensor<4x2xf32>
  func.return %0 : tensor<4x2xf32>
}

// -----

func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) -> tensor<5x9xf32> {
  // expected-error@+1 {{stablehlo.pad: edge_padding_low, edge_padding_high and interior_padding have 1, 2 and 2 entries but the operand has rank 2}}
  %0 = "stablehlo.pad"(%arg0, %arg1) {edge_padding_low = array<i64: 0>, edge_padding_high = array<i64: 2, 1>, interior_padding = array<i64: 1, 2>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<5x9xf32>
  func.return %0 : tensor<5x9xf32>
}

// -----

func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) -> tensor<5x9xf32> {
  // expected-error@+1 {{stablehlo.pad: interior_padding[1] = -2 must be non-negative}}
  %0 = "stablehlo.pad"(%arg0, %arg1) {edge_padding_low = array<i64: 0, 1>, edge_padding_high = array<i64: 2, 1>, interior_padding = array<i64: 1, -2>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<5x9xf32>
  func.return %0 : tensor<5x9xf32>
}

// -----

func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) -> tensor<5x0xf32> {
  // expected-error@+1 {{stablehlo.pad: padded dimension 1 would have negative size -1}}
  %0 = "stablehlo.pad"(%arg0, %arg1) {edge_padding_low = array<i64: 0, -2>, edge_padding_high = array<i64: 2, -2>, interior_padding = array<i64: 1, 0>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<5x0xf32>
  func.return %0 : tensor<5x0xf32>
}

// -----

func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<1xf32>) -> tensor<5x9xf32> {
  // expected-error@+1 {{stablehlo.pad: padding_value must be a 0-dimensional tensor, got tensor<1xf32>}}
  %0 = "stablehlo.pad"(%arg0, %arg1) {edge_padding_low = array<i64: 0, 1>, edge_padding_high = array<i64: 2, 1>, interior_padding = array<i64: 1, 2>} : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<5x9xf32>
  func.return %0 : tensor<5x9xf32>
}

// -----

func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) -> tensor<5x8xf32> {
  // expected-error@+1 {{stablehlo.pad: result shape [5x8] does not match the expected shape [5x9]}}
  %0 = "stablehlo.pad"(%arg0, %arg1) {edge_padding_low = array<i64: 0, 1>, edge_padding_high = array<i64: 2, 1>, interior_padding = array<i64: 1, 2>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<5x8xf32>
  func.return %0 : tensor<5x8xf32>
}

// -----

func.func @main(%arg0: tensor<3x2xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{stablehlo.reverse: operand type tensor<3x2xf32> and result type tensor<2x3xf32> differ}}
  %0 = "stablehlo.reverse"(%arg0) {dimensions = array<i64: 1>} : (tensor<3x2xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @main(%arg0: tensor<3x2xf32>) -> tensor<3x2xf32> {
  // expected-error@+1 {{stablehlo.reverse: dimensions [1, 1] are not unique}}
  %0 = "stablehlo.reverse"(%arg0) {dimensions = array<i64: 1, 1>} : (tensor<3x2xf32>) -> tensor<3x2xf32>
  func.return %0 : tensor<3x2xf32>
}

// -----

func.func @main(%arg0: tensor<3x2xf32>) -> tensor<3x2xf32> {
  // expected-error@+1 {{stablehlo.reverse: dimension 2 is out of range [0, 2)}}
  %0 = "stablehlo.reverse"(%arg0) {dimensions = array<i64: 2>} : (tensor<3x2xf32>) -> tensor<3x2xf32>
  func.return %0 : tensor<3x2xf32>
}

// -----

func.func @main() -> tensor<4x5xi32> {
  // expected-error@+1 {{stablehlo.iota: iota_dimension 2 is out of range [0, 2)}}
  %0 = "stablehlo.iota"() {iota_dimension = 2 : i64} : () -> tensor<4x5xi32>
  func.return %0 : tensor<4x5xi32>
}

// -----

func.func @main(%arg0: tensor<2x3xf32>) -> tensor<i32> {
  // expected-error@+1 {{stablehlo.get_dimension_size: dimension 2 is out of range [0, 2)}}
  %0 = "stablehlo.get_dimension_size"(%arg0) {dimension = 2 : i64} : (tensor<2x3xf32>) -> tensor<i32>
  func.return %0 : tensor<i32>
}

// -----

func.func @main(%arg0: tensor<2x3xf32>) -> tensor<i64> {
  // expected-error@+1 {{stablehlo.get_dimension_size: result must be tensor<i32>, got tensor<i64>}}
  %0 = "stablehlo.get_dimension_size"(%arg0) {dimension = 1 : i64} : (tensor<2x3xf32>) -> tensor<i64>
  func.return %0 : tensor<i64>
}

// -----

func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<i32>) -> tensor<2x4xf32> {
  // expected-error@+1 {{stablehlo.set_dimension_size: result shape [2x4] must match operand shape [2x3] outside dimension 0}}
  %0 = "stablehlo.set_dimension_size"(%arg0, %arg1) {dimension = 0 : i64} : (tensor<2x3xf32>, tensor<i32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

func.func @main(%arg0: tensor<1x3xf32>, %arg1: tensor<2xi64>) -> tensor<?x3x?xf32> {
  // expected-error@+1 {{stablehlo.dynamic_broadcast_in_dim: output_dimensions must be tensor<3x...> of integers, got tensor<2xi64>}}
  %0 = "stablehlo.dynamic_broadcast_in_dim"(%arg0, %arg1) {broadcast_dimensions = array<i64: 2, 1>} : (tensor<1x3xf32>, tensor<2xi64>) -> tensor<?x3x?xf32>
  func.return %0 : tensor<?x3x?xf32>
}

// -----

func.func @main(%arg0: tensor<1x3xf32>, %arg1: tensor<3xi64>) -> tensor<?x3x?xf32> {
  // expected-error@+1 {{stablehlo.dynamic_broadcast_in_dim: known_expanding_dimensions [0] and known_nonexpanding_dimensions [0] overlap}}
  %0 = "stablehlo.dynamic_broadcast_in_dim"(%arg0, %arg1) {broadcast_dimensions = array<i64: 2, 1>, known_expanding_dimensions = array<i64: 0>, known_nonexpanding_dimensions = array<i64: 0>} : (tensor<1x3xf32>, tensor<3xi64>) -> tensor<?x3x?xf32>
  func.return %0 : tensor<?x3x?xf32>
}

// -----

func.func @main(%arg0: tensor<?x3xf32>, %arg1: tensor<f32>, %arg2: tensor<2xi64>) -> tensor<?xf32> {
  // expected-error@+1 {{stablehlo.dynamic_pad: result rank 1 differs from operand rank 2}}
  %0 = "stablehlo.dynamic_pad"(%arg0, %arg1, %arg2, %arg2, %arg2) : (tensor<?x3xf32>, tensor<f32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}
