// Shardy meshes, shardings (open/closed dims, priorities, sub-axes, replicated axes),
// per-value shardings, sharding rules and manual computations, in generic form.
"builtin.module"() <{sym_name = "m"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=4]>, sym_name = "mesh"}> : () -> ()
  "sdy.mesh"() <{mesh = #sdy.mesh<["a"=2], device_ids=[1, 0]>, sym_name = "mesh2"}> : () -> ()
  "sdy.mesh"() <{mesh = #sdy.mesh<[], device_ids=[0]>, sym_name = "maximal"}> : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {"y":(1)2}p1], replicated={"y":(2)2}>}], function_type = (tensor<8x8xf32>) -> tensor<8x8xf32>, res_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{?}, {}]>}], sym_name = "main"}> ({
  ^bb0(%arg0: tensor<8x8xf32>):
    %0 = "sdy.sharding_constraint"(%arg0) <{sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}> : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %1 = "stablehlo.add"(%0, %0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>, sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=8}>} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    %2 = "sdy.manual_computation"(%1) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>, manual_axes = #sdy<manual_axes{"x"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}> ({
    ^bb0(%arg1: tensor<4x8xf32>):
      "sdy.return"(%arg1) : (tensor<4x8xf32>) -> ()
    }) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %3 = "sdy.sharding_constraint"(%2) <{sharding = #sdy.sharding<mesh<["q"=1]>, [{}, {}]>}> : (tensor<8x8xf32>) -> tensor<8x8xf32>
    "func.return"(%3) : (tensor<8x8xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32} : () -> ()
