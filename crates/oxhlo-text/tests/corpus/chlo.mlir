// chlo ops that JAX can leave in a program.
func.func @chlo_unary(%x: tensor<2x3xf32>, %c: tensor<2x3xcomplex<f32>>) -> tensor<2x3xf32> {
  %0 = chlo.acos %x : tensor<2x3xf32> -> tensor<2x3xf32>
  %1 = chlo.acosh %x : tensor<2x3xf32> -> tensor<2x3xf32>
  %2 = chlo.asin %x : tensor<2x3xf32> -> tensor<2x3xf32>
  %3 = chlo.asinh %x : tensor<2x3xf32> -> tensor<2x3xf32>
  %4 = chlo.atan %x : tensor<2x3xf32> -> tensor<2x3xf32>
  %5 = chlo.atanh %x : tensor<2x3xf32> -> tensor<2x3xf32>
  %6 = chlo.bessel_i1e %x : tensor<2x3xf32> -> tensor<2x3xf32>
  %7 = chlo.conj %c : tensor<2x3xcomplex<f32>> -> tensor<2x3xcomplex<f32>>
  %8 = chlo.cosh %x : tensor<2x3xf32> -> tensor<2x3xf32>
  %9 = chlo.sinh %x : tensor<2x3xf32> -> tensor<2x3xf32>
  %10 = chlo.tan %x : tensor<2x3xf32> -> tensor<2x3xf32>
  %11 = chlo.digamma %x : tensor<2x3xf32> -> tensor<2x3xf32>
  %12 = chlo.erf %x : tensor<2x3xf32> -> tensor<2x3xf32>
  %13 = chlo.erf_inv %x : tensor<2x3xf32> -> tensor<2x3xf32>
  %14 = chlo.erfc %x : tensor<2x3xf32> -> tensor<2x3xf32>
  %15 = chlo.is_inf %x : tensor<2x3xf32> -> tensor<2x3xi1>
  %16 = chlo.is_neg_inf %x : tensor<2x3xf32> -> tensor<2x3xi1>
  %17 = chlo.is_pos_inf %x : tensor<2x3xf32> -> tensor<2x3xi1>
  %18 = chlo.lgamma %x : tensor<2x3xf32> -> tensor<2x3xf32>
  %19 = chlo.square %x : tensor<2x3xf32> -> tensor<2x3xf32>
  %20 = chlo.next_after %x, %x : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  %21 = chlo.polygamma %x, %x : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  %22 = chlo.zeta %x, %x : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  %values, %indices = chlo.top_k(%x, k = 2) : tensor<2x3xf32> -> (tensor<2x2xf32>, tensor<2x2xi32>)
  %23 = chlo.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  %24 = "chlo.constant_like"(%x) <{value = 1.000000e+00 : f32}> : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

func.func @chlo_broadcast(%x: tensor<2x3xf32>, %s: tensor<f32>, %i: tensor<2x3xi32>, %j: tensor<3xi32>) -> tensor<2x3xf32> {
  %0 = chlo.broadcast_add %x, %s : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %1 = chlo.broadcast_and %i, %j : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  %2 = chlo.broadcast_atan2 %x, %s : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %3 = chlo.broadcast_compare %x, %s {comparison_direction = #chlo<comparison_direction GT>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi1>
  %4 = chlo.broadcast_compare %x, %s {compare_type = #chlo<comparison_type TOTALORDER>, comparison_direction = #chlo<comparison_direction LE>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi1>
  %5 = chlo.broadcast_complex %x, %s : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xcomplex<f32>>
  %6 = chlo.broadcast_divide %x, %s : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %7 = chlo.broadcast_maximum %x, %s : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %8 = chlo.broadcast_minimum %x, %s : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %9 = chlo.broadcast_multiply %x, %s : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %10 = chlo.broadcast_next_after %x, %s : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %11 = chlo.broadcast_or %i, %j : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  %12 = chlo.broadcast_polygamma %x, %s : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %13 = chlo.broadcast_power %x, %s : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %14 = chlo.broadcast_remainder %x, %s : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %15 = chlo.broadcast_shift_left %i, %j : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  %16 = chlo.broadcast_shift_right_arithmetic %i, %j : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  %17 = chlo.broadcast_shift_right_logical %i, %j : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  %18 = chlo.broadcast_subtract %x, %s {broadcast_dimensions = array<i64>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %19 = chlo.broadcast_xor %i, %j : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  %20 = chlo.broadcast_zeta %x, %s : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

func.func @chlo_ragged(%lhs: tensor<19x17x11x5xf32>, %rhs: tensor<3x19x5x7xf32>, %gs: tensor<3xi64>) -> tensor<19x17x11x7xf32> {
  %0 = "chlo.ragged_dot"(%lhs, %rhs, %gs) <{precision_config = [#chlo<precision DEFAULT>, #chlo<precision DEFAULT>], ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [2], lhs_ragged_dimensions = [1], rhs_group_dimensions = [0]>}> : (tensor<19x17x11x5xf32>, tensor<3x19x5x7xf32>, tensor<3xi64>) -> tensor<19x17x11x7xf32>
  return %0 : tensor<19x17x11x7xf32>
}
