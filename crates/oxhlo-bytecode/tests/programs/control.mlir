// Control flow, calls between functions with visibility and argument/result
// attributes, tuples, tokens, composites and optimization barriers.
module @control attributes {mhlo.frontend_attributes = {a = "1"}, mhlo.num_partitions = 1 : i32} {
  func.func public @main(%x: tensor<4xf32> {jax.arg_info = "x", mhlo.sharding = "{replicated}"}, %n: tensor<i32>) -> (tensor<4xf32> {jax.result_info = "r"}, tensor<i32>) attributes {jax.uses_shape_polymorphism = false} {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %c1 = stablehlo.constant dense<1> : tensor<i32>
    %w:2 = stablehlo.while(%i = %c0, %v = %x) : tensor<i32>, tensor<4xf32>
     cond {
      %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %i2 = stablehlo.add %i, %c1 : tensor<i32>
      %v2 = func.call @step(%v) : (tensor<4xf32>) -> tensor<4xf32>
      stablehlo.return %i2, %v2 : tensor<i32>, tensor<4xf32>
    }
    %p = stablehlo.compare GT, %n, %c0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %r = "stablehlo.if"(%p) ({
      %a = stablehlo.negate %w#1 : tensor<4xf32>
      stablehlo.return %a : tensor<4xf32>
    }, {
      stablehlo.return %w#1 : tensor<4xf32>
    }) : (tensor<i1>) -> tensor<4xf32>
    %k = "stablehlo.case"(%n) ({
      stablehlo.return %r : tensor<4xf32>
    }, {
      %e = stablehlo.exponential %r : tensor<4xf32>
      stablehlo.return %e : tensor<4xf32>
    }, {
      %s = stablehlo.sine %r : tensor<4xf32>
      stablehlo.return %s : tensor<4xf32>
    }) : (tensor<i32>) -> tensor<4xf32>
    %t = stablehlo.tuple %k, %n : tuple<tensor<4xf32>, tensor<i32>>
    %g = stablehlo.get_tuple_element %t[0] : (tuple<tensor<4xf32>, tensor<i32>>) -> tensor<4xf32>
    %b:2 = stablehlo.optimization_barrier %g, %n : tensor<4xf32>, tensor<i32>
    %tok = stablehlo.create_token : !stablehlo.token
    %tok2 = stablehlo.after_all %tok, %tok : !stablehlo.token
    %cmp = stablehlo.composite "my.double" %b#0 {composite_attributes = {factor = 2 : i64}, decomposition = @double, version = 3 : i32} : (tensor<4xf32>) -> tensor<4xf32>
    %cmp0 = stablehlo.composite "my.plain" %cmp {decomposition = @double} : (tensor<4xf32>) -> tensor<4xf32>
    return %cmp0, %b#1 : tensor<4xf32>, tensor<i32>
  }
  func.func private @step(%v: tensor<4xf32>) -> tensor<4xf32> {
    %h = stablehlo.constant dense<5.000000e-01> : tensor<4xf32>
    %m = stablehlo.multiply %v, %h : tensor<4xf32>
    return %m : tensor<4xf32>
  }
  func.func private @double(%v: tensor<4xf32>) -> tensor<4xf32> {
    %m = stablehlo.add %v, %v : tensor<4xf32>
    return %m : tensor<4xf32>
  }
}
