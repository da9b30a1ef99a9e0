// Elementwise ops in their pretty form (SameOperandsAndResultType / functional types).
func.func @unary(%f: tensor<2x3xf32>, %i: tensor<2x3xi32>, %c: tensor<4xcomplex<f64>>, %b: tensor<2x3xi1>) -> tensor<2x3xf32> {
  %0 = stablehlo.abs %f : tensor<2x3xf32>
  %1 = stablehlo.abs %c : (tensor<4xcomplex<f64>>) -> tensor<4xf64>
  %2 = stablehlo.cbrt %f : tensor<2x3xf32>
  %3 = stablehlo.ceil %f : tensor<2x3xf32>
  %4 = stablehlo.convert %i : (tensor<2x3xi32>) -> tensor<2x3xf32>
  %5 = stablehlo.count_leading_zeros %i : tensor<2x3xi32>
  %6 = stablehlo.cosine %f : tensor<2x3xf32>
  %7 = stablehlo.exponential %f : tensor<2x3xf32>
  %8 = stablehlo.exponential_minus_one %f : tensor<2x3xf32>
  %9 = stablehlo.floor %f : tensor<2x3xf32>
  %10 = stablehlo.imag %c : (tensor<4xcomplex<f64>>) -> tensor<4xf64>
  %11 = stablehlo.is_finite %f : (tensor<2x3xf32>) -> tensor<2x3xi1>
  %12 = stablehlo.log %f : tensor<2x3xf32>
  %13 = stablehlo.log_plus_one %f : tensor<2x3xf32>
  %14 = stablehlo.logistic %f : tensor<2x3xf32>
  %15 = stablehlo.not %b : tensor<2x3xi1>
  %16 = stablehlo.negate %i : tensor<2x3xi32>
  %17 = stablehlo.popcnt %i : tensor<2x3xi32>
  %18 = stablehlo.real %c : (tensor<4xcomplex<f64>>) -> tensor<4xf64>
  %19 = stablehlo.round_nearest_afz %f : tensor<2x3xf32>
  %20 = stablehlo.round_nearest_even %f : tensor<2x3xf32>
  %21 = stablehlo.rsqrt %f : tensor<2x3xf32>
  %22 = stablehlo.sign %f : tensor<2x3xf32>
  %23 = stablehlo.sine %f : tensor<2x3xf32>
  %24 = stablehlo.sqrt %c : tensor<4xcomplex<f64>>
  %25 = stablehlo.tan %f : tensor<2x3xf32>
  %26 = stablehlo.tanh %f {mhlo.frontend_attributes = {tag = "x"}} : tensor<2x3xf32>
  %27 = stablehlo.exponential %f {result_accuracy = #stablehlo.result_accuracy<atol = 1.000000e-05, rtol = 2.500000e-01, ulps = 2, mode = #stablehlo.result_accuracy_mode<TOLERANCE>>} : tensor<2x3xf32>
  %28 = stablehlo.bitcast_convert %f : (tensor<2x3xf32>) -> tensor<2x3xi32>
  %29 = stablehlo.bitcast_convert %f : (tensor<2x3xf32>) -> tensor<2x3x4xui8>
  %30 = stablehlo.reshape %f : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %31 = stablehlo.convert %c : tensor<4xcomplex<f64>>
  return %0 : tensor<2x3xf32>
}

func.func @binary(%f: tensor<2x3xf32>, %i: tensor<2x3xi32>, %u: tensor<2x3xui8>, %b: tensor<2x3xi1>, %c: tensor<4xcomplex<f32>>, %r: tensor<4xf32>) -> tensor<2x3xf32> {
  %0 = stablehlo.add %f, %f : tensor<2x3xf32>
  %1 = stablehlo.and %b, %b : tensor<2x3xi1>
  %2 = stablehlo.atan2 %f, %f : tensor<2x3xf32>
  %3 = stablehlo.divide %i, %i : tensor<2x3xi32>
  %4 = stablehlo.maximum %u, %u : tensor<2x3xui8>
  %5 = stablehlo.minimum %f, %f : tensor<2x3xf32>
  %6 = stablehlo.multiply %c, %c : tensor<4xcomplex<f32>>
  %7 = stablehlo.or %i, %i : tensor<2x3xi32>
  %8 = stablehlo.power %f, %f : tensor<2x3xf32>
  %9 = stablehlo.remainder %i, %i : tensor<2x3xi32>
  %10 = stablehlo.shift_left %u, %u : tensor<2x3xui8>
  %11 = stablehlo.shift_right_arithmetic %i, %i : tensor<2x3xi32>
  %12 = stablehlo.shift_right_logical %u, %u : tensor<2x3xui8>
  %13 = stablehlo.subtract %f, %f : tensor<2x3xf32>
  %14 = stablehlo.xor %b, %b : tensor<2x3xi1>
  %15 = stablehlo.complex %r, %r : tensor<4xcomplex<f32>>
  %16 = stablehlo.add %f, %f : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<?x3xf32>
  %17 = stablehlo.select %b, %f, %f : tensor<2x3xi1>, tensor<2x3xf32>
  %p = stablehlo.constant dense<true> : tensor<i1>
  %18 = stablehlo.select %p, %f, %f : (tensor<i1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %s = stablehlo.constant dense<1.000000e+00> : tensor<f32>
  %19 = stablehlo.clamp %s, %f, %s : (tensor<f32>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %20 = stablehlo.clamp %f, %f, %f : tensor<2x3xf32>
  %21 = stablehlo.compare EQ, %f, %f : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %22 = stablehlo.compare NE, %i, %i, SIGNED : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
  %23 = stablehlo.compare GE, %f, %f, FLOAT : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %24 = stablehlo.compare GT, %u, %u, UNSIGNED : (tensor<2x3xui8>, tensor<2x3xui8>) -> tensor<2x3xi1>
  %25 = stablehlo.compare LE, %f, %f, TOTALORDER : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %26 = stablehlo.compare LT, %b, %b, NOTYPE : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  return %0 : tensor<2x3xf32>
}
