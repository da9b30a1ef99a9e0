// Written by hand: long one-key rows that sort_merge.rs merges (chunks of 1024 slots) in an odd number
// of passes, so that the last pass reads the scratch's first slot buffer: i32 keys descending carrying
// f32 values over two rows of 5000 (8192 slots: 8 chunks, three passes), and u32 keys along dimension 0
// of [5000, 2] (two rows one element apart).
func.func @main(%k: tensor<2x5000xi32>, %v: tensor<2x5000xf32>, %u: tensor<5000x2xui32>) -> (tensor<2x5000xi32>, tensor<2x5000xf32>, tensor<5000x2xui32>) {
  %0:2 = "stablehlo.sort"(%k, %v) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<f32>):
    %1 = stablehlo.compare GT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) : (tensor<2x5000xi32>, tensor<2x5000xf32>) -> (tensor<2x5000xi32>, tensor<2x5000xf32>)
  %2 = "stablehlo.sort"(%u) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%p: tensor<ui32>, %q: tensor<ui32>):
    %3 = stablehlo.compare LT, %p, %q, UNSIGNED : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
    stablehlo.return %3 : tensor<i1>
  }) : (tensor<5000x2xui32>) -> tensor<5000x2xui32>
  return %0#0, %0#1, %2 : tensor<2x5000xi32>, tensor<2x5000xf32>, tensor<5000x2xui32>
}
