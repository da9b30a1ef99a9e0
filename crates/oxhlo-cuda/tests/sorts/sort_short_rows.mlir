// Written by hand: many short rows, which sort a warp a row (sort_registers.rs, rows of up to 128
// slots): 37 rows of 20 f32 with jnp.sort's comparator (32 slots, one a lane, five warps' worth of
// rows), 19 rows of 128 i32 keys descending carrying i8 and i16 values (four slots a lane; 1- and
// 2-byte elements through the shuffles), and 11 rows of 3 (four slots, one lane's registers).
func.func @main(%x: tensor<37x20xf32>, %k: tensor<19x128xi32>, %a: tensor<19x128xi8>, %b: tensor<19x128xi16>, %s: tensor<11x3xf32>) -> (tensor<37x20xf32>, tensor<19x128xi32>, tensor<19x128xi8>, tensor<19x128xi16>, tensor<11x3xf32>) {
  %0 = "stablehlo.sort"(%x) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %z = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.compare EQ, %p, %z, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %2 = stablehlo.select %1, %z, %p : tensor<i1>, tensor<f32>
    %3 = stablehlo.compare NE, %p, %p, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %nan = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %4 = stablehlo.select %3, %nan, %2 : tensor<i1>, tensor<f32>
    %5 = stablehlo.compare EQ, %q, %z, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %6 = stablehlo.select %5, %z, %q : tensor<i1>, tensor<f32>
    %7 = stablehlo.compare NE, %q, %q, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %8 = stablehlo.select %7, %nan, %6 : tensor<i1>, tensor<f32>
    %9 = stablehlo.compare LT, %4, %8, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %9 : tensor<i1>
  }) : (tensor<37x20xf32>) -> tensor<37x20xf32>
  %10:3 = "stablehlo.sort"(%k, %a, %b) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%p: tensor<i32>, %q: tensor<i32>, %c: tensor<i8>, %d: tensor<i8>, %e: tensor<i16>, %f: tensor<i16>):
    %11 = stablehlo.compare GT, %p, %q, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %11 : tensor<i1>
  }) : (tensor<19x128xi32>, tensor<19x128xi8>, tensor<19x128xi16>) -> (tensor<19x128xi32>, tensor<19x128xi8>, tensor<19x128xi16>)
  %20 = "stablehlo.sort"(%s) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %21 = stablehlo.compare GT, %p, %q, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %21 : tensor<i1>
  }) : (tensor<11x3xf32>) -> tensor<11x3xf32>
  return %0, %10#0, %10#1, %10#2, %20 : tensor<37x20xf32>, tensor<19x128xi32>, tensor<19x128xi8>, tensor<19x128xi16>, tensor<11x3xf32>
}
