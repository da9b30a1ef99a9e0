// Float -> integer conversions (truncated, saturated to the kind's range, NaN -> 0) of NaN, infinities,
// values just inside and past each kind's range, halves and negative fractions.
func.func @main(%x: tensor<256xf32>, %y: tensor<256xf64>) -> (tensor<256xi8>, tensor<256xui8>, tensor<256xi32>, tensor<256xui32>, tensor<256xi64>, tensor<256xui64>, tensor<256xi32>, tensor<256xui64>, tensor<256xi16>) {
  %a = stablehlo.convert %x : (tensor<256xf32>) -> tensor<256xi8>
  %b = stablehlo.convert %x : (tensor<256xf32>) -> tensor<256xui8>
  %c = stablehlo.convert %x : (tensor<256xf32>) -> tensor<256xi32>
  %d = stablehlo.convert %x : (tensor<256xf32>) -> tensor<256xui32>
  %e = stablehlo.convert %x : (tensor<256xf32>) -> tensor<256xi64>
  %f = stablehlo.convert %x : (tensor<256xf32>) -> tensor<256xui64>
  %g = stablehlo.convert %y : (tensor<256xf64>) -> tensor<256xi32>
  %h = stablehlo.convert %y : (tensor<256xf64>) -> tensor<256xui64>
  %y2 = stablehlo.multiply %y, %y : tensor<256xf64>
  %i = stablehlo.convert %y2 : (tensor<256xf64>) -> tensor<256xi16>
  return %a, %b, %c, %d, %e, %f, %g, %h, %i : tensor<256xi8>, tensor<256xui8>, tensor<256xi32>, tensor<256xui32>, tensor<256xi64>, tensor<256xui64>, tensor<256xi32>, tensor<256xui64>, tensor<256xi16>
}
