// Negative cases for value types: quantized element types and quantized tensors (spec C1-C13).
// Argument types are reported at the function, result types at the op.

// expected-error@+1 {{func.func @main: !quant.uniform<i32:f16, 0.5:0>: storage type i32 must not be wider than expressed type f16}}
func.func @main(%arg0: tensor<2x!quant.uniform<i32:f16, 0.5:0>>) {
  func.return
}

// -----

// expected-error@+1 {{storage range [-200, 127] must be a non-empty part of [-128, 127]}}
func.func @main(%arg0: tensor<2x!quant.uniform<i8<-200:127>:f32, 0.5:0>>) {
  func.return
}

// -----

func.func @main(%arg0: tensor<2xf32>) {
  // expected-error@+1 {{stablehlo.uniform_quantize: !quant.uniform<i8:f32, -0.5:0>: scale -0.5 must be positive and finite}}
  %0 = "stablehlo.uniform_quantize"(%arg0) : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, -0.5:0>>
  func.return
}

// -----

// expected-error@+1 {{zero point 300 is outside the storage range [-128, 127]}}
func.func @main(%arg0: tensor<2x!quant.uniform<i8:f32, 0.5:300>>) {
  func.return
}

// -----

// expected-error@+1 {{quantization dimension 2 is out of range [0, 1)}}
func.func @main(%arg0: tensor<2x!quant.uniform<i8:f32:2, {0.5:0, 0.5:0}>>) {
  func.return
}

// -----

// expected-error@+1 {{2 scales but quantization dimension 0 has size 3}}
func.func @main(%arg0: tensor<3x!quant.uniform<i8:f32:0, {0.5:0, 0.5:0}>>) {
  func.return
}

// -----

// expected-error@+1 {{storage type i8 must be an integer and expressed type i32 a float}}
func.func @main(%arg0: tensor<2x!quant.uniform<i8:i32, 0.5:0>>) {
  func.return
}

// -----

// expected-error@+1 {{func.func @main: value %0 has function type (tensor<f32>) -> (tensor<f32>), which is not a value type}}
func.func @main(%arg0: (tensor<f32>) -> tensor<f32>) {
  func.return
}

// -----

// expected-error@+1 {{has 1 bounds but rank 2}}
func.func @main(%arg0: tensor<?x4xf32, #stablehlo.bounds<8>>) {
  func.return
}

// -----

// expected-error@+1 {{bounds static dimension 1 (size 4) by 3; static dimensions take ?}}
func.func @main(%arg0: tensor<?x4xf32, #stablehlo.bounds<8, 3>>) {
  func.return
}
