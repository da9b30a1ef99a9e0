// MLIR's generic print (print_generic_op_form, jaxlib 0.10.2) of elementwise.mlir: every op in the generic form,
// the module and functions too.
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<2x3xf32>, tensor<2x3xi32>, tensor<4xcomplex<f64>>, tensor<2x3xi1>) -> tensor<2x3xf32>, sym_name = "unary"}> ({
  ^bb0(%arg6: tensor<2x3xf32>, %arg7: tensor<2x3xi32>, %arg8: tensor<4xcomplex<f64>>, %arg9: tensor<2x3xi1>):
    %29 = "stablehlo.abs"(%arg6) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %30 = "stablehlo.abs"(%arg8) : (tensor<4xcomplex<f64>>) -> tensor<4xf64>
    %31 = "stablehlo.cbrt"(%arg6) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %32 = "stablehlo.ceil"(%arg6) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %33 = "stablehlo.convert"(%arg7) : (tensor<2x3xi32>) -> tensor<2x3xf32>
    %34 = "stablehlo.count_leading_zeros"(%arg7) : (tensor<2x3xi32>) -> tensor<2x3xi32>
    %35 = "stablehlo.cosine"(%arg6) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %36 = "stablehlo.exponential"(%arg6) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %37 = "stablehlo.exponential_minus_one"(%arg6) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %38 = "stablehlo.floor"(%arg6) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %39 = "stablehlo.imag"(%arg8) : (tensor<4xcomplex<f64>>) -> tensor<4xf64>
    %40 = "stablehlo.is_finite"(%arg6) : (tensor<2x3xf32>) -> tensor<2x3xi1>
    %41 = "stablehlo.log"(%arg6) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %42 = "stablehlo.log_plus_one"(%arg6) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %43 = "stablehlo.logistic"(%arg6) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %44 = "stablehlo.not"(%arg9) : (tensor<2x3xi1>) -> tensor<2x3xi1>
    %45 = "stablehlo.negate"(%arg7) : (tensor<2x3xi32>) -> tensor<2x3xi32>
    %46 = "stablehlo.popcnt"(%arg7) : (tensor<2x3xi32>) -> tensor<2x3xi32>
    %47 = "stablehlo.real"(%arg8) : (tensor<4xcomplex<f64>>) -> tensor<4xf64>
    %48 = "stablehlo.round_nearest_afz"(%arg6) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %49 = "stablehlo.round_nearest_even"(%arg6) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %50 = "stablehlo.rsqrt"(%arg6) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %51 = "stablehlo.sign"(%arg6) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %52 = "stablehlo.sine"(%arg6) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %53 = "stablehlo.sqrt"(%arg8) : (tensor<4xcomplex<f64>>) -> tensor<4xcomplex<f64>>
    %54 = "stablehlo.tan"(%arg6) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %55 = "stablehlo.tanh"(%arg6) {mhlo.frontend_attributes = {tag = "x"}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %56 = "stablehlo.exponential"(%arg6) <{result_accuracy = #stablehlo.result_accuracy<atol = 1.000000e-05, rtol = 2.500000e-01, ulps = 2, mode = #stablehlo.result_accuracy_mode<TOLERANCE>>}> : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %57 = "stablehlo.bitcast_convert"(%arg6) : (tensor<2x3xf32>) -> tensor<2x3xi32>
    %58 = "stablehlo.bitcast_convert"(%arg6) : (tensor<2x3xf32>) -> tensor<2x3x4xui8>
    %59 = "stablehlo.reshape"(%arg6) : (tensor<2x3xf32>) -> tensor<3x2xf32>
    %60 = "stablehlo.convert"(%arg8) : (tensor<4xcomplex<f64>>) -> tensor<4xcomplex<f64>>
    "func.return"(%29) : (tensor<2x3xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<2x3xf32>, tensor<2x3xi32>, tensor<2x3xui8>, tensor<2x3xi1>, tensor<4xcomplex<f32>>, tensor<4xf32>) -> tensor<2x3xf32>, sym_name = "binary"}> ({
  ^bb0(%arg0: tensor<2x3xf32>, %arg1: tensor<2x3xi32>, %arg2: tensor<2x3xui8>, %arg3: tensor<2x3xi1>, %arg4: tensor<4xcomplex<f32>>, %arg5: tensor<4xf32>):
    %0 = "stablehlo.add"(%arg0, %arg0) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %1 = "stablehlo.and"(%arg3, %arg3) : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
    %2 = "stablehlo.atan2"(%arg0, %arg0) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %3 = "stablehlo.divide"(%arg1, %arg1) : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
    %4 = "stablehlo.maximum"(%arg2, %arg2) : (tensor<2x3xui8>, tensor<2x3xui8>) -> tensor<2x3xui8>
    %5 = "stablehlo.minimum"(%arg0, %arg0) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %6 = "stablehlo.multiply"(%arg4, %arg4) : (tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
    %7 = "stablehlo.or"(%arg1, %arg1) : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
    %8 = "stablehlo.power"(%arg0, %arg0) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %9 = "stablehlo.remainder"(%arg1, %arg1) : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
    %10 = "stablehlo.shift_left"(%arg2, %arg2) : (tensor<2x3xui8>, tensor<2x3xui8>) -> tensor<2x3xui8>
    %11 = "stablehlo.shift_right_arithmetic"(%arg1, %arg1) : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
    %12 = "stablehlo.shift_right_logical"(%arg2, %arg2) : (tensor<2x3xui8>, tensor<2x3xui8>) -> tensor<2x3xui8>
    %13 = "stablehlo.subtract"(%arg0, %arg0) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %14 = "stablehlo.xor"(%arg3, %arg3) : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
    %15 = "stablehlo.complex"(%arg5, %arg5) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xcomplex<f32>>
    %16 = "stablehlo.add"(%arg0, %arg0) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<?x3xf32>
    %17 = "stablehlo.select"(%arg3, %arg0, %arg0) : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %18 = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
    %19 = "stablehlo.select"(%18, %arg0, %arg0) : (tensor<i1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %20 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %21 = "stablehlo.clamp"(%20, %arg0, %20) : (tensor<f32>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
    %22 = "stablehlo.clamp"(%arg0, %arg0, %arg0) : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %23 = "stablehlo.compare"(%arg0, %arg0) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
    %24 = "stablehlo.compare"(%arg1, %arg1) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
    %25 = "stablehlo.compare"(%arg0, %arg0) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
    %26 = "stablehlo.compare"(%arg2, %arg2) <{compare_type = #stablehlo<comparison_type UNSIGNED>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<2x3xui8>, tensor<2x3xui8>) -> tensor<2x3xi1>
    %27 = "stablehlo.compare"(%arg0, %arg0) <{compare_type = #stablehlo<comparison_type TOTALORDER>, comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
    %28 = "stablehlo.compare"(%arg3, %arg3) <{compare_type = #stablehlo<comparison_type NOTYPE>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
    "func.return"(%0) : (tensor<2x3xf32>) -> ()
  }) : () -> ()
}) : () -> ()

