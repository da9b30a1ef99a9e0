// MLIR's generic print (print_generic_op_form, jaxlib 0.10.2) of chlo.mlir: every op in the generic form,
// the module and functions too.
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<2x3xf32>, tensor<2x3xcomplex<f32>>) -> tensor<2x3xf32>, sym_name = "chlo_unary"}> ({
  ^bb0(%arg7: tensor<2x3xf32>, %arg8: tensor<2x3xcomplex<f32>>):
    %22 = "chlo.acos"(%arg7) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %23 = "chlo.acosh"(%arg7) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %24 = "chlo.asin"(%arg7) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %25 = "chlo.asinh"(%arg7) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %26 = "chlo.atan"(%arg7) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %27 = "chlo.atanh"(%arg7) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %28 = "chlo.bessel_i1e"(%arg7) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %29 = "chlo.conj"(%arg8) : (tensor<2x3xcomplex<f32>>) -> tensor<2x3xcomplex<f32>>
    %30 = "chlo.cosh"(%arg7) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %31 = "chlo.sinh"(%arg7) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %32 = "chlo.tan"(%arg7) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %33 = "chlo.digamma"(%arg7) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %34 = "chlo.erf"(%arg7) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %35 = "chlo.erf_inv"(%arg7) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %36 = "chlo.erfc"(%arg7) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %37 = "chlo.is_inf"(%arg7) : (tensor<2x3xf32>) -> tensor<2x3xi1>
    %38 = "chlo.is_neg_inf"(%arg7) : (tensor<2x3xf32>) -> tensor<2x3xi1>
    %39 = "chlo.is_pos_inf"(%arg7) : (tensor<2x3xf32>) -> tensor<2x3xi1>
    %40 = "chlo.lgamma"(%arg7) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %41 = "chlo.square"(%arg7) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %42 = "chlo.next_after"(%arg7, %arg7) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %43 = "chlo.polygamma"(%arg7, %arg7) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %44 = "chlo.zeta"(%arg7, %arg7) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %45:2 = "chlo.top_k"(%arg7) <{k = 2 : i64}> : (tensor<2x3xf32>) -> (tensor<2x2xf32>, tensor<2x2xi32>)
    %46 = "chlo.constant"() <{value = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>}> : () -> tensor<2xf32>
    %47 = "chlo.constant_like"(%arg7) <{value = 1.000000e+00 : f32}> : (tensor<2x3xf32>) -> tensor<2x3xf32>
    "func.return"(%22) : (tensor<2x3xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<2x3xf32>, tensor<f32>, tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xf32>, sym_name = "chlo_broadcast"}> ({
  ^bb0(%arg3: tensor<2x3xf32>, %arg4: tensor<f32>, %arg5: tensor<2x3xi32>, %arg6: tensor<3xi32>):
    %1 = "chlo.broadcast_add"(%arg3, %arg4) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
    %2 = "chlo.broadcast_and"(%arg5, %arg6) : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
    %3 = "chlo.broadcast_atan2"(%arg3, %arg4) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
    %4 = "chlo.broadcast_compare"(%arg3, %arg4) <{comparison_direction = #chlo<comparison_direction GT>}> : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi1>
    %5 = "chlo.broadcast_compare"(%arg3, %arg4) <{compare_type = #chlo<comparison_type TOTALORDER>, comparison_direction = #chlo<comparison_direction LE>}> : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi1>
    %6 = "chlo.broadcast_complex"(%arg3, %arg4) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xcomplex<f32>>
    %7 = "chlo.broadcast_divide"(%arg3, %arg4) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
    %8 = "chlo.broadcast_maximum"(%arg3, %arg4) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
    %9 = "chlo.broadcast_minimum"(%arg3, %arg4) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
    %10 = "chlo.broadcast_multiply"(%arg3, %arg4) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
    %11 = "chlo.broadcast_next_after"(%arg3, %arg4) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
    %12 = "chlo.broadcast_or"(%arg5, %arg6) : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
    %13 = "chlo.broadcast_polygamma"(%arg3, %arg4) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
    %14 = "chlo.broadcast_power"(%arg3, %arg4) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
    %15 = "chlo.broadcast_remainder"(%arg3, %arg4) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
    %16 = "chlo.broadcast_shift_left"(%arg5, %arg6) : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
    %17 = "chlo.broadcast_shift_right_arithmetic"(%arg5, %arg6) : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
    %18 = "chlo.broadcast_shift_right_logical"(%arg5, %arg6) : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
    %19 = "chlo.broadcast_subtract"(%arg3, %arg4) <{broadcast_dimensions = array<i64>}> : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
    %20 = "chlo.broadcast_xor"(%arg5, %arg6) : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
    %21 = "chlo.broadcast_zeta"(%arg3, %arg4) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
    "func.return"(%1) : (tensor<2x3xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<19x17x11x5xf32>, tensor<3x19x5x7xf32>, tensor<3xi64>) -> tensor<19x17x11x7xf32>, sym_name = "chlo_ragged"}> ({
  ^bb0(%arg0: tensor<19x17x11x5xf32>, %arg1: tensor<3x19x5x7xf32>, %arg2: tensor<3xi64>):
    %0 = "chlo.ragged_dot"(%arg0, %arg1, %arg2) <{precision_config = [#chlo<precision DEFAULT>, #chlo<precision DEFAULT>], ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [2], lhs_ragged_dimensions = [1], rhs_group_dimensions = [0]>}> : (tensor<19x17x11x5xf32>, tensor<3x19x5x7xf32>, tensor<3xi64>) -> tensor<19x17x11x7xf32>
    "func.return"(%0) : (tensor<19x17x11x7xf32>) -> ()
  }) : () -> ()
}) : () -> ()

