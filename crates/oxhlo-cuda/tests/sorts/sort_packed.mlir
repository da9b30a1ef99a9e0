// Written by hand: one-key sorts in sort_packed.rs' form (key and position in one 64-bit slot) on rows
// a block sorts: jnp.argsort's comparator over rows of 1000 f32 (1024 slots: steps in registers, across
// lanes and through shared memory), u32 keys along dimension 0 (300 rows 4 apart), booleans
// descending, and i16 keys carrying f32 values over rows of 3000 (4096 slots, sixteen a thread).
func.func @main(%x: tensor<5x1000xf32>, %u: tensor<300x4xui32>, %b: tensor<7x40xi1>, %h: tensor<3x3000xi16>, %v: tensor<3x3000xf32>) -> (tensor<5x1000xf32>, tensor<5x1000xi32>, tensor<300x4xui32>, tensor<7x40xi1>, tensor<3x3000xi16>, tensor<3x3000xf32>) {
  %i = stablehlo.iota dim = 1 : tensor<5x1000xi32>
  %0:2 = "stablehlo.sort"(%x, %i) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %c: tensor<f32>, %d: tensor<i32>, %e: tensor<i32>):
    %z = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.compare EQ, %a, %z, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %2 = stablehlo.select %1, %z, %a : tensor<i1>, tensor<f32>
    %3 = stablehlo.compare NE, %a, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %nan = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %4 = stablehlo.select %3, %nan, %2 : tensor<i1>, tensor<f32>
    %5 = stablehlo.compare EQ, %c, %z, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %6 = stablehlo.select %5, %z, %c : tensor<i1>, tensor<f32>
    %7 = stablehlo.compare NE, %c, %c, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %8 = stablehlo.select %7, %nan, %6 : tensor<i1>, tensor<f32>
    %9 = stablehlo.compare LT, %4, %8, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %9 : tensor<i1>
  }) : (tensor<5x1000xf32>, tensor<5x1000xi32>) -> (tensor<5x1000xf32>, tensor<5x1000xi32>)
  %10 = "stablehlo.sort"(%u) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%p: tensor<ui32>, %q: tensor<ui32>):
    %11 = stablehlo.compare LT, %p, %q, UNSIGNED : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
    stablehlo.return %11 : tensor<i1>
  }) : (tensor<300x4xui32>) -> tensor<300x4xui32>
  %20 = "stablehlo.sort"(%b) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%p: tensor<i1>, %q: tensor<i1>):
    %21 = stablehlo.compare GT, %p, %q, UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
    stablehlo.return %21 : tensor<i1>
  }) : (tensor<7x40xi1>) -> tensor<7x40xi1>
  %30:2 = "stablehlo.sort"(%h, %v) <{dimension = 1 : i64, is_stable = false}> ({
  ^bb0(%p: tensor<i16>, %q: tensor<i16>, %r: tensor<f32>, %s: tensor<f32>):
    %31 = stablehlo.compare LT, %p, %q, SIGNED : (tensor<i16>, tensor<i16>) -> tensor<i1>
    stablehlo.return %31 : tensor<i1>
  }) : (tensor<3x3000xi16>, tensor<3x3000xf32>) -> (tensor<3x3000xi16>, tensor<3x3000xf32>)
  return %0#0, %0#1, %10, %20, %30#0, %30#1 : tensor<5x1000xf32>, tensor<5x1000xi32>, tensor<300x4xui32>, tensor<7x40xi1>, tensor<3x3000xi16>, tensor<3x3000xf32>
}
