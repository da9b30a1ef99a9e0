// Negative cases for element-wise ops: same types, element type classes, compare, complex, select,
// clamp, convert, bitcast_convert, reduce_precision.

func.func @main(%arg0: tensor<2xf32>, %arg1: tensor<3xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{stablehlo.add: operands and result must have the same type, got tensor<2xf32>, tensor<3xf32> and tensor<2xf32>}}
  %0 = "stablehlo.add"(%arg0, %arg1) : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf64> {
  // expected-error@+1 {{stablehlo.sqrt: operand and result must have the same type, got tensor<2xf32> and tensor<2xf64>}}
  %0 = "stablehlo.sqrt"(%arg0) : (tensor<2xf32>) -> tensor<2xf64>
  func.return %0 : tensor<2xf64>
}

// -----

func.func @main(%arg0: tensor<2xf32>, %arg1: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{stablehlo.and: operand element type must be boolean or integer, got f32}}
  %0 = "stablehlo.and"(%arg0, %arg1) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @main(%arg0: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
  // expected-error@+1 {{stablehlo.abs: result type tensor<2xcomplex<f32>> must have shape [2] and element type f32}}
  %0 = "stablehlo.abs"(%arg0) : (tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>>
  func.return %0 : tensor<2xcomplex<f32>>
}

// -----

func.func @main(%arg0: tensor<2xcomplex<f64>>) -> tensor<2xf32> {
  // expected-error@+1 {{stablehlo.real: result type tensor<2xf32> must have shape [2] and element type f64}}
  %0 = "stablehlo.real"(%arg0) : (tensor<2xcomplex<f64>>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @main(%arg0: tensor<2xf32>) -> tensor<3xi1> {
  // expected-error@+1 {{stablehlo.is_finite: operand shape [2] and result shape [3] differ}}
  %0 = "stablehlo.is_finite"(%arg0) : (tensor<2xf32>) -> tensor<3xi1>
  func.return %0 : tensor<3xi1>
}

// -----

func.func @main(%arg0: tensor<2xf32>, %arg1: tensor<2xf64>) -> tensor<2xi1> {
  // expected-error@+1 {{stablehlo.compare: lhs element type f32 and rhs element type f64 differ}}
  %0 = "stablehlo.compare"(%arg0, %arg1) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<2xf32>, tensor<2xf64>) -> tensor<2xi1>
  func.return %0 : tensor<2xi1>
}

// -----

func.func @main(%arg0: tensor<2xf32>, %arg1: tensor<2xf32>) -> tensor<3xi1> {
  // expected-error@+1 {{stablehlo.compare: lhs, rhs and result shapes [2], [2] and [3] differ}}
  %0 = "stablehlo.compare"(%arg0, %arg1) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<2xf32>, tensor<2xf32>) -> tensor<3xi1>
  func.return %0 : tensor<3xi1>
}

// -----

func.func @main(%arg0: tensor<2xi32>, %arg1: tensor<2xi32>) -> tensor<2xi1> {
  // expected-error@+1 {{stablehlo.compare: compare_type UNSIGNED is not valid for element type i32}}
  %0 = "stablehlo.compare"(%arg0, %arg1) {comparison_direction = #stablehlo<comparison_direction LT>, compare_type = #stablehlo<comparison_type UNSIGNED>} : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
  func.return %0 : tensor<2xi1>
}

// -----

func.func @main(%arg0: tensor<2xf32>, %arg1: tensor<3xf32>) -> tensor<2xcomplex<f32>> {
  // expected-error@+1 {{stablehlo.complex: lhs type tensor<2xf32> and rhs type tensor<3xf32> differ}}
  %0 = "stablehlo.complex"(%arg0, %arg1) : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xcomplex<f32>>
  func.return %0 : tensor<2xcomplex<f32>>
}

// -----

func.func @main(%arg0: tensor<2xf32>, %arg1: tensor<2xf32>) -> tensor<2xcomplex<f64>> {
  // expected-error@+1 {{stablehlo.complex: result type tensor<2xcomplex<f64>> must have shape [2] and element type complex<f32>}}
  %0 = "stablehlo.complex"(%arg0, %arg1) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xcomplex<f64>>
  func.return %0 : tensor<2xcomplex<f64>>
}

// -----

func.func @main(%arg0: tensor<3xi1>, %arg1: tensor<2xf32>, %arg2: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{stablehlo.select: pred shape [3] must be [] or on_true's shape [2]}}
  %0 = "stablehlo.select"(%arg0, %arg1, %arg2) : (tensor<3xi1>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @main(%arg0: tensor<i1>, %arg1: tensor<2xf32>, %arg2: tensor<2xf64>) -> tensor<2xf32> {
  // expected-error@+1 {{stablehlo.select: on_true, on_false and result must have the same type, got tensor<2xf32>, tensor<2xf64> and tensor<2xf32>}}
  %0 = "stablehlo.select"(%arg0, %arg1, %arg2) : (tensor<i1>, tensor<2xf32>, tensor<2xf64>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @main(%arg0: tensor<3xf32>, %arg1: tensor<2xf32>, %arg2: tensor<f32>) -> tensor<2xf32> {
  // expected-error@+1 {{stablehlo.clamp: min shape [3] must be [] or the operand's shape [2]}}
  %0 = "stablehlo.clamp"(%arg0, %arg1, %arg2) : (tensor<3xf32>, tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @main(%arg0: tensor<f64>, %arg1: tensor<2xf32>, %arg2: tensor<f32>) -> tensor<2xf32> {
  // expected-error@+1 {{stablehlo.clamp: min, operand and max element types f64, f32 and f32 differ}}
  %0 = "stablehlo.clamp"(%arg0, %arg1, %arg2) : (tensor<f64>, tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @main(%arg0: tensor<f32>, %arg1: tensor<2xf32>, %arg2: tensor<f32>) -> tensor<3xf32> {
  // expected-error@+1 {{stablehlo.clamp: operand type tensor<2xf32> and result type tensor<3xf32> differ}}
  %0 = "stablehlo.clamp"(%arg0, %arg1, %arg2) : (tensor<f32>, tensor<2xf32>, tensor<f32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @main(%arg0: tensor<2xf32>) -> tensor<3xi32> {
  // expected-error@+1 {{stablehlo.convert: operand shape [2] and result shape [3] differ}}
  %0 = "stablehlo.convert"(%arg0) : (tensor<2xf32>) -> tensor<3xi32>
  func.return %0 : tensor<3xi32>
}

// -----

func.func @main(%arg0: tensor<2xf32>) -> tensor<2x2xi8> {
  // expected-error@+1 {{stablehlo.bitcast_convert: converting 32-bit to 8-bit elements needs the operand's shape plus a last dimension of 4, got tensor<2xf32> -> tensor<2x2xi8>}}
  %0 = "stablehlo.bitcast_convert"(%arg0) : (tensor<2xf32>) -> tensor<2x2xi8>
  func.return %0 : tensor<2x2xi8>
}

// -----

func.func @main(%arg0: tensor<2xcomplex<f32>>) -> tensor<2xi64> {
  // expected-error@+1 {{stablehlo.bitcast_convert: cannot bitcast between complex<f32> and i64}}
  %0 = "stablehlo.bitcast_convert"(%arg0) : (tensor<2xcomplex<f32>>) -> tensor<2xi64>
  func.return %0 : tensor<2xi64>
}

// -----

func.func @main(%arg0: tensor<6xf32>) -> tensor<6xf32> {
  // expected-error@+1 {{stablehlo.reduce_precision: exponent_bits 0 must be at least 1}}
  %0 = "stablehlo.reduce_precision"(%arg0) {exponent_bits = 0 : i32, mantissa_bits = 2 : i32} : (tensor<6xf32>) -> tensor<6xf32>
  func.return %0 : tensor<6xf32>
}

// -----

func.func @main(%arg0: tensor<6xf32>) -> tensor<6xf32> {
  // expected-error@+1 {{stablehlo.reduce_precision: mantissa_bits -1 must be non-negative}}
  %0 = "stablehlo.reduce_precision"(%arg0) {exponent_bits = 5 : i32, mantissa_bits = -1 : i32} : (tensor<6xf32>) -> tensor<6xf32>
  func.return %0 : tensor<6xf32>
}
