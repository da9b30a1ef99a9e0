// Regression: stablehlo.square (newer upstream op) and chlo.mulhi; expected values computed by hand /
// Python integers (x*x wrapped to the width; mulhi = (a*b) >> N in exact arithmetic).

func.func @main() {
  %i = stablehlo.constant dense<[-3, 46341, 0]> : tensor<3xi32>
  %ri = stablehlo.square %i : tensor<3xi32>
  check.expect_eq_const %ri, dense<[9, -2147479015, 0]> : tensor<3xi32>
  %f = stablehlo.constant dense<[1.5, -2.0, 0x7F800000]> : tensor<3xf32>
  %rf = stablehlo.square %f : tensor<3xf32>
  check.expect_eq_const %rf, dense<[2.25, 4.0, 0x7F800000]> : tensor<3xf32>
  func.return
}

// -----

// complex square: (x - y)(x + y) + 2xy i, exactly 0 real part when |x| == |y| (finite), so no inf - inf
func.func @main() {
  %z = stablehlo.constant dense<[(3.0, 4.0), (1.0e200, 1.0e200), (1.0e200, -1.0e200), (0.0, 1.0)]> : tensor<4xcomplex<f64>>
  %r = stablehlo.square %z : tensor<4xcomplex<f64>>
  check.expect_eq_const %r, dense<[(-7.0, 24.0), (0.0, 0x7FF0000000000000), (0.0, 0xFFF0000000000000), (-1.0, 0.0)]> : tensor<4xcomplex<f64>>
  %c = "chlo.square"(%z) : (tensor<4xcomplex<f64>>) -> tensor<4xcomplex<f64>>
  check.expect_eq_const %c, dense<[(-7.0, 24.0), (0.0, 0x7FF0000000000000), (0.0, 0xFFF0000000000000), (-1.0, 0.0)]> : tensor<4xcomplex<f64>>
  func.return
}

// -----

func.func @main() {
  %a = stablehlo.constant dense<[1073741824, -1, -1, -2147483648]> : tensor<4xi32>
  %b = stablehlo.constant dense<[8, -1, 1, -2147483648]> : tensor<4xi32>
  %r = "chlo.mulhi"(%a, %b) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  check.expect_eq_const %r, dense<[2, 0, -1, 1073741824]> : tensor<4xi32>
  %ua = stablehlo.constant dense<[4294967295, 3]> : tensor<2xui32>
  %ub = stablehlo.constant dense<[4294967295, 5]> : tensor<2xui32>
  %ur = "chlo.mulhi"(%ua, %ub) : (tensor<2xui32>, tensor<2xui32>) -> tensor<2xui32>
  check.expect_eq_const %ur, dense<[4294967294, 0]> : tensor<2xui32>
  %la = stablehlo.constant dense<[4611686018427387904, -9223372036854775808]> : tensor<2xi64>
  %lb = stablehlo.constant dense<[4, -1]> : tensor<2xi64>
  %lr = "chlo.mulhi"(%la, %lb) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  check.expect_eq_const %lr, dense<[1, 0]> : tensor<2xi64>
  %ba = stablehlo.constant dense<[255, 16]> : tensor<2xui8>
  %bb = stablehlo.constant dense<[255, 16]> : tensor<2xui8>
  %br = "chlo.mulhi"(%ba, %bb) : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xui8>
  check.expect_eq_const %br, dense<[254, 1]> : tensor<2xui8>
  func.return
}
