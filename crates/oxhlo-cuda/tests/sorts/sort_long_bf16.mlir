// One row of 5000 bf16 values (not a power of two: 8192 positions, the last 3192 sort last), descending
// by a GT compare; and a row of 5000 u32 ascending in one launch per operand.
func.func @main(%x: tensor<5000xbf16>, %u: tensor<5000xui32>) -> (tensor<5000xbf16>, tensor<5000xui32>) {
  %0 = "stablehlo.sort"(%x) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
    %1 = stablehlo.compare GT, %a, %b, FLOAT : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) : (tensor<5000xbf16>) -> tensor<5000xbf16>
  %2 = "stablehlo.sort"(%u) <{dimension = -1 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<ui32>, %b: tensor<ui32>):
    %3 = stablehlo.compare LT, %a, %b, UNSIGNED : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
    stablehlo.return %3 : tensor<i1>
  }) : (tensor<5000xui32>) -> tensor<5000xui32>
  return %0, %2 : tensor<5000xbf16>, tensor<5000xui32>
}
