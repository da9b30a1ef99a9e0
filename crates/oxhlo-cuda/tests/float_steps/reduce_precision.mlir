// reduce_precision (lax.reduce_precision: a narrower format emulated in a wider one) of f32 to bf16's and
// to the spec example's (5 exponent, 2 mantissa bits) formats, of f32 with no mantissa bit left (NaNs
// become infinities), of f64 to f32's format, and of bf16 and f16 to narrower ones; the inputs carry NaNs,
// signed zeros, infinities, subnormals, ties and values past the narrow formats' ranges.
func.func @main(%a: tensor<300xf32>, %c: tensor<150xf64>, %e: tensor<120xbf16>, %g: tensor<90xf16>) -> (tensor<300xf32>, tensor<300xf32>, tensor<300xf32>, tensor<150xf64>, tensor<120xbf16>, tensor<90xf16>) {
  %s = stablehlo.constant dense<1.0e+03> : tensor<300xf32>
  %as = stablehlo.multiply %a, %s : tensor<300xf32>
  %0 = stablehlo.reduce_precision %a, format = e8m7 : tensor<300xf32>
  %1 = stablehlo.reduce_precision %as, format = e5m2 : tensor<300xf32>
  %2 = stablehlo.reduce_precision %a, format = e3m0 : tensor<300xf32>
  %3 = stablehlo.reduce_precision %c, format = e8m23 : tensor<150xf64>
  %4 = stablehlo.reduce_precision %e, format = e4m3 : tensor<120xbf16>
  %5 = stablehlo.reduce_precision %g, format = e4m2 : tensor<90xf16>
  return %0, %1, %2, %3, %4, %5 : tensor<300xf32>, tensor<300xf32>, tensor<300xf32>, tensor<150xf64>, tensor<120xbf16>, tensor<90xf16>
}
