// i32 division and remainder with the divisors C leaves undefined (0; -1 under the minimum): every pair of
// 16 edge values (the test's inputs), each op alone and fused into one chain.
func.func @main(%a: tensor<256xi32>, %b: tensor<256xi32>) -> (tensor<256xi32>, tensor<256xi32>, tensor<256xi32>) {
  %q = stablehlo.divide %a, %b : tensor<256xi32>
  %r = stablehlo.remainder %a, %b : tensor<256xi32>
  %m = stablehlo.multiply %q, %b : tensor<256xi32>
  %s = stablehlo.add %m, %r : tensor<256xi32>
  %x = stablehlo.xor %s, %q : tensor<256xi32>
  return %q, %r, %x : tensor<256xi32>, tensor<256xi32>, tensor<256xi32>
}
