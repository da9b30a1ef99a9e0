// Constants of every element type: splats, patterns, sub-byte and bit-packed
// storage, special float values, complex numbers, empty and scalar tensors.
func.func @main() -> (tensor<5xi1>, tensor<3xi1>, tensor<9xi1>) {
  %b0 = stablehlo.constant dense<[true, false, true, true, false]> : tensor<5xi1>
  %b1 = stablehlo.constant dense<true> : tensor<3xi1>
  %b2 = stablehlo.constant dense<[true, false, false, false, false, false, false, false, true]> : tensor<9xi1>
  %i2 = stablehlo.constant dense<[-2, 1, 0]> : tensor<3xi2>
  %i4 = stablehlo.constant dense<[-8, 7, -1, 0]> : tensor<4xi4>
  %u4 = stablehlo.constant dense<[15, 0, 9]> : tensor<3xui4>
  %i8 = stablehlo.constant dense<[[-128, 127], [0, -1]]> : tensor<2x2xi8>
  %i16 = stablehlo.constant dense<-30000> : tensor<2xi16>
  %i32 = stablehlo.constant dense<[2147483647, -2147483648]> : tensor<2xi32>
  %i64 = stablehlo.constant dense<[9223372036854775807, -9223372036854775808]> : tensor<2xi64>
  %u8 = stablehlo.constant dense<[255, 0]> : tensor<2xui8>
  %u16 = stablehlo.constant dense<65535> : tensor<ui16>
  %u32 = stablehlo.constant dense<[4294967295, 1]> : tensor<2xui32>
  %u64 = stablehlo.constant dense<[18446744073709551615, 0]> : tensor<2xui64>
  %bf = stablehlo.constant dense<[1.0, -2.5, 0x7FC0, 0xFF80]> : tensor<4xbf16>
  %h = stablehlo.constant dense<[6.550400e+04, -0.0, 0x7C00]> : tensor<3xf16>
  %f = stablehlo.constant dense<[[0.1, -0.0], [0x7F800000, 0x7FC00001]]> : tensor<2x2xf32>
  %d = stablehlo.constant dense<[1.0e-300, 3.141592653589793]> : tensor<2xf64>
  %e4 = stablehlo.constant dense<[448.0, -0.5, 0.0]> : tensor<3xf8E4M3FN>
  %e5 = stablehlo.constant dense<[57344.0, 1.5]> : tensor<2xf8E5M2>
  %e4u = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf8E4M3FNUZ>
  %e5u = stablehlo.constant dense<[1.0, -4.0]> : tensor<2xf8E5M2FNUZ>
  %e4b = stablehlo.constant dense<[1.0, 0.25]> : tensor<2xf8E4M3B11FNUZ>
  %e43 = stablehlo.constant dense<[1.0, 3.0]> : tensor<2xf8E4M3>
  %e34 = stablehlo.constant dense<[1.0, 0.125]> : tensor<2xf8E3M4>
  %f4 = stablehlo.constant dense<[6.0, -0.5, 1.0]> : tensor<3xf4E2M1FN>
  %f6a = stablehlo.constant dense<[7.5, -1.0]> : tensor<2xf6E2M3FN>
  %f6b = stablehlo.constant dense<[28.0, 0.25]> : tensor<2xf6E3M2FN>
  %e8 = stablehlo.constant dense<[1.0, 2.0, 0.5]> : tensor<3xf8E8M0FNU>
  %c = stablehlo.constant dense<[(1.0, -2.0), (0.5, 0x7F800000)]> : tensor<2xcomplex<f32>>
  %cd = stablehlo.constant dense<(3.0, 4.0)> : tensor<2x2xcomplex<f64>>
  %empty = stablehlo.constant dense<> : tensor<0x3xf32>
  %scalar = stablehlo.constant dense<42> : tensor<i64>
  %one = stablehlo.constant dense<[7]> : tensor<1xi32>
  %same = stablehlo.constant dense<[2.0, 2.0, 2.0]> : tensor<3xf32>
  return %b0, %b1, %b2 : tensor<5xi1>, tensor<3xi1>, tensor<9xi1>
}
