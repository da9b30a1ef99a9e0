// Negative cases for the remaining ops: constant, tuple, get_tuple_element, custom_call, composite,
// optimization_barrier, rng, rng_bit_generator, uniform_quantize/dequantize and the check ops.

func.func @main() -> tensor<3xf32> {
  // expected-error@+1 {{stablehlo.constant: value type tensor<2xf32> differs from the output type tensor<3xf32>}}
  %0 = "stablehlo.constant"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @main(%arg0: tensor<f32>, %arg1: tensor<i32>) -> tuple<tensor<f32>, tensor<f32>> {
  // expected-error@+1 {{stablehlo.tuple: result type tuple<tensor<f32>, tensor<f32>> must be tuple<tensor<f32>, tensor<i32>>}}
  %0 = "stablehlo.tuple"(%arg0, %arg1) : (tensor<f32>, tensor<i32>) -> tuple<tensor<f32>, tensor<f32>>
  func.return %0 : tuple<tensor<f32>, tensor<f32>>
}

// -----

func.func @main(%arg0: tuple<tensor<f32>, tensor<i32>>) -> tensor<f32> {
  // expected-error@+1 {{stablehlo.get_tuple_element: index 2 is out of range [0, 2)}}
  %0 = "stablehlo.get_tuple_element"(%arg0) {index = 2 : i32} : (tuple<tensor<f32>, tensor<i32>>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

func.func @main(%arg0: tuple<tensor<f32>, tensor<i32>>) -> tensor<f32> {
  // expected-error@+1 {{stablehlo.get_tuple_element: result type tensor<f32> differs from element #1's type tensor<i32>}}
  %0 = "stablehlo.get_tuple_element"(%arg0) {index = 1 : i32} : (tuple<tensor<f32>, tensor<i32>>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{stablehlo.custom_call: api_version 7 is not one of 0 to 4}}
  %0 = "stablehlo.custom_call"(%arg0) {call_target_name = "foo", api_version = 7 : i32} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{stablehlo.custom_call: backend_config must be a string for api_version 2, got a dictionary}}
  %0 = "stablehlo.custom_call"(%arg0) {call_target_name = "foo", api_version = 2 : i32, backend_config = {x = 1 : i32}} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @main(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{stablehlo.custom_call: operand_layouts and result_layouts must both be present or both absent}}
  %0 = "stablehlo.custom_call"(%arg0) {call_target_name = "foo", operand_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{stablehlo.custom_call: output_operand_alias operand_index 3 is out of range [0, 1)}}
  %0 = "stablehlo.custom_call"(%arg0) {call_target_name = "foo", output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 3, operand_tuple_indices = []>]} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func private @dec(%arg0: tensor<i32>) -> tensor<i32> {
  func.return %arg0 : tensor<i32>
}
func.func @main(%arg0: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{stablehlo.composite: type (tensor<f32>) -> (tensor<f32>) does not match @dec's signature (tensor<i32>) -> (tensor<i32>)}}
  %0 = "stablehlo.composite"(%arg0) {name = "my.op", decomposition = @dec} : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

func.func private @dec(%arg0: tensor<f32>) -> tensor<f32> {
  func.return %arg0 : tensor<f32>
}
func.func @main(%arg0: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{stablehlo.composite: version -1 must be non-negative}}
  %0 = "stablehlo.composite"(%arg0) {name = "my.op", decomposition = @dec, version = -1 : i32} : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

func.func @main(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{stablehlo.optimization_barrier: results (tensor<f32>, tensor<f64>) must have the operand types (tensor<f32>, tensor<f32>)}}
  %0:2 = "stablehlo.optimization_barrier"(%arg0, %arg1) : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f64>)
  func.return %0#0 : tensor<f32>
}

// -----

func.func @main(%arg0: tensor<1xi32>, %arg1: tensor<i32>, %arg2: tensor<2xi64>) -> tensor<3x3xi32> {
  // expected-error@+1 {{stablehlo.rng: a and b must be 0-dimensional, got tensor<1xi32> and tensor<i32>}}
  %0 = "stablehlo.rng"(%arg0, %arg1, %arg2) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<1xi32>, tensor<i32>, tensor<2xi64>) -> tensor<3x3xi32>
  func.return %0 : tensor<3x3xi32>
}

// -----

func.func @main(%arg0: tensor<i32>, %arg1: tensor<i64>, %arg2: tensor<2xi64>) -> tensor<3x3xi32> {
  // expected-error@+1 {{stablehlo.rng: a, b and result element types i32, i64 and i32 differ}}
  %0 = "stablehlo.rng"(%arg0, %arg1, %arg2) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<i32>, tensor<i64>, tensor<2xi64>) -> tensor<3x3xi32>
  func.return %0 : tensor<3x3xi32>
}

// -----

func.func @main(%arg0: tensor<i32>, %arg1: tensor<i32>, %arg2: tensor<2xi64>) -> tensor<3x3xi32> {
  // expected-error@+1 {{stablehlo.rng: NORMAL needs a floating-point element type, got i32}}
  %0 = "stablehlo.rng"(%arg0, %arg1, %arg2) {rng_distribution = #stablehlo<rng_distribution NORMAL>} : (tensor<i32>, tensor<i32>, tensor<2xi64>) -> tensor<3x3xi32>
  func.return %0 : tensor<3x3xi32>
}

// -----

func.func @main(%arg0: tensor<f32>, %arg1: tensor<f32>, %arg2: tensor<3xi64>) -> tensor<3x3xf32> {
  // expected-error@+1 {{stablehlo.rng: shape must be tensor<2x...> of integers, got tensor<3xi64>}}
  %0 = "stablehlo.rng"(%arg0, %arg1, %arg2) {rng_distribution = #stablehlo<rng_distribution NORMAL>} : (tensor<f32>, tensor<f32>, tensor<3xi64>) -> tensor<3x3xf32>
  func.return %0 : tensor<3x3xf32>
}

// -----

func.func @main(%arg0: tensor<2xui64>) -> tensor<2x2xui64> {
  // expected-error@+1 {{stablehlo.rng_bit_generator: initial_state type tensor<2xui64> and output_state type tensor<3xui64> differ}}
  %0:2 = "stablehlo.rng_bit_generator"(%arg0) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>} : (tensor<2xui64>) -> (tensor<3xui64>, tensor<2x2xui64>)
  func.return %0#1 : tensor<2x2xui64>
}

// -----

func.func @main(%arg0: tensor<3xui64>) -> tensor<2x2xui64> {
  // expected-error@+1 {{stablehlo.rng_bit_generator: initial_state tensor<3xui64> has the wrong shape for THREE_FRY}}
  %0:2 = "stablehlo.rng_bit_generator"(%arg0) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>} : (tensor<3xui64>) -> (tensor<3xui64>, tensor<2x2xui64>)
  func.return %0#1 : tensor<2x2xui64>
}

// -----

func.func @main(%arg0: tensor<2xf32>) -> tensor<3x!quant.uniform<i8:f32, 0.5:0>> {
  // expected-error@+1 {{stablehlo.uniform_quantize: cannot quantize tensor<2xf32> to tensor<3x!quant.uniform<i8:f32, 0.5:0>>}}
  %0 = "stablehlo.uniform_quantize"(%arg0) : (tensor<2xf32>) -> tensor<3x!quant.uniform<i8:f32, 0.5:0>>
  func.return %0 : tensor<3x!quant.uniform<i8:f32, 0.5:0>>
}

// -----

func.func @main(%arg0: tensor<2x!quant.uniform<i8:f32, 0.5:0>>) -> tensor<2xf16> {
  // expected-error@+1 {{stablehlo.uniform_dequantize: cannot dequantize tensor<2x!quant.uniform<i8:f32, 0.5:0>> to tensor<2xf16>}}
  %0 = "stablehlo.uniform_dequantize"(%arg0) : (tensor<2x!quant.uniform<i8:f32, 0.5:0>>) -> tensor<2xf16>
  func.return %0 : tensor<2xf16>
}

// -----

func.func @main(%arg0: tensor<2xf32>, %arg1: tensor<3xf32>) {
  // expected-error@+1 {{check.expect_eq: compared values have different types tensor<2xf32> and tensor<3xf32>}}
  "check.expect_eq"(%arg0, %arg1) : (tensor<2xf32>, tensor<3xf32>) -> ()
  func.return
}
