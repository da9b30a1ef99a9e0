// u64 division and remainder with the divisors C leaves undefined (0; -1 under the minimum): every pair of
// 16 edge values (the test's inputs), each op alone and fused into one chain.
func.func @main(%a: tensor<256xui64>, %b: tensor<256xui64>) -> (tensor<256xui64>, tensor<256xui64>, tensor<256xui64>) {
  %q = stablehlo.divide %a, %b : tensor<256xui64>
  %r = stablehlo.remainder %a, %b : tensor<256xui64>
  %m = stablehlo.multiply %q, %b : tensor<256xui64>
  %s = stablehlo.add %m, %r : tensor<256xui64>
  %x = stablehlo.xor %s, %q : tensor<256xui64>
  return %q, %r, %x : tensor<256xui64>, tensor<256xui64>, tensor<256xui64>
}
