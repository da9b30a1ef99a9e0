// Rows longer than a block's shared memory holds (8192): sorted in global memory, a launch a step of the
// network. One row of 10000 f32 with jnp.sort's comparator, and jnp.argsort-like pairs over two rows
// of 9000 (the positions as a second operand).
func.func @main(%x: tensor<10000xf32>, %y: tensor<2x9000xf32>, %i: tensor<2x9000xi32>) -> (tensor<10000xf32>, tensor<2x9000xf32>, tensor<2x9000xi32>) {
  %0 = "stablehlo.sort"(%x) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %z = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.compare EQ, %a, %z, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %2 = stablehlo.select %1, %z, %a : tensor<i1>, tensor<f32>
    %3 = stablehlo.compare NE, %a, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %nan = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %4 = stablehlo.select %3, %nan, %2 : tensor<i1>, tensor<f32>
    %5 = stablehlo.compare EQ, %b, %z, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %6 = stablehlo.select %5, %z, %b : tensor<i1>, tensor<f32>
    %7 = stablehlo.compare NE, %b, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %8 = stablehlo.select %7, %nan, %6 : tensor<i1>, tensor<f32>
    %9 = stablehlo.compare LT, %4, %8, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %9 : tensor<i1>
  }) : (tensor<10000xf32>) -> tensor<10000xf32>
  %10:2 = "stablehlo.sort"(%y, %i) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %11 = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %11 : tensor<i1>
  }) : (tensor<2x9000xf32>, tensor<2x9000xi32>) -> (tensor<2x9000xf32>, tensor<2x9000xi32>)
  return %0, %10#0, %10#1 : tensor<10000xf32>, tensor<2x9000xf32>, tensor<2x9000xi32>
}
