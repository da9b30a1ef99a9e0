// Negative cases for contractions and linear algebra: dot_general (every dimension-number rule), dot,
// einsum, convolution (window attributes, group counts, result shape), dynamic_conv, cholesky,
// triangular_solve, fft and batch_norm.

func.func @main(%arg0: tensor<2x3x4xf32>, %arg1: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  // expected-error@+1 {{stablehlo.dot_general: lhs has 1 batching dimensions but rhs has 0}}
  %0 = "stablehlo.dot_general"(%arg0, %arg1) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  func.return %0 : tensor<2x3x5xf32>
}

// -----

func.func @main(%arg0: tensor<3x4xf32>, %arg1: tensor<4x5xf32>) -> tensor<3x5xf32> {
  // expected-error@+1 {{stablehlo.dot_general: lhs has 1 contracting dimensions but rhs has 2}}
  %0 = "stablehlo.dot_general"(%arg0, %arg1) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0, 1]>} : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  func.return %0 : tensor<3x5xf32>
}

// -----

func.func @main(%arg0: tensor<2x3x4xf32>, %arg1: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  // expected-error@+1 {{stablehlo.dot_general: lhs batching dimension 3 is out of range [0, 3)}}
  %0 = "stablehlo.dot_general"(%arg0, %arg1) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [3], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  func.return %0 : tensor<2x3x5xf32>
}

// -----

func.func @main(%arg0: tensor<2x3x4xf32>, %arg1: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  // expected-error@+1 {{stablehlo.dot_general: lhs contracting dimension -1 is out of range [0, 3)}}
  %0 = "stablehlo.dot_general"(%arg0, %arg1) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [-1], rhs_contracting_dimensions = [1]>} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  func.return %0 : tensor<2x3x5xf32>
}

// -----

func.func @main(%arg0: tensor<2x3x4xf32>, %arg1: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  // expected-error@+1 {{stablehlo.dot_general: rhs batching dimension 4 is out of range [0, 3)}}
  %0 = "stablehlo.dot_general"(%arg0, %arg1) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [4], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  func.return %0 : tensor<2x3x5xf32>
}

// -----

func.func @main(%arg0: tensor<2x3x4xf32>, %arg1: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  // expected-error@+1 {{stablehlo.dot_general: rhs contracting dimension 3 is out of range [0, 3)}}
  %0 = "stablehlo.dot_general"(%arg0, %arg1) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [3]>} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  func.return %0 : tensor<2x3x5xf32>
}

// -----

func.func @main(%arg0: tensor<2x3x4xf32>, %arg1: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  // expected-error@+1 {{stablehlo.dot_general: lhs batching [0] and contracting [0] dimensions overlap or repeat}}
  %0 = "stablehlo.dot_general"(%arg0, %arg1) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [1]>} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  func.return %0 : tensor<2x3x5xf32>
}

// -----

func.func @main(%arg0: tensor<2x3x4xf32>, %arg1: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  // expected-error@+1 {{stablehlo.dot_general: rhs batching [0] and contracting [0] dimensions overlap or repeat}}
  %0 = "stablehlo.dot_general"(%arg0, %arg1) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  func.return %0 : tensor<2x3x5xf32>
}

// -----

func.func @main(%arg0: tensor<2x3x4xf32>, %arg1: tensor<3x4x5xf32>) -> tensor<2x3x5xf32> {
  // expected-error@+1 {{stablehlo.dot_general: batching dimension sizes differ (2 vs 3) for lhs dimension 0 and rhs dimension 0}}
  %0 = "stablehlo.dot_general"(%arg0, %arg1) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>} : (tensor<2x3x4xf32>, tensor<3x4x5xf32>) -> tensor<2x3x5xf32>
  func.return %0 : tensor<2x3x5xf32>
}

// -----

func.func @main(%arg0: tensor<2x16xf32>, %arg1: tensor<8x4xf32>) -> tensor<2x4xf32> {
  // expected-error@+1 {{stablehlo.dot_general: contracting dimension sizes differ (16 vs 8)}}
  %0 = "stablehlo.dot_general"(%arg0, %arg1) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<2x16xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

func.func @main(%arg0: tensor<2x8xf32>, %arg1: tensor<8x4xf32>) -> tensor<2x5xf32> {
  // expected-error@+1 {{stablehlo.dot_general: result shape [2x5] does not match the expected shape [2x4]}}
  %0 = "stablehlo.dot_general"(%arg0, %arg1) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x5xf32>
  func.return %0 : tensor<2x5xf32>
}

// -----

func.func @main(%arg0: tensor<2x8xf32>, %arg1: tensor<8x4xi32>) -> tensor<2x4xf32> {
  // expected-error@+1 {{stablehlo.dot_general: lhs element type f32 and rhs element type i32 are of different kinds}}
  %0 = "stablehlo.dot_general"(%arg0, %arg1) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<2x8xf32>, tensor<8x4xi32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

func.func @main(%arg0: tensor<2x8xf32>, %arg1: tensor<8x4xf32>) -> tensor<2x4xf32> {
  // expected-error@+1 {{stablehlo.dot_general: algorithm component counts (0, 1) and num_primitive_operations (1) must be positive}}
  %0 = "stablehlo.dot_general"(%arg0, %arg1) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, algorithm = #stablehlo.dot_algorithm<lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32, lhs_component_count = 0, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false>} : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

func.func @main(%arg0: tensor<2x3x4xf32>, %arg1: tensor<4xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{stablehlo.dot: operands must have rank 1 or 2, got ranks 3 and 1}}
  %0 = "stablehlo.dot"(%arg0, %arg1) : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<4x5xf32>) -> tensor<2x5xf32> {
  // expected-error@+1 {{stablehlo.dot: contracting dimension sizes differ (3 vs 4)}}
  %0 = "stablehlo.dot"(%arg0, %arg1) : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  func.return %0 : tensor<2x5xf32>
}

// -----

func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<3x4xf32>) -> tensor<2x4xf32> {
  // expected-error@+1 {{stablehlo.einsum: einsum_config "ab,bc" has no "->"}}
  %0 = "stablehlo.einsum"(%arg0, %arg1) {einsum_config = "ab,bc"} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<5x4xf32>) -> tensor<2x4xf32> {
  // expected-error@+1 {{stablehlo.einsum: label 'b' has sizes 3 and 5}}
  %0 = "stablehlo.einsum"(%arg0, %arg1) {einsum_config = "ab,bc->ac"} : (tensor<2x3xf32>, tensor<5x4xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

func.func @main(%arg0: tensor<1x4x4x1xf32>, %arg1: tensor<3x3x1xf32>) -> tensor<1x2x2x1xf32> {
  // expected-error@+1 {{stablehlo.convolution: lhs and rhs must have the same rank >= 2, got 4 and 3}}
  %0 = "stablehlo.convolution"(%arg0, %arg1) {window_strides = array<i64: 4, 4>, padding = dense<0> : tensor<2x2xi64>, lhs_dilation = array<i64: 2, 2>, rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1xf32>) -> tensor<1x2x2x1xf32>
  func.return %0 : tensor<1x2x2x1xf32>
}

// -----

func.func @main(%arg0: tensor<1x4x4x1xf32>, %arg1: tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32> {
  // expected-error@+1 {{stablehlo.convolution: window_strides has 1 entries, expected 2 (the number of spatial dimensions)}}
  %0 = "stablehlo.convolution"(%arg0, %arg1) {window_strides = array<i64: 4>, padding = dense<0> : tensor<2x2xi64>, lhs_dilation = array<i64: 2, 2>, rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  func.return %0 : tensor<1x2x2x1xf32>
}

// -----

func.func @main(%arg0: tensor<1x4x4x1xf32>, %arg1: tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32> {
  // expected-error@+1 {{stablehlo.convolution: window_strides[1] = 0 must be positive}}
  %0 = "stablehlo.convolution"(%arg0, %arg1) {window_strides = array<i64: 4, 0>, padding = dense<0> : tensor<2x2xi64>, lhs_dilation = array<i64: 2, 2>, rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  func.return %0 : tensor<1x2x2x1xf32>
}

// -----

func.func @main(%arg0: tensor<1x4x4x1xf32>, %arg1: tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32> {
  // expected-error@+1 {{stablehlo.convolution: padding has 3 rows, expected 2}}
  %0 = "stablehlo.convolution"(%arg0, %arg1) {window_strides = array<i64: 4, 4>, padding = dense<0> : tensor<3x2xi64>, lhs_dilation = array<i64: 2, 2>, rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  func.return %0 : tensor<1x2x2x1xf32>
}

// -----

func.func @main(%arg0: tensor<1x4x4x1xf32>, %arg1: tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32> {
  // expected-error@+1 {{stablehlo.convolution: `padding` must have shape [N, 2], got [2, 3]}}
  %0 = "stablehlo.convolution"(%arg0, %arg1) {window_strides = array<i64: 4, 4>, padding = dense<0> : tensor<2x3xi64>, lhs_dilation = array<i64: 2, 2>, rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  func.return %0 : tensor<1x2x2x1xf32>
}

// -----

func.func @main(%arg0: tensor<1x4x4x1xf32>, %arg1: tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32> {
  // expected-error@+1 {{stablehlo.convolution: lhs_dilation has 3 entries, expected 2 (the number of spatial dimensions)}}
  %0 = "stablehlo.convolution"(%arg0, %arg1) {window_strides = array<i64: 4, 4>, padding = dense<0> : tensor<2x2xi64>, lhs_dilation = array<i64: 2, 2, 2>, rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  func.return %0 : tensor<1x2x2x1xf32>
}

// -----

func.func @main(%arg0: tensor<1x4x4x1xf32>, %arg1: tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32> {
  // expected-error@+1 {{stablehlo.convolution: lhs_dilation[0] = -1 must be positive}}
  %0 = "stablehlo.convolution"(%arg0, %arg1) {window_strides = array<i64: 4, 4>, padding = dense<0> : tensor<2x2xi64>, lhs_dilation = array<i64: -1, 2>, rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  func.return %0 : tensor<1x2x2x1xf32>
}

// -----

func.func @main(%arg0: tensor<1x4x4x1xf32>, %arg1: tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32> {
  // expected-error@+1 {{stablehlo.convolution: rhs_dilation has 1 entries, expected 2 (the number of spatial dimensions)}}
  %0 = "stablehlo.convolution"(%arg0, %arg1) {window_strides = array<i64: 4, 4>, padding = dense<0> : tensor<2x2xi64>, lhs_dilation = array<i64: 2, 2>, rhs_dilation = array<i64: 1>, window_reversal = array<i1: false, false>, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  func.return %0 : tensor<1x2x2x1xf32>
}

// -----

func.func @main(%arg0: tensor<1x4x4x1xf32>, %arg1: tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32> {
  // expected-error@+1 {{stablehlo.convolution: rhs_dilation[1] = 0 must be positive}}
  %0 = "stablehlo.convolution"(%arg0, %arg1) {window_strides = array<i64: 4, 4>, padding = dense<0> : tensor<2x2xi64>, lhs_dilation = array<i64: 2, 2>, rhs_dilation = array<i64: 1, 0>, window_reversal = array<i1: false, false>, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  func.return %0 : tensor<1x2x2x1xf32>
}

// -----

func.func @main(%arg0: tensor<1x4x4x1xf32>, %arg1: tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32> {
  // expected-error@+1 {{stablehlo.convolution: window_reversal has 1 entries, expected 2}}
  %0 = "stablehlo.convolution"(%arg0, %arg1) {window_strides = array<i64: 4, 4>, padding = dense<0> : tensor<2x2xi64>, lhs_dilation = array<i64: 2, 2>, rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false>, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  func.return %0 : tensor<1x2x2x1xf32>
}

// -----

func.func @main(%arg0: tensor<3x4x4x1xf32>, %arg1: tensor<3x3x1x2xf32>) -> tensor<1x2x2x1xf32> {
  // expected-error@+1 {{stablehlo.convolution: input batch dimension size (3) is not divisible by batch_group_count (2)}}
  %0 = "stablehlo.convolution"(%arg0, %arg1) {window_strides = array<i64: 4, 4>, padding = dense<0> : tensor<2x2xi64>, lhs_dilation = array<i64: 2, 2>, rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, batch_group_count = 2 : i64} : (tensor<3x4x4x1xf32>, tensor<3x3x1x2xf32>) -> tensor<1x2x2x1xf32>
  func.return %0 : tensor<1x2x2x1xf32>
}

// -----

func.func @main(%arg0: tensor<1x4x4x3xf32>, %arg1: tensor<3x3x1x2xf32>) -> tensor<1x2x2x1xf32> {
  // expected-error@+1 {{stablehlo.convolution: input feature dimension size (3) is not divisible by feature_group_count (2)}}
  %0 = "stablehlo.convolution"(%arg0, %arg1) {window_strides = array<i64: 4, 4>, padding = dense<0> : tensor<2x2xi64>, lhs_dilation = array<i64: 2, 2>, rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 2 : i64, batch_group_count = 1 : i64} : (tensor<1x4x4x3xf32>, tensor<3x3x1x2xf32>) -> tensor<1x2x2x1xf32>
  func.return %0 : tensor<1x2x2x1xf32>
}

// -----

func.func @main(%arg0: tensor<1x4x4x2xf32>, %arg1: tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32> {
  // expected-error@+1 {{stablehlo.convolution: kernel input feature dimension size (1) must equal input feature size / feature_group_count (2 / 1)}}
  %0 = "stablehlo.convolution"(%arg0, %arg1) {window_strides = array<i64: 4, 4>, padding = dense<0> : tensor<2x2xi64>, lhs_dilation = array<i64: 2, 2>, rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x4x4x2xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  func.return %0 : tensor<1x2x2x1xf32>
}

// -----

func.func @main(%arg0: tensor<2x4x4x1xf32>, %arg1: tensor<3x3x1x3xf32>) -> tensor<1x2x2x3xf32> {
  // expected-error@+1 {{stablehlo.convolution: kernel output feature dimension size (3) is not divisible by batch_group_count (2)}}
  %0 = "stablehlo.convolution"(%arg0, %arg1) {window_strides = array<i64: 4, 4>, padding = dense<0> : tensor<2x2xi64>, lhs_dilation = array<i64: 2, 2>, rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, batch_group_count = 2 : i64} : (tensor<2x4x4x1xf32>, tensor<3x3x1x3xf32>) -> tensor<1x2x2x3xf32>
  func.return %0 : tensor<1x2x2x3xf32>
}

// -----

func.func @main(%arg0: tensor<1x4x4x2xf32>, %arg1: tensor<3x3x1x3xf32>) -> tensor<1x2x2x3xf32> {
  // expected-error@+1 {{stablehlo.convolution: kernel output feature dimension size (3) is not divisible by feature_group_count (2)}}
  %0 = "stablehlo.convolution"(%arg0, %arg1) {window_strides = array<i64: 4, 4>, padding = dense<0> : tensor<2x2xi64>, lhs_dilation = array<i64: 2, 2>, rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 2 : i64, batch_group_count = 1 : i64} : (tensor<1x4x4x2xf32>, tensor<3x3x1x3xf32>) -> tensor<1x2x2x3xf32>
  func.return %0 : tensor<1x2x2x3xf32>
}

// -----

func.func @main(%arg0: tensor<1x4x4x1xf32>, %arg1: tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32> {
  // expected-error@+1 {{stablehlo.convolution: feature_group_count 0 must be positive}}
  %0 = "stablehlo.convolution"(%arg0, %arg1) {window_strides = array<i64: 4, 4>, padding = dense<0> : tensor<2x2xi64>, lhs_dilation = array<i64: 2, 2>, rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 0 : i64, batch_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  func.return %0 : tensor<1x2x2x1xf32>
}

// -----

func.func @main(%arg0: tensor<1x4x4x1xf32>, %arg1: tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32> {
  // expected-error@+1 {{stablehlo.convolution: batch_group_count -1 must be positive}}
  %0 = "stablehlo.convolution"(%arg0, %arg1) {window_strides = array<i64: 4, 4>, padding = dense<0> : tensor<2x2xi64>, lhs_dilation = array<i64: 2, 2>, rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, batch_group_count = -1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  func.return %0 : tensor<1x2x2x1xf32>
}

// -----

func.func @main(%arg0: tensor<2x4x4x2xf32>, %arg1: tensor<3x3x1x2xf32>) -> tensor<1x2x2x1xf32> {
  // expected-error@+1 {{stablehlo.convolution: feature_group_count (2) and batch_group_count (2) cannot both exceed 1}}
  %0 = "stablehlo.convolution"(%arg0, %arg1) {window_strides = array<i64: 4, 4>, padding = dense<0> : tensor<2x2xi64>, lhs_dilation = array<i64: 2, 2>, rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 2 : i64, batch_group_count = 2 : i64} : (tensor<2x4x4x2xf32>, tensor<3x3x1x2xf32>) -> tensor<1x2x2x1xf32>
  func.return %0 : tensor<1x2x2x1xf32>
}

// -----

func.func @main(%arg0: tensor<1x4x4x1xf32>, %arg1: tensor<3x3x1x1xf32>) -> tensor<1x3x2x1xf32> {
  // expected-error@+1 {{stablehlo.convolution: result shape [1x3x2x1] does not match the expected shape [1x2x2x1]}}
  %0 = "stablehlo.convolution"(%arg0, %arg1) {window_strides = array<i64: 4, 4>, padding = dense<0> : tensor<2x2xi64>, lhs_dilation = array<i64: 2, 2>, rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x3x2x1xf32>
  func.return %0 : tensor<1x3x2x1xf32>
}

// -----

func.func @main(%arg0: tensor<1x4x4x1xf32>, %arg1: tensor<3x3x1x1xcomplex<f32>>) -> tensor<1x2x2x1xf32> {
  // expected-error@+1 {{stablehlo.convolution: lhs element type f32 and rhs element type complex<f32> are of different kinds}}
  %0 = "stablehlo.convolution"(%arg0, %arg1) {window_strides = array<i64: 4, 4>, padding = dense<0> : tensor<2x2xi64>, lhs_dilation = array<i64: 2, 2>, rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xcomplex<f32>>) -> tensor<1x2x2x1xf32>
  func.return %0 : tensor<1x2x2x1xf32>
}

// -----

func.func @main(%arg0: tensor<1x4x4x1xf32>, %arg1: tensor<3x3x1x1xf32>, %arg2: tensor<3x2xi64>) -> tensor<1x?x?x1xf32> {
  // expected-error@+1 {{stablehlo.dynamic_conv: padding must be an integer tensor of shape [2, 2], got tensor<3x2xi64>}}
  %0 = "stablehlo.dynamic_conv"(%arg0, %arg1, %arg2) {window_strides = array<i64: 4, 4>, lhs_dilation = array<i64: 2, 2>, rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>, tensor<3x2xi64>) -> tensor<1x?x?x1xf32>
  func.return %0 : tensor<1x?x?x1xf32>
}

// -----

func.func @main(%arg0: tensor<3x3xf32>) -> tensor<3x3xf64> {
  // expected-error@+1 {{stablehlo.cholesky: operand type tensor<3x3xf32> and result type tensor<3x3xf64> differ}}
  %0 = "stablehlo.cholesky"(%arg0) {lower = true} : (tensor<3x3xf32>) -> tensor<3x3xf64>
  func.return %0 : tensor<3x3xf64>
}

// -----

func.func @main(%arg0: tensor<3x4xf32>) -> tensor<3x4xf32> {
  // expected-error@+1 {{stablehlo.cholesky: operand must have rank >= 2 and square matrices, got tensor<3x4xf32>}}
  %0 = "stablehlo.cholesky"(%arg0) {lower = true} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  func.return %0 : tensor<3x4xf32>
}

// -----

func.func @main(%arg0: tensor<3x3xf32>, %arg1: tensor<3x3xf64>) -> tensor<3x3xf64> {
  // expected-error@+1 {{stablehlo.triangular_solve: a element type f32 and b element type f64 differ}}
  %0 = "stablehlo.triangular_solve"(%arg0, %arg1) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<3x3xf32>, tensor<3x3xf64>) -> tensor<3x3xf64>
  func.return %0 : tensor<3x3xf64>
}

// -----

func.func @main(%arg0: tensor<3x3xf32>, %arg1: tensor<2x3x3xf32>) -> tensor<2x3x3xf32> {
  // expected-error@+1 {{stablehlo.triangular_solve: a and b must have the same rank >= 2, got 2 and 3}}
  %0 = "stablehlo.triangular_solve"(%arg0, %arg1) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<3x3xf32>, tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
  func.return %0 : tensor<2x3x3xf32>
}

// -----

func.func @main(%arg0: tensor<3x3xf32>, %arg1: tensor<4x3xf32>) -> tensor<4x3xf32> {
  // expected-error@+1 {{stablehlo.triangular_solve: a tensor<3x3xf32> must be square with batch dimensions and size matching b tensor<4x3xf32> (left_side = true)}}
  %0 = "stablehlo.triangular_solve"(%arg0, %arg1) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<3x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  func.return %0 : tensor<4x3xf32>
}

// -----

func.func @main(%arg0: tensor<3x3xf32>, %arg1: tensor<3x3xf32>) -> tensor<3x4xf32> {
  // expected-error@+1 {{stablehlo.triangular_solve: b type tensor<3x3xf32> and result type tensor<3x4xf32> differ}}
  %0 = "stablehlo.triangular_solve"(%arg0, %arg1) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x4xf32>
  func.return %0 : tensor<3x4xf32>
}

// -----

func.func @main(%arg0: tensor<3x3xf32>, %arg1: tensor<3x3xf32>) -> tensor<3x3xf32> {
  // expected-error@+1 {{stablehlo.triangular_solve: transpose_a must be NO_TRANSPOSE, TRANSPOSE or ADJOINT, got TRANSPOSE_INVALID}}
  %0 = "stablehlo.triangular_solve"(%arg0, %arg1) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose TRANSPOSE_INVALID>} : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
  func.return %0 : tensor<3x3xf32>
}

// -----

func.func @main(%arg0: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // expected-error@+1 {{stablehlo.fft: operand rank 1 is smaller than size(fft_length) = 2}}
  %0 = "stablehlo.fft"(%arg0) {fft_type = #stablehlo<fft_type FFT>, fft_length = array<i64: 4, 4>} : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  func.return %0 : tensor<4xcomplex<f32>>
}

// -----

func.func @main(%arg0: tensor<4xf32>) -> tensor<4xcomplex<f32>> {
  // expected-error@+1 {{stablehlo.fft: FFT cannot map element type f32 to complex<f32>}}
  %0 = "stablehlo.fft"(%arg0) {fft_type = #stablehlo<fft_type FFT>, fft_length = array<i64: 4>} : (tensor<4xf32>) -> tensor<4xcomplex<f32>>
  func.return %0 : tensor<4xcomplex<f32>>
}

// -----

func.func @main(%arg0: tensor<2x2x2x2xcomplex<f32>>) -> tensor<2x2x2x2xcomplex<f32>> {
  // expected-error@+1 {{stablehlo.fft: fft_length must have 1 to 3 entries, got 4}}
  %0 = "stablehlo.fft"(%arg0) {fft_type = #stablehlo<fft_type FFT>, fft_length = array<i64: 2, 2, 2, 2>} : (tensor<2x2x2x2xcomplex<f32>>) -> tensor<2x2x2x2xcomplex<f32>>
  func.return %0 : tensor<2x2x2x2xcomplex<f32>>
}

// -----

func.func @main(%arg0: tensor<8xf32>) -> tensor<5xcomplex<f32>> {
  // expected-error@+1 {{stablehlo.fft: trailing dimensions of the real tensor tensor<8xf32> must equal fft_length [4]}}
  %0 = "stablehlo.fft"(%arg0) {fft_type = #stablehlo<fft_type RFFT>, fft_length = array<i64: 4>} : (tensor<8xf32>) -> tensor<5xcomplex<f32>>
  func.return %0 : tensor<5xcomplex<f32>>
}

// -----

func.func @main(%arg0: tensor<8xf32>) -> tensor<8xcomplex<f32>> {
  // expected-error@+1 {{stablehlo.fft: result shape [8] does not match the expected shape [5]}}
  %0 = "stablehlo.fft"(%arg0) {fft_type = #stablehlo<fft_type RFFT>, fft_length = array<i64: 8>} : (tensor<8xf32>) -> tensor<8xcomplex<f32>>
  func.return %0 : tensor<8xcomplex<f32>>
}

// -----

func.func @main(%arg0: tensor<2x2x2xf32>, %arg1: tensor<2xf32>, %arg2: tensor<2xf32>, %arg3: tensor<2xf32>, %arg4: tensor<2xf32>) -> tensor<2x2x2xf32> {
  // expected-error@+1 {{stablehlo.batch_norm_inference: feature_index 3 is out of range [0, 3)}}
  %0 = "stablehlo.batch_norm_inference"(%arg0, %arg1, %arg2, %arg3, %arg4) {epsilon = 0.0 : f32, feature_index = 3 : i64} : (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2x2x2xf32>
  func.return %0 : tensor<2x2x2xf32>
}

// -----

func.func @main(%arg0: tensor<2x2x2xf32>, %arg1: tensor<2xf64>, %arg2: tensor<2xf32>) -> tensor<2x2x2xf32> {
  // expected-error@+1 {{stablehlo.batch_norm_training: operand #1 element type f64 differs from the operand's f32}}
  %0:3 = "stablehlo.batch_norm_training"(%arg0, %arg1, %arg2) {epsilon = 0.0 : f32, feature_index = 2 : i64} : (tensor<2x2x2xf32>, tensor<2xf64>, tensor<2xf32>) -> (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>)
  func.return %0#0 : tensor<2x2x2xf32>
}

// -----

func.func @main(%arg0: tensor<2x2x2xf32>, %arg1: tensor<2xf32>, %arg2: tensor<2x2x3xf32>) -> tensor<2x2x2xf32> {
  // expected-error@+1 {{stablehlo.batch_norm_grad: operand #4 shape [2x2x3] differs from the operand's [2x2x2]}}
  %0:3 = "stablehlo.batch_norm_grad"(%arg0, %arg1, %arg1, %arg1, %arg2) {epsilon = 0.0 : f32, feature_index = 2 : i64} : (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2x2x3xf32>) -> (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>)
  func.return %0#0 : tensor<2x2x2xf32>
}

// -----

func.func @main(%arg0: tensor<2x2x2xf32>, %arg1: tensor<3xf32>, %arg2: tensor<2xf32>) -> tensor<2x2x2xf32> {
  // expected-error@+1 {{stablehlo.batch_norm_training: operand #1 must have shape [2] (the feature dimension), got [3]}}
  %0:3 = "stablehlo.batch_norm_training"(%arg0, %arg1, %arg2) {epsilon = 0.0 : f32, feature_index = 2 : i64} : (tensor<2x2x2xf32>, tensor<3xf32>, tensor<2xf32>) -> (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>)
  func.return %0#0 : tensor<2x2x2xf32>
}

// -----

func.func @main(%arg0: tensor<1x4x4x1xf32>, %arg1: tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32> {
  // expected-error@+1 {{stablehlo.convolution: input_spatial_dimensions has 1 entries, expected 2}}
  %0 = "stablehlo.convolution"(%arg0, %arg1) {window_strides = array<i64: 4, 4>, lhs_dilation = array<i64: 2, 2>, dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  func.return %0 : tensor<1x2x2x1xf32>
}

// -----

func.func @main(%arg0: tensor<1x4x4x1xf32>, %arg1: tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32> {
  // expected-error@+1 {{stablehlo.convolution: input dimensions [1, 1, 2, 3] are not unique}}
  %0 = "stablehlo.convolution"(%arg0, %arg1) {window_strides = array<i64: 4, 4>, lhs_dilation = array<i64: 2, 2>, dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 1, input_feature_dimension = 3, input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  func.return %0 : tensor<1x2x2x1xf32>
}

// -----

func.func @main(%arg0: tensor<1x4x4x1xf32>, %arg1: tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32> {
  // expected-error@+1 {{stablehlo.convolution: input dimension 4 is out of range [0, 4)}}
  %0 = "stablehlo.convolution"(%arg0, %arg1) {window_strides = array<i64: 4, 4>, lhs_dilation = array<i64: 2, 2>, dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 4, input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  func.return %0 : tensor<1x2x2x1xf32>
}

// -----

func.func @main(%arg0: tensor<1x4x4x1xf32>, %arg1: tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32> {
  // expected-error@+1 {{stablehlo.convolution: kernel_spatial_dimensions has 3 entries, expected 2}}
  %0 = "stablehlo.convolution"(%arg0, %arg1) {window_strides = array<i64: 4, 4>, lhs_dilation = array<i64: 2, 2>, dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1, 2], output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  func.return %0 : tensor<1x2x2x1xf32>
}

// -----

func.func @main(%arg0: tensor<1x4x4x1xf32>, %arg1: tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32> {
  // expected-error@+1 {{stablehlo.convolution: kernel dimension 5 is out of range [0, 4)}}
  %0 = "stablehlo.convolution"(%arg0, %arg1) {window_strides = array<i64: 4, 4>, lhs_dilation = array<i64: 2, 2>, dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 5, kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  func.return %0 : tensor<1x2x2x1xf32>
}

// -----

func.func @main(%arg0: tensor<1x4x4x1xf32>, %arg1: tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32> {
  // expected-error@+1 {{stablehlo.convolution: output_spatial_dimensions has 1 entries, expected 2}}
  %0 = "stablehlo.convolution"(%arg0, %arg1) {window_strides = array<i64: 4, 4>, lhs_dilation = array<i64: 2, 2>, dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  func.return %0 : tensor<1x2x2x1xf32>
}

// -----

func.func @main(%arg0: tensor<1x4x4x1xf32>, %arg1: tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32> {
  // expected-error@+1 {{stablehlo.convolution: output dimensions [0, 1, 2, 0] are not unique}}
  %0 = "stablehlo.convolution"(%arg0, %arg1) {window_strides = array<i64: 4, 4>, lhs_dilation = array<i64: 2, 2>, dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0, output_feature_dimension = 0, output_spatial_dimensions = [1, 2]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  func.return %0 : tensor<1x2x2x1xf32>
}
