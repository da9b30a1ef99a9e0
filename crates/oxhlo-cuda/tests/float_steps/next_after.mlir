// chlo.next_after (jax.random.truncated_normal, and so Flax's default initializers, step their bounds
// with it) of every element type's own format: f32 and f64 pairs with NaNs, signed zeros, infinities,
// the smallest subnormal, the most negative finite value and ties (x == y gives y); bf16 and f16 pairs
// with signed zeros, infinities, f16's largest finite value and its smallest subnormal. Each pair's
// operands are two arguments, and each argument against itself reversed.
func.func @main(%a: tensor<200xf32>, %b: tensor<200xf32>, %c: tensor<150xf64>, %d: tensor<150xf64>, %e: tensor<120xbf16>, %f: tensor<120xbf16>, %g: tensor<90xf16>, %h: tensor<90xf16>) -> (tensor<200xf32>, tensor<200xf32>, tensor<150xf64>, tensor<150xf64>, tensor<120xbf16>, tensor<90xf16>) {
  %0 = chlo.next_after %a, %b : tensor<200xf32>, tensor<200xf32> -> tensor<200xf32>
  %ar = stablehlo.reverse %a, dims = [0] : tensor<200xf32>
  %1 = chlo.next_after %a, %ar : tensor<200xf32>, tensor<200xf32> -> tensor<200xf32>
  %2 = chlo.next_after %c, %d : tensor<150xf64>, tensor<150xf64> -> tensor<150xf64>
  %cr = stablehlo.reverse %c, dims = [0] : tensor<150xf64>
  %3 = chlo.next_after %c, %cr : tensor<150xf64>, tensor<150xf64> -> tensor<150xf64>
  %4 = chlo.next_after %e, %f : tensor<120xbf16>, tensor<120xbf16> -> tensor<120xbf16>
  %5 = chlo.next_after %g, %h : tensor<90xf16>, tensor<90xf16> -> tensor<90xf16>
  return %0, %1, %2, %3, %4, %5 : tensor<200xf32>, tensor<200xf32>, tensor<150xf64>, tensor<150xf64>, tensor<120xbf16>, tensor<90xf16>
}
