// Negative cases for chlo ops: implicit broadcasting, top_k, constant_like.

func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<4xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{chlo.broadcast_add: shapes [2x3] and [4] are not broadcast-compatible}}
  %0 = "chlo.broadcast_add"(%arg0, %arg1) : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<3xf32>) -> tensor<2x4xf32> {
  // expected-error@+1 {{chlo.broadcast_add: result shape [2x4] is not the broadcast shape [2x3]}}
  %0 = "chlo.broadcast_add"(%arg0, %arg1) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{chlo.broadcast_compare: operand element types f32 and f32 and result element type f32 do not fit}}
  %0 = "chlo.broadcast_compare"(%arg0, %arg1) {comparison_direction = #chlo<comparison_direction LT>} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @main(%arg0: tensor<4x5xf32>) -> (tensor<4x6xf32>, tensor<4x6xi32>) {
  // expected-error@+1 {{chlo.top_k: k = 6 must be in [0, 5]}}
  %0:2 = "chlo.top_k"(%arg0) {k = 6 : i64} : (tensor<4x5xf32>) -> (tensor<4x6xf32>, tensor<4x6xi32>)
  func.return %0#0, %0#1 : tensor<4x6xf32>, tensor<4x6xi32>
}

// -----

func.func @main(%arg0: tensor<4x5xf32>) -> (tensor<4x2xf32>, tensor<4x2xi64>) {
  // expected-error@+1 {{chlo.top_k: results must be tensor<4x2xf32> and tensor<4x2xi32>, got tensor<4x2xf32> and tensor<4x2xi64>}}
  %0:2 = "chlo.top_k"(%arg0) {k = 2 : i64} : (tensor<4x5xf32>) -> (tensor<4x2xf32>, tensor<4x2xi64>)
  func.return %0#0, %0#1 : tensor<4x2xf32>, tensor<4x2xi64>
}

// -----

func.func @main(%arg0: tensor<4x5xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{chlo.constant_like: result shape [4] differs from the operand shape [4x5]}}
  %0 = "chlo.constant_like"(%arg0) {value = 1.0 : f32} : (tensor<4x5xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
