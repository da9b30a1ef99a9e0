// Negative cases for the generic rules: arity from the op table, scoping, terminators, function
// signatures, calls, symbols, attributes and operand kinds. One violation per case.

func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{stablehlo.add: expects 2 operands, got 1}}
  %0 = "stablehlo.add"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{stablehlo.negate: expects 1 results, got 2}}
  %0:2 = "stablehlo.negate"(%arg0) : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  func.return %0#0 : tensor<2xf32>
}

// -----

func.func @main(%arg0: tensor<2xf32>, %arg1: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{stablehlo.reduce: expects 1 regions, got 0}}
  %0 = "stablehlo.reduce"(%arg0, %arg1) {dimensions = array<i64: 0>} : (tensor<2xf32>, tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{func.return: must be the last op of its block}}
  func.return %arg0 : tensor<2xf32>
  %0 = "stablehlo.negate"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

// expected-error@+1 {{func.func @main: block must end with func.return, found stablehlo.return}}
func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{stablehlo.return: must be in a region of a StableHLO op, not in a function body}}
  "stablehlo.return"(%arg0) : (tensor<2xf32>) -> ()
}

// -----

func.func @main(%arg0: tensor<i1>, %arg1: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{stablehlo.if: block must end with stablehlo.return, found func.return}}
  %0 = "stablehlo.if"(%arg0) ({
    // expected-error@+1 {{func.return: must be in a function body, not in a region of stablehlo.if}}
    func.return %arg1 : tensor<f32>
  }, {
    "stablehlo.return"(%arg1) : (tensor<f32>) -> ()
  }) : (tensor<i1>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

func.func @main(%arg0: tensor<2xf32>) -> tensor<3xf32> {
  // expected-error@+1 {{func.return: returns (tensor<2xf32>) but the function's result types are (tensor<3xf32>)}}
  func.return %arg0 : tensor<2xf32>
}

// -----

func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{func.call: callee @nope is not a function of this module}}
  %0 = func.call @nope(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func private @f(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  func.return %arg0 : tensor<2xf32>
}
func.func @main(%arg0: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error@+1 {{func.call: call type (tensor<3xf32>) -> (tensor<3xf32>) does not match @f's signature (tensor<2xf32>) -> (tensor<2xf32>)}}
  %0 = func.call @f(%arg0) : (tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{stablehlo.custom_call: refers to unknown symbol @nope}}
  %0 = "stablehlo.custom_call"(%arg0) {call_target_name = "foo", called_computations = [@nope]} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

// expected-error@+1 {{func.func @ext: a function declaration (no body) must be private}}
func.func @ext(tensor<2xf32>) -> tensor<2xf32>
func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  func.return %arg0 : tensor<2xf32>
}

// -----

func.func @main(%arg0: tensor<2xf32>, %arg1: tensor<3xf32>) -> tensor<5xf32> {
  // expected-error@+1 {{stablehlo.concatenate: missing required attribute `dimension`}}
  %0 = "stablehlo.concatenate"(%arg0, %arg1) : (tensor<2xf32>, tensor<3xf32>) -> tensor<5xf32>
  func.return %0 : tensor<5xf32>
}

// -----

func.func @main(%arg0: tensor<2xf32>, %arg1: tensor<3xf32>) -> tensor<5xf32> {
  // expected-error@+1 {{stablehlo.concatenate: attribute `dimension` must be an integer, got a string}}
  %0 = "stablehlo.concatenate"(%arg0, %arg1) {dimension = "zero"} : (tensor<2xf32>, tensor<3xf32>) -> tensor<5xf32>
  func.return %0 : tensor<5xf32>
}

// -----

func.func @main(%arg0: !stablehlo.token) -> tensor<f32> {
  // expected-error@+1 {{stablehlo.negate: operand #0 must be a ranked tensor, got !stablehlo.token}}
  %0 = "stablehlo.negate"(%arg0) : (!stablehlo.token) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

func.func @main(%arg0: tensor<f32>) -> tuple<tensor<f32>> {
  // expected-error@+1 {{stablehlo.negate: result #0 must be a ranked tensor, got tuple<tensor<f32>>}}
  %0 = "stablehlo.negate"(%arg0) : (tensor<f32>) -> tuple<tensor<f32>>
  func.return %0 : tuple<tensor<f32>>
}

// -----

func.func @main(%arg0: tensor<f32>) -> !stablehlo.token {
  // expected-error@+1 {{stablehlo.after_all: operand #0 must be a !stablehlo.token, got tensor<f32>}}
  %0 = "stablehlo.after_all"(%arg0) : (tensor<f32>) -> !stablehlo.token
  func.return %0 : !stablehlo.token
}

// -----

func.func @main() -> tensor<f32> {
  // expected-error@+1 {{stablehlo.create_token: result #0 must be a !stablehlo.token, got tensor<f32>}}
  %0 = "stablehlo.create_token"() : () -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

func.func @main(%arg0: tensor<2xi32>) -> tensor<2xi32> {
  // expected-error@+1 {{stablehlo.exponential: operand element type must be float, complex or quantized, got i32}}
  %0 = "stablehlo.exponential"(%arg0) : (tensor<2xi32>) -> tensor<2xi32>
  func.return %0 : tensor<2xi32>
}

// -----

func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<3x4xf32>) -> tensor<2x4xf32> {
  // expected-error@+1 {{stablehlo.dot_general: precision_config must have 0 or 2 entries, got 1}}
  %0 = "stablehlo.dot_general"(%arg0, %arg1) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>]} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

// expected-error@+1 {{func.func @main: body must have exactly one block, found 2}}
func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  func.return %arg0 : tensor<2xf32>
^bb1:
  func.return %arg0 : tensor<2xf32>
}

// -----

func.func @main(%arg0: tensor<i1>, %arg1: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{stablehlo.if: region #0 must have exactly one block, found 2}}
  %0 = "stablehlo.if"(%arg0) ({
    "stablehlo.return"(%arg1) : (tensor<f32>) -> ()
  ^bb1:
    "stablehlo.return"(%arg1) : (tensor<f32>) -> ()
  }, {
    "stablehlo.return"(%arg1) : (tensor<f32>) -> ()
  }) : (tensor<i1>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
