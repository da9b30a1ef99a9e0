// Three operands sorted along dimension 0 of [50, 3] (three interleaved columns a row apart): by an
// i32 key ascending, then an f32 key descending; the payload follows. Not declared stable.
func.func @main(%k: tensor<50x3xi32>, %f: tensor<50x3xf32>, %p: tensor<50x3xi32>) -> (tensor<50x3xi32>, tensor<50x3xf32>, tensor<50x3xi32>) {
  %0:3 = "stablehlo.sort"(%k, %f, %p) <{dimension = 0 : i64, is_stable = false}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<f32>, %e: tensor<i32>, %g: tensor<i32>):
    %lt = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %eq = stablehlo.compare EQ, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %gt = stablehlo.compare GT, %c, %d, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %t = stablehlo.and %eq, %gt : tensor<i1>
    %r = stablehlo.or %lt, %t : tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) : (tensor<50x3xi32>, tensor<50x3xf32>, tensor<50x3xi32>) -> (tensor<50x3xi32>, tensor<50x3xf32>, tensor<50x3xi32>)
  return %0#0, %0#1, %0#2 : tensor<50x3xi32>, tensor<50x3xf32>, tensor<50x3xi32>
}
