// Every element type StableHLO has, in function signatures, ops and constants; dynamic and bounded
// shapes, unranked tensors, tokens, tuples, index.
func.func @integers(%a: tensor<2xi1>, %b: tensor<2xi2>, %c: tensor<2xi4>, %d: tensor<2xi8>, %e: tensor<2xi16>, %f: tensor<2xi32>, %g: tensor<2xi64>,
                    %h: tensor<2xsi2>, %i: tensor<2xsi4>, %j: tensor<2xsi8>, %k: tensor<2xsi16>, %l: tensor<2xsi32>, %m: tensor<2xsi64>,
                    %n: tensor<2xui2>, %o: tensor<2xui4>, %p: tensor<2xui8>, %q: tensor<2xui16>, %r: tensor<2xui32>, %s: tensor<2xui64>) -> tensor<2xi1> {
  %0 = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  %1 = stablehlo.constant dense<[-2, 1]> : tensor<2xi2>
  %2 = stablehlo.constant dense<[-8, 7]> : tensor<2xi4>
  %3 = stablehlo.constant dense<[-128, 127]> : tensor<2xi8>
  %4 = stablehlo.constant dense<[-32768, 32767]> : tensor<2xi16>
  %5 = stablehlo.constant dense<[-2147483648, 2147483647]> : tensor<2xi32>
  %6 = stablehlo.constant dense<[-9223372036854775808, 9223372036854775807]> : tensor<2xi64>
  %7 = stablehlo.constant dense<[-2, 1]> : tensor<2xsi2>
  %8 = stablehlo.constant dense<[-8, 7]> : tensor<2xsi4>
  %9 = stablehlo.constant dense<[-128, 127]> : tensor<2xsi8>
  %10 = stablehlo.constant dense<[-32768, 32767]> : tensor<2xsi16>
  %11 = stablehlo.constant dense<[-2147483648, 2147483647]> : tensor<2xsi32>
  %12 = stablehlo.constant dense<[-9223372036854775808, 9223372036854775807]> : tensor<2xsi64>
  %13 = stablehlo.constant dense<[0, 3]> : tensor<2xui2>
  %14 = stablehlo.constant dense<[0, 15]> : tensor<2xui4>
  %15 = stablehlo.constant dense<[0, 255]> : tensor<2xui8>
  %16 = stablehlo.constant dense<[0, 65535]> : tensor<2xui16>
  %17 = stablehlo.constant dense<[0, 4294967295]> : tensor<2xui32>
  %18 = stablehlo.constant dense<[0, 18446744073709551615]> : tensor<2xui64>
  %19 = stablehlo.add %b, %1 : tensor<2xi2>
  %20 = stablehlo.add %n, %13 : tensor<2xui2>
  %21 = stablehlo.convert %s : (tensor<2xui64>) -> tensor<2xsi64>
  return %0 : tensor<2xi1>
}

func.func @floats(%a: tensor<2xf4E2M1FN>, %b: tensor<2xf6E2M3FN>, %c: tensor<2xf6E3M2FN>, %d: tensor<2xf8E3M4>, %e: tensor<2xf8E4M3>,
                  %f: tensor<2xf8E4M3FN>, %g: tensor<2xf8E4M3FNUZ>, %h: tensor<2xf8E4M3B11FNUZ>, %i: tensor<2xf8E5M2>, %j: tensor<2xf8E5M2FNUZ>,
                  %k: tensor<2xf8E8M0FNU>, %l: tensor<2xbf16>, %m: tensor<2xf16>, %n: tensor<2xf32>, %o: tensor<2xf64>,
                  %p: tensor<2xcomplex<f32>>, %q: tensor<2xcomplex<f64>>) -> tensor<2xf32> {
  %0 = stablehlo.constant dense<[1.500000e+00, -6.000000e+00]> : tensor<2xf4E2M1FN>
  %1 = stablehlo.constant dense<[1.250000e+00, -7.500000e+00]> : tensor<2xf6E2M3FN>
  %2 = stablehlo.constant dense<[2.800000e+01, -6.250000e-02]> : tensor<2xf6E3M2FN>
  %3 = stablehlo.constant dense<[1.000000e-01, 1.550000e+01]> : tensor<2xf8E3M4>
  %4 = stablehlo.constant dense<[1.000000e-01, 0x7F]> : tensor<2xf8E4M3>
  %5 = stablehlo.constant dense<[4.480000e+02, 0x7F]> : tensor<2xf8E4M3FN>
  %6 = stablehlo.constant dense<[2.400000e+02, 0x80]> : tensor<2xf8E4M3FNUZ>
  %7 = stablehlo.constant dense<[3.000000e+01, -1.000000e+00]> : tensor<2xf8E4M3B11FNUZ>
  %8 = stablehlo.constant dense<[5.734400e+04, 0x7C]> : tensor<2xf8E5M2>
  %9 = stablehlo.constant dense<[5.734400e+04, 0x80]> : tensor<2xf8E5M2FNUZ>
  %10 = stablehlo.constant dense<[1.000000e+00, 6.400000e+01]> : tensor<2xf8E8M0FNU>
  %11 = stablehlo.constant dense<[1.000000e-01, 0x7F80]> : tensor<2xbf16>
  %12 = stablehlo.constant dense<[6.550400e+04, 0xFC00]> : tensor<2xf16>
  %13 = stablehlo.constant dense<[1.000000e-01, 0x7FC00001]> : tensor<2xf32>
  %14 = stablehlo.constant dense<[1.000000e-01, 0xFFF0000000000000]> : tensor<2xf64>
  %15 = stablehlo.constant dense<[(1.000000e+00,-2.000000e+00), (0x7F800000,0.000000e+00)]> : tensor<2xcomplex<f32>>
  %16 = stablehlo.constant dense<(1.000000e-01,2.000000e-01)> : tensor<2xcomplex<f64>>
  %17 = stablehlo.convert %a : (tensor<2xf4E2M1FN>) -> tensor<2xf32>
  %18 = stablehlo.convert %k : (tensor<2xf8E8M0FNU>) -> tensor<2xf32>
  %19 = stablehlo.add %l, %11 : tensor<2xbf16>
  %20 = stablehlo.real %p : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  return %20 : tensor<2xf32>
}

func.func @shapes(%a: tensor<?x3xf32>, %b: tensor<?x?xf32, #stablehlo.bounds<4, ?>>, %c: tensor<*xf32>, %d: tensor<f32>, %e: tensor<0x3xf32>,
                  %t: !stablehlo.token, %u: tuple<tensor<f32>, tuple<tensor<2xi32>, !stablehlo.token>>, %v: tuple<>, %w: tensor<4xindex>,
                  %x: tensor<1x2x3x4x5x6x7xf32>) -> (tensor<?x3xf32>, !stablehlo.token) {
  %0 = stablehlo.abs %a : tensor<?x3xf32>
  %1 = stablehlo.abs %b : tensor<?x?xf32, #stablehlo.bounds<4, ?>>
  %2 = stablehlo.abs %c : tensor<*xf32>
  %3 = stablehlo.constant dense<> : tensor<0x3xf32>
  %4 = stablehlo.get_tuple_element %u[1] : (tuple<tensor<f32>, tuple<tensor<2xi32>, !stablehlo.token>>) -> tuple<tensor<2xi32>, !stablehlo.token>
  %5 = stablehlo.constant dense<[0, 1, 2, 3]> : tensor<4xindex>
  %6 = "stablehlo.abs"(%b) : (tensor<?x?xf32, #stablehlo.type_extensions<bounds = [4, ?]>>) -> tensor<?x?xf32, #stablehlo.bounds<4, ?>>
  return %0, %t : tensor<?x3xf32>, !stablehlo.token
}

func.func @tf32_attribute() attributes {tf32_values = dense<[1.000000e+00, 3.000000e-01]> : tensor<2xtf32>, tf32_scalar = 2.500000e-01 : tf32} {
  return
}
