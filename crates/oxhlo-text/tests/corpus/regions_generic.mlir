// MLIR's generic print (print_generic_op_form, jaxlib 0.10.2) of regions.mlir: every op in the generic form,
// the module and functions too.
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4x6xf32>, tensor<4x6xi32>, tensor<f32>, tensor<i32>) -> tensor<4xf32>, sym_name = "reductions"}> ({
  ^bb0(%arg33: tensor<4x6xf32>, %arg34: tensor<4x6xi32>, %arg35: tensor<f32>, %arg36: tensor<i32>):
    %34 = "stablehlo.reduce"(%arg33, %arg35) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg49: tensor<f32>, %arg50: tensor<f32>):
      %47 = "stablehlo.add"(%arg49, %arg50) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%47) : (tensor<f32>) -> ()
    }) : (tensor<4x6xf32>, tensor<f32>) -> tensor<4xf32>
    %35 = "stablehlo.reduce"(%arg33, %arg35) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg47: tensor<f32>, %arg48: tensor<f32>):
      %46 = "stablehlo.maximum"(%arg47, %arg48) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%46) : (tensor<f32>) -> ()
    }) : (tensor<4x6xf32>, tensor<f32>) -> tensor<f32>
    %36 = "stablehlo.reduce"(%arg33, %arg35) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg45: tensor<f32>, %arg46: tensor<f32>):
      %45 = "stablehlo.add"(%arg46, %arg45) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%45) : (tensor<f32>) -> ()
    }) : (tensor<4x6xf32>, tensor<f32>) -> tensor<4xf32>
    %37:2 = "stablehlo.reduce"(%arg33, %arg34, %arg35, %arg36) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg41: tensor<f32>, %arg42: tensor<i32>, %arg43: tensor<f32>, %arg44: tensor<i32>):
      %42 = "stablehlo.compare"(%arg41, %arg43) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %43 = "stablehlo.select"(%42, %arg41, %arg43) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %44 = "stablehlo.select"(%42, %arg42, %arg44) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%43, %44) : (tensor<f32>, tensor<i32>) -> ()
    }) : (tensor<4x6xf32>, tensor<4x6xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
    %38 = "stablehlo.reduce"(%arg34, %arg36) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg39: tensor<i32>, %arg40: tensor<i32>):
      %41 = "stablehlo.or"(%arg39, %arg40) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%41) : (tensor<i32>) -> ()
    }) : (tensor<4x6xi32>, tensor<i32>) -> tensor<6xi32>
    %39 = "stablehlo.reduce"(%arg33, %arg35) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg37: tensor<f32>, %arg38: tensor<f32>):
      %40 = "stablehlo.multiply"(%arg37, %arg38) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%40) : (tensor<f32>) -> ()
    }) : (tensor<4x6xf32>, tensor<f32>) -> tensor<6xf32>
    "func.return"(%34) : (tensor<4xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<i32>, tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>), sym_name = "loops"}> ({
  ^bb0(%arg25: tensor<i32>, %arg26: tensor<4xf32>):
    %19 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %20:2 = "stablehlo.while"(%19, %arg26) ({
    ^bb0(%arg31: tensor<i32>, %arg32: tensor<4xf32>):
      %33 = "stablehlo.compare"(%arg31, %arg25) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%33) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg29: tensor<i32>, %arg30: tensor<4xf32>):
      %31 = "stablehlo.add"(%arg29, %19) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      %32 = "stablehlo.sine"(%arg30) : (tensor<4xf32>) -> tensor<4xf32>
      "stablehlo.return"(%31, %32) : (tensor<i32>, tensor<4xf32>) -> ()
    }) : (tensor<i32>, tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>)
    %21 = "stablehlo.while"(%arg25) ({
    ^bb0(%arg28: tensor<i32>):
      %30 = "stablehlo.compare"(%arg28, %19) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%30) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg27: tensor<i32>):
      %29 = "stablehlo.subtract"(%arg27, %19) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%29) : (tensor<i32>) -> ()
    }) {mhlo.frontend_attributes = {loop = "1"}} : (tensor<i32>) -> tensor<i32>
    %22 = "stablehlo.compare"(%arg25, %19) <{comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %23 = "stablehlo.if"(%22) ({
      %28 = "stablehlo.sine"(%arg26) : (tensor<4xf32>) -> tensor<4xf32>
      "stablehlo.return"(%28) : (tensor<4xf32>) -> ()
    }, {
      "stablehlo.return"(%arg26) : (tensor<4xf32>) -> ()
    }) : (tensor<i1>) -> tensor<4xf32>
    %24:2 = "stablehlo.case"(%arg25) ({
      "stablehlo.return"(%arg25, %arg26) : (tensor<i32>, tensor<4xf32>) -> ()
    }, {
      %27 = "stablehlo.cosine"(%arg26) : (tensor<4xf32>) -> tensor<4xf32>
      "stablehlo.return"(%19, %27) : (tensor<i32>, tensor<4xf32>) -> ()
    }, {
      "stablehlo.return"(%19, %23) : (tensor<i32>, tensor<4xf32>) -> ()
    }) : (tensor<i32>) -> (tensor<i32>, tensor<4xf32>)
    %25 = "func.call"(%24#1) <{callee = @helper}> : (tensor<4xf32>) -> tensor<4xf32>
    %26 = "func.call"(%25) <{callee = @helper}> {mhlo.sharding = "{replicated}"} : (tensor<4xf32>) -> tensor<4xf32>
    "func.return"(%20#0, %26) : (tensor<i32>, tensor<4xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4xf32>) -> tensor<4xf32>, sym_name = "helper", sym_visibility = "private"}> ({
  ^bb0(%arg24: tensor<4xf32>):
    %18 = "stablehlo.negate"(%arg24) : (tensor<4xf32>) -> tensor<4xf32>
    "func.return"(%18) : (tensor<4xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4x6xf32>, tensor<4x6xi32>, tensor<f32>, tensor<2x3xf32>) -> tensor<4x6xf32>, sym_name = "sort_map_window"}> ({
  ^bb0(%arg8: tensor<4x6xf32>, %arg9: tensor<4x6xi32>, %arg10: tensor<f32>, %arg11: tensor<2x3xf32>):
    %9:2 = "stablehlo.sort"(%arg8, %arg9) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg20: tensor<f32>, %arg21: tensor<f32>, %arg22: tensor<i32>, %arg23: tensor<i32>):
      %17 = "stablehlo.compare"(%arg20, %arg21) <{compare_type = #stablehlo<comparison_type TOTALORDER>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      "stablehlo.return"(%17) : (tensor<i1>) -> ()
    }) : (tensor<4x6xf32>, tensor<4x6xi32>) -> (tensor<4x6xf32>, tensor<4x6xi32>)
    %10 = "stablehlo.map"(%arg8, %arg8) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg18: tensor<f32>, %arg19: tensor<f32>):
      %16 = "stablehlo.multiply"(%arg18, %arg19) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%16) : (tensor<f32>) -> ()
    }) : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
    %11 = "stablehlo.reduce_window"(%arg8, %arg10) <{base_dilations = array<i64: 1, 1>, padding = dense<[[0, 0], [1, 1]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 2>}> ({
    ^bb0(%arg16: tensor<f32>, %arg17: tensor<f32>):
      %15 = "stablehlo.maximum"(%arg16, %arg17) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%15) : (tensor<f32>) -> ()
    }) : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x3xf32>
    %12 = "stablehlo.select_and_scatter"(%arg8, %arg11, %arg10) <{padding = dense<0> : tensor<2x2xi64>, window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
    ^bb0(%arg14: tensor<f32>, %arg15: tensor<f32>):
      %14 = "stablehlo.compare"(%arg14, %arg15) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      "stablehlo.return"(%14) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg12: tensor<f32>, %arg13: tensor<f32>):
      %13 = "stablehlo.add"(%arg12, %arg13) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%13) : (tensor<f32>) -> ()
    }) : (tensor<4x6xf32>, tensor<2x3xf32>, tensor<f32>) -> tensor<4x6xf32>
    "func.return"(%12) : (tensor<4x6xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<5x3xf32>, tensor<4x1xi32>, tensor<4x3xf32>, tensor<2xi32>) -> tensor<5x3xf32>, sym_name = "gather_scatter"}> ({
  ^bb0(%arg0: tensor<5x3xf32>, %arg1: tensor<4x1xi32>, %arg2: tensor<4x3xf32>, %arg3: tensor<2xi32>):
    %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 3>}> : (tensor<5x3xf32>, tensor<4x1xi32>) -> tensor<4x3xf32>
    %1 = "stablehlo.scatter"(%arg0, %arg1, %arg2) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      %8 = "stablehlo.add"(%arg6, %arg7) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%8) : (tensor<f32>) -> ()
    }) : (tensor<5x3xf32>, tensor<4x1xi32>, tensor<4x3xf32>) -> tensor<5x3xf32>
    %2 = "stablehlo.dynamic_gather"(%arg0, %arg1, %arg3) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>}> : (tensor<5x3xf32>, tensor<4x1xi32>, tensor<2xi32>) -> tensor<4x3xf32>
    %3 = "stablehlo.reshape"(%arg0) : (tensor<5x3xf32>) -> tensor<1x5x3xf32>
    %4 = "stablehlo.reshape"(%arg1) : (tensor<4x1xi32>) -> tensor<1x4x1xi32>
    %5 = "stablehlo.gather"(%3, %4) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 3>}> : (tensor<1x5x3xf32>, tensor<1x4x1xi32>) -> tensor<1x4x3xf32>
    %6 = "stablehlo.reshape"(%arg2) : (tensor<4x3xf32>) -> tensor<1x4x3xf32>
    %7 = "stablehlo.scatter"(%3, %4, %6) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      "stablehlo.return"(%arg5) : (tensor<f32>) -> ()
    }) : (tensor<1x5x3xf32>, tensor<1x4x1xi32>, tensor<1x4x3xf32>) -> tensor<1x5x3xf32>
    "func.return"(%1) : (tensor<5x3xf32>) -> ()
  }) : () -> ()
}) : () -> ()

