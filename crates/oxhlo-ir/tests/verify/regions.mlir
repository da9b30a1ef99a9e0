// Negative cases for ops with regions: reduce, reduce_window (every window rule), select_and_scatter,
// sort, map, while, if and case: operand/result relations and region signatures.

func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<f64>) -> tensor<2xf32> {
  // expected-error@+1 {{stablehlo.reduce: input #0, init value #0 and result #0 element types f32, f64 and f32 differ}}
  %0 = "stablehlo.reduce"(%arg0, %arg1) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<f64>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<1xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{stablehlo.reduce: init value #0 must be a 0-dimensional tensor, got tensor<1xf32>}}
  %0 = "stablehlo.reduce"(%arg0, %arg1) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) -> tensor<2xf32> {
  // expected-error@+1 {{stablehlo.reduce: body must have type (tensor<f32>, tensor<f32>) -> (tensor<f32>), got (tensor<f64>, tensor<f64>) -> (tensor<f64>)}}
  %0 = "stablehlo.reduce"(%arg0, %arg1) ({
  ^bb0(%a: tensor<f64>, %b: tensor<f64>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f64>, tensor<f64>) -> tensor<f64>
    "stablehlo.return"(%s) : (tensor<f64>) -> ()
  }) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) -> tensor<3xf32> {
  // expected-error@+1 {{stablehlo.reduce: result #0 shape [3] does not match the expected shape [2]}}
  %0 = "stablehlo.reduce"(%arg0, %arg1) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) -> tensor<2xf32> {
  // expected-error@+1 {{stablehlo.reduce: reduction dimension 2 is out of range [0, 2)}}
  %0 = "stablehlo.reduce"(%arg0, %arg1) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 2>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) -> tensor<2xf32> {
  // expected-error@+1 {{stablehlo.reduce: dimensions [1, 1] are not unique}}
  %0 = "stablehlo.reduce"(%arg0, %arg1) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 1, 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>, %arg2: tensor<2x3xi32>) -> tensor<2xf32> {
  // expected-error@+1 {{stablehlo.reduce: expects 2N operands (inputs, init values) and N results, got 3 operands and 1 results}}
  %0 = "stablehlo.reduce"(%arg0, %arg1, %arg2) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    "stablehlo.return"(%a) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<f32>, tensor<2x3xi32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<2x4xi32>, %arg2: tensor<f32>, %arg3: tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>) {
  // expected-error@+1 {{stablehlo.reduce: input #1 shape [2x4] differs from input #0's [2x3]}}
  %0:2 = "stablehlo.reduce"(%arg0, %arg1, %arg2, %arg3) ({
  ^bb0(%a: tensor<f32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<i32>):
    "stablehlo.return"(%a, %b) : (tensor<f32>, tensor<i32>) -> ()
  }) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<2x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>)
  func.return %0#0, %0#1 : tensor<2xf32>, tensor<2xi32>
}

// -----

func.func @main(%arg0: tensor<3x2xf32>, %arg1: tensor<f32>) -> tensor<2x2xf32> {
  // expected-error@+1 {{stablehlo.reduce_window: window_dimensions has 1 entries, expected 2}}
  %0 = "stablehlo.reduce_window"(%arg0, %arg1) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 4, 1>, base_dilations = array<i64: 2, 1>, window_dilations = array<i64: 3, 1>, padding = dense<[[2, 1], [0, 0]]> : tensor<2x2xi64>} : (tensor<3x2xf32>, tensor<f32>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}

// -----

func.func @main(%arg0: tensor<3x2xf32>, %arg1: tensor<f32>) -> tensor<2x2xf32> {
  // expected-error@+1 {{stablehlo.reduce_window: window_dimensions[1] = 0 must be positive}}
  %0 = "stablehlo.reduce_window"(%arg0, %arg1) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {window_dimensions = array<i64: 2, 0>, window_strides = array<i64: 4, 1>, base_dilations = array<i64: 2, 1>, window_dilations = array<i64: 3, 1>, padding = dense<[[2, 1], [0, 0]]> : tensor<2x2xi64>} : (tensor<3x2xf32>, tensor<f32>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}

// -----

func.func @main(%arg0: tensor<3x2xf32>, %arg1: tensor<f32>) -> tensor<2x2xf32> {
  // expected-error@+1 {{stablehlo.reduce_window: window_strides has 3 entries, expected 2}}
  %0 = "stablehlo.reduce_window"(%arg0, %arg1) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 4, 1, 1>, base_dilations = array<i64: 2, 1>, window_dilations = array<i64: 3, 1>, padding = dense<[[2, 1], [0, 0]]> : tensor<2x2xi64>} : (tensor<3x2xf32>, tensor<f32>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}

// -----

func.func @main(%arg0: tensor<3x2xf32>, %arg1: tensor<f32>) -> tensor<2x2xf32> {
  // expected-error@+1 {{stablehlo.reduce_window: window_strides[0] = -4 must be positive}}
  %0 = "stablehlo.reduce_window"(%arg0, %arg1) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {window_dimensions = array<i64: 2, 1>, window_strides = array<i64: -4, 1>, base_dilations = array<i64: 2, 1>, window_dilations = array<i64: 3, 1>, padding = dense<[[2, 1], [0, 0]]> : tensor<2x2xi64>} : (tensor<3x2xf32>, tensor<f32>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}

// -----

func.func @main(%arg0: tensor<3x2xf32>, %arg1: tensor<f32>) -> tensor<2x2xf32> {
  // expected-error@+1 {{stablehlo.reduce_window: base_dilations has 1 entries, expected 2}}
  %0 = "stablehlo.reduce_window"(%arg0, %arg1) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 4, 1>, base_dilations = array<i64: 2>, window_dilations = array<i64: 3, 1>, padding = dense<[[2, 1], [0, 0]]> : tensor<2x2xi64>} : (tensor<3x2xf32>, tensor<f32>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}

// -----

func.func @main(%arg0: tensor<3x2xf32>, %arg1: tensor<f32>) -> tensor<2x2xf32> {
  // expected-error@+1 {{stablehlo.reduce_window: base_dilations[1] = 0 must be positive}}
  %0 = "stablehlo.reduce_window"(%arg0, %arg1) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 4, 1>, base_dilations = array<i64: 2, 0>, window_dilations = array<i64: 3, 1>, padding = dense<[[2, 1], [0, 0]]> : tensor<2x2xi64>} : (tensor<3x2xf32>, tensor<f32>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}

// -----

func.func @main(%arg0: tensor<3x2xf32>, %arg1: tensor<f32>) -> tensor<2x2xf32> {
  // expected-error@+1 {{stablehlo.reduce_window: window_dilations has 1 entries, expected 2}}
  %0 = "stablehlo.reduce_window"(%arg0, %arg1) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 4, 1>, base_dilations = array<i64: 2, 1>, window_dilations = array<i64: 3>, padding = dense<[[2, 1], [0, 0]]> : tensor<2x2xi64>} : (tensor<3x2xf32>, tensor<f32>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}

// -----

func.func @main(%arg0: tensor<3x2xf32>, %arg1: tensor<f32>) -> tensor<2x2xf32> {
  // expected-error@+1 {{stablehlo.reduce_window: window_dilations[0] = 0 must be positive}}
  %0 = "stablehlo.reduce_window"(%arg0, %arg1) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 4, 1>, base_dilations = array<i64: 2, 1>, window_dilations = array<i64: 0, 1>, padding = dense<[[2, 1], [0, 0]]> : tensor<2x2xi64>} : (tensor<3x2xf32>, tensor<f32>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}

// -----

func.func @main(%arg0: tensor<3x2xf32>, %arg1: tensor<f32>) -> tensor<2x2xf32> {
  // expected-error@+1 {{stablehlo.reduce_window: padding has 1 rows, expected 2}}
  %0 = "stablehlo.reduce_window"(%arg0, %arg1) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 4, 1>, base_dilations = array<i64: 2, 1>, window_dilations = array<i64: 3, 1>, padding = dense<[[2, 1]]> : tensor<1x2xi64>} : (tensor<3x2xf32>, tensor<f32>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}

// -----

func.func @main(%arg0: tensor<3x2xf32>, %arg1: tensor<f32>) -> tensor<3x2xf32> {
  // expected-error@+1 {{stablehlo.reduce_window: result #0 shape [3x2] does not match the expected shape [2x2]}}
  %0 = "stablehlo.reduce_window"(%arg0, %arg1) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 4, 1>, base_dilations = array<i64: 2, 1>, window_dilations = array<i64: 3, 1>, padding = dense<[[2, 1], [0, 0]]> : tensor<2x2xi64>} : (tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
  func.return %0 : tensor<3x2xf32>
}

// -----

func.func @main(%arg0: tensor<3x2xf32>, %arg1: tensor<f32>) -> tensor<2x2xf32> {
  // expected-error@+1 {{stablehlo.reduce_window: body must have type (tensor<f32>, tensor<f32>) -> (tensor<f32>), got (tensor<i32>, tensor<i32>) -> (tensor<i32>)}}
  %0 = "stablehlo.reduce_window"(%arg0, %arg1) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%s) : (tensor<i32>) -> ()
  }) {window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 4, 1>, base_dilations = array<i64: 2, 1>, window_dilations = array<i64: 3, 1>, padding = dense<[[2, 1], [0, 0]]> : tensor<2x2xi64>} : (tensor<3x2xf32>, tensor<f32>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}

// -----

func.func @main(%arg0: tensor<4x2xi32>, %arg1: tensor<3x2xi32>, %arg2: tensor<i32>) -> tensor<4x2xi32> {
  // expected-error@+1 {{stablehlo.select_and_scatter: source shape [3x2] must be the windowed operand shape [2x2]}}
  %0 = "stablehlo.select_and_scatter"(%arg0, %arg1, %arg2) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %c = "stablehlo.compare"(%a, %b) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "stablehlo.return"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%s) : (tensor<i32>) -> ()
  }) {window_dimensions = array<i64: 3, 1>, window_strides = array<i64: 2, 1>, padding = dense<[[0, 1], [0, 0]]> : tensor<2x2xi64>} : (tensor<4x2xi32>, tensor<3x2xi32>, tensor<i32>) -> tensor<4x2xi32>
  func.return %0 : tensor<4x2xi32>
}

// -----

func.func @main(%arg0: tensor<4x2xi32>, %arg1: tensor<2x2xf32>, %arg2: tensor<i32>) -> tensor<4x2xi32> {
  // expected-error@+1 {{stablehlo.select_and_scatter: source element type f32 differs from the operand's i32}}
  %0 = "stablehlo.select_and_scatter"(%arg0, %arg1, %arg2) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %c = "stablehlo.compare"(%a, %b) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "stablehlo.return"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%s) : (tensor<i32>) -> ()
  }) {window_dimensions = array<i64: 3, 1>, window_strides = array<i64: 2, 1>, padding = dense<[[0, 1], [0, 0]]> : tensor<2x2xi64>} : (tensor<4x2xi32>, tensor<2x2xf32>, tensor<i32>) -> tensor<4x2xi32>
  func.return %0 : tensor<4x2xi32>
}

// -----

func.func @main(%arg0: tensor<4x2xi32>, %arg1: tensor<2x2xi32>, %arg2: tensor<i32>) -> tensor<4x2xi32> {
  // expected-error@+1 {{stablehlo.select_and_scatter: select must have type (tensor<i32>, tensor<i32>) -> (tensor<i1>), got (tensor<f32>, tensor<f32>) -> (tensor<i1>)}}
  %0 = "stablehlo.select_and_scatter"(%arg0, %arg1, %arg2) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = "stablehlo.compare"(%a, %b) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
    "stablehlo.return"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%s) : (tensor<i32>) -> ()
  }) {window_dimensions = array<i64: 3, 1>, window_strides = array<i64: 2, 1>, padding = dense<[[0, 1], [0, 0]]> : tensor<2x2xi64>} : (tensor<4x2xi32>, tensor<2x2xi32>, tensor<i32>) -> tensor<4x2xi32>
  func.return %0 : tensor<4x2xi32>
}

// -----

func.func @main(%arg0: tensor<4x2xi32>, %arg1: tensor<2x2xi32>, %arg2: tensor<i32>) -> tensor<4x2xi32> {
  // expected-error@+1 {{stablehlo.select_and_scatter: scatter must have type (tensor<i32>, tensor<i32>) -> (tensor<i32>), got (tensor<i64>, tensor<i64>) -> (tensor<i64>)}}
  %0 = "stablehlo.select_and_scatter"(%arg0, %arg1, %arg2) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %c = "stablehlo.compare"(%a, %b) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "stablehlo.return"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %s = "stablehlo.add"(%a, %b) : (tensor<i64>, tensor<i64>) -> tensor<i64>
    "stablehlo.return"(%s) : (tensor<i64>) -> ()
  }) {window_dimensions = array<i64: 3, 1>, window_strides = array<i64: 2, 1>, padding = dense<[[0, 1], [0, 0]]> : tensor<2x2xi64>} : (tensor<4x2xi32>, tensor<2x2xi32>, tensor<i32>) -> tensor<4x2xi32>
  func.return %0 : tensor<4x2xi32>
}

// -----

func.func @main(%arg0: tensor<4x2xi32>, %arg1: tensor<2x2xi32>, %arg2: tensor<i32>) -> tensor<4x3xi32> {
  // expected-error@+1 {{stablehlo.select_and_scatter: operand tensor<4x2xi32>, init_value tensor<i32> and result tensor<4x3xi32> must be T, tensor<E> and T}}
  %0 = "stablehlo.select_and_scatter"(%arg0, %arg1, %arg2) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %c = "stablehlo.compare"(%a, %b) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "stablehlo.return"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%s) : (tensor<i32>) -> ()
  }) {window_dimensions = array<i64: 3, 1>, window_strides = array<i64: 2, 1>, padding = dense<[[0, 1], [0, 0]]> : tensor<2x2xi64>} : (tensor<4x2xi32>, tensor<2x2xi32>, tensor<i32>) -> tensor<4x3xi32>
  func.return %0 : tensor<4x3xi32>
}

// -----

func.func @main(%arg0: tensor<2x3xi64>) -> tensor<2x3xi32> {
  // expected-error@+1 {{stablehlo.sort: results (tensor<2x3xi32>) must have the input types (tensor<2x3xi64>)}}
  %0 = "stablehlo.sort"(%arg0) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %c = "stablehlo.compare"(%a, %b) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<i64>, tensor<i64>) -> tensor<i1>
    "stablehlo.return"(%c) : (tensor<i1>) -> ()
  }) {dimension = 0 : i64, is_stable = true} : (tensor<2x3xi64>) -> tensor<2x3xi32>
  func.return %0 : tensor<2x3xi32>
}

// -----

func.func @main(%arg0: tensor<2x3xi64>) -> tensor<2x3xi64> {
  // expected-error@+1 {{stablehlo.sort: dimension 2 is out of range [-2, 2)}}
  %0 = "stablehlo.sort"(%arg0) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %c = "stablehlo.compare"(%a, %b) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<i64>, tensor<i64>) -> tensor<i1>
    "stablehlo.return"(%c) : (tensor<i1>) -> ()
  }) {dimension = 2 : i64, is_stable = true} : (tensor<2x3xi64>) -> tensor<2x3xi64>
  func.return %0 : tensor<2x3xi64>
}

// -----

func.func @main(%arg0: tensor<2x3xi64>) -> tensor<2x3xi64> {
  // expected-error@+1 {{stablehlo.sort: comparator must have type (tensor<i64>, tensor<i64>) -> (tensor<i1>), got (tensor<i32>, tensor<i32>) -> (tensor<i1>)}}
  %0 = "stablehlo.sort"(%arg0) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %c = "stablehlo.compare"(%a, %b) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "stablehlo.return"(%c) : (tensor<i1>) -> ()
  }) {dimension = 0 : i64, is_stable = true} : (tensor<2x3xi64>) -> tensor<2x3xi64>
  func.return %0 : tensor<2x3xi64>
}

// -----

func.func @main(%arg0: tensor<2x3xi64>, %arg1: tensor<2x4xi64>) -> (tensor<2x3xi64>, tensor<2x4xi64>) {
  // expected-error@+1 {{stablehlo.sort: input #1 shape [2x4] differs from input #0's [2x3]}}
  %0:2 = "stablehlo.sort"(%arg0, %arg1) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>, %c: tensor<i64>, %d: tensor<i64>):
    %p = "stablehlo.compare"(%a, %b) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<i64>, tensor<i64>) -> tensor<i1>
    "stablehlo.return"(%p) : (tensor<i1>) -> ()
  }) {dimension = 0 : i64, is_stable = true} : (tensor<2x3xi64>, tensor<2x4xi64>) -> (tensor<2x3xi64>, tensor<2x4xi64>)
  func.return %0#0, %0#1 : tensor<2x3xi64>, tensor<2x4xi64>
}

// -----

func.func @main(%arg0: tensor<2x2xi64>, %arg1: tensor<2x2xi64>) -> tensor<2x3xi64> {
  // expected-error@+1 {{stablehlo.map: input #0 shape [2x2] differs from the result shape [2x3]}}
  %0 = "stablehlo.map"(%arg0, %arg1) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %m = "stablehlo.multiply"(%a, %b) : (tensor<i64>, tensor<i64>) -> tensor<i64>
    "stablehlo.return"(%m) : (tensor<i64>) -> ()
  }) {dimensions = array<i64: 0, 1>} : (tensor<2x2xi64>, tensor<2x2xi64>) -> tensor<2x3xi64>
  func.return %0 : tensor<2x3xi64>
}

// -----

func.func @main(%arg0: tensor<2x2xi64>, %arg1: tensor<2x2xi64>) -> tensor<2x2xi64> {
  // expected-error@+1 {{stablehlo.map: dimensions [1, 0] must be [0, 1]}}
  %0 = "stablehlo.map"(%arg0, %arg1) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %m = "stablehlo.multiply"(%a, %b) : (tensor<i64>, tensor<i64>) -> tensor<i64>
    "stablehlo.return"(%m) : (tensor<i64>) -> ()
  }) {dimensions = array<i64: 1, 0>} : (tensor<2x2xi64>, tensor<2x2xi64>) -> tensor<2x2xi64>
  func.return %0 : tensor<2x2xi64>
}

// -----

func.func @main(%arg0: tensor<2x2xi64>, %arg1: tensor<2x2xi64>) -> tensor<2x2xi64> {
  // expected-error@+1 {{stablehlo.map: computation must have type (tensor<i64>, tensor<i64>) -> (tensor<i64>), got (tensor<i32>, tensor<i32>) -> (tensor<i32>)}}
  %0 = "stablehlo.map"(%arg0, %arg1) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %m = "stablehlo.multiply"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%m) : (tensor<i32>) -> ()
  }) {dimensions = array<i64: 0, 1>} : (tensor<2x2xi64>, tensor<2x2xi64>) -> tensor<2x2xi64>
  func.return %0 : tensor<2x2xi64>
}

// -----

func.func @main(%arg0: tensor<i64>) -> tensor<i64> {
  // expected-error@+1 {{stablehlo.while: cond must have type (tensor<i64>) -> (tensor<i1>), got (tensor<i64>) -> (tensor<i64>)}}
  %0 = "stablehlo.while"(%arg0) ({
  ^bb0(%a: tensor<i64>):
    %c = "stablehlo.compare"(%a, %a) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<i64>, tensor<i64>) -> tensor<i1>
    "stablehlo.return"(%a) : (tensor<i64>) -> ()
  }, {
  ^bb0(%a: tensor<i64>):
    %n = "stablehlo.negate"(%a) : (tensor<i64>) -> tensor<i64>
    "stablehlo.return"(%n) : (tensor<i64>) -> ()
  }) : (tensor<i64>) -> tensor<i64>
  func.return %0 : tensor<i64>
}

// -----

func.func @main(%arg0: tensor<i64>) -> tensor<i64> {
  // expected-error@+1 {{stablehlo.while: body must have type (tensor<i64>) -> (tensor<i64>), got (tensor<i32>) -> (tensor<i32>)}}
  %0 = "stablehlo.while"(%arg0) ({
  ^bb0(%a: tensor<i64>):
    %c = "stablehlo.compare"(%a, %a) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<i64>, tensor<i64>) -> tensor<i1>
    "stablehlo.return"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%a: tensor<i32>):
    %n = "stablehlo.negate"(%a) : (tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%n) : (tensor<i32>) -> ()
  }) : (tensor<i64>) -> tensor<i64>
  func.return %0 : tensor<i64>
}

// -----

func.func @main(%arg0: tensor<i64>) -> tensor<i32> {
  // expected-error@+1 {{stablehlo.while: results (tensor<i32>) must have the operand types (tensor<i64>)}}
  %0 = "stablehlo.while"(%arg0) ({
  ^bb0(%a: tensor<i64>):
    %c = "stablehlo.compare"(%a, %a) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<i64>, tensor<i64>) -> tensor<i1>
    "stablehlo.return"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%a: tensor<i64>):
    %n = "stablehlo.negate"(%a) : (tensor<i64>) -> tensor<i64>
    "stablehlo.return"(%n) : (tensor<i64>) -> ()
  }) : (tensor<i64>) -> tensor<i32>
  func.return %0 : tensor<i32>
}

// -----

func.func @main(%arg0: tensor<2xi1>, %arg1: tensor<f32>, %arg2: tensor<f64>) -> tensor<f32> {
  // expected-error@+1 {{stablehlo.if: pred must be tensor<i1>, got tensor<2xi1>}}
  %0 = "stablehlo.if"(%arg0) ({
    "stablehlo.return"(%arg1) : (tensor<f32>) -> ()
  }, {
    "stablehlo.return"(%arg1) : (tensor<f32>) -> ()
  }) : (tensor<2xi1>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

func.func @main(%arg0: tensor<i1>, %arg1: tensor<f32>, %arg2: tensor<f64>) -> tensor<f32> {
  // expected-error@+1 {{stablehlo.if: branch #1 returns (tensor<f64>) but branch #0 returns (tensor<f32>)}}
  %0 = "stablehlo.if"(%arg0) ({
    "stablehlo.return"(%arg1) : (tensor<f32>) -> ()
  }, {
    "stablehlo.return"(%arg2) : (tensor<f64>) -> ()
  }) : (tensor<i1>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

func.func @main(%arg0: tensor<i1>, %arg1: tensor<f32>, %arg2: tensor<f64>) -> tensor<f64> {
  // expected-error@+1 {{stablehlo.if: results (tensor<f64>) must have the branches' output types (tensor<f32>)}}
  %0 = "stablehlo.if"(%arg0) ({
    "stablehlo.return"(%arg1) : (tensor<f32>) -> ()
  }, {
    "stablehlo.return"(%arg1) : (tensor<f32>) -> ()
  }) : (tensor<i1>) -> tensor<f64>
  func.return %0 : tensor<f64>
}

// -----

func.func @main(%arg0: tensor<i1>, %arg1: tensor<f32>, %arg2: tensor<f64>) -> tensor<f32> {
  // expected-error@+1 {{stablehlo.if: branch #0 must take no arguments, got (tensor<f32>)}}
  %0 = "stablehlo.if"(%arg0) ({
  ^bb0(%x: tensor<f32>):
    "stablehlo.return"(%arg1) : (tensor<f32>) -> ()
  }, {
    "stablehlo.return"(%arg1) : (tensor<f32>) -> ()
  }) : (tensor<i1>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

func.func @main(%arg0: tensor<i64>, %arg1: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{stablehlo.case: index must be tensor<i32>, got tensor<i64>}}
  %0 = "stablehlo.case"(%arg0) ({
    "stablehlo.return"(%arg1) : (tensor<f32>) -> ()
  }, {
    "stablehlo.return"(%arg1) : (tensor<f32>) -> ()
  }) : (tensor<i64>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
