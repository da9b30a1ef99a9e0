// layer norm as the anchor benchmark writes it, rows of 2048 (a block per row, 8 elements a thread
// held in registers between its loops: the row read once)
func.func @main(%x: tensor<16x2048xf32>, %g: tensor<2048xf32>, %b: tensor<2048xf32>) -> tensor<16x2048xf32> {
  %z = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<16x2048xf32>, tensor<f32>) -> tensor<16xf32>
  %1 = stablehlo.broadcast_in_dim %0, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
  %n = stablehlo.constant dense<2.048000e+03> : tensor<f32>
  %2 = stablehlo.broadcast_in_dim %n, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
  %3 = stablehlo.divide %1, %2 : tensor<16x1xf32>
  %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x2048xf32>
  %5 = stablehlo.subtract %x, %4 : tensor<16x2048xf32>
  %6 = stablehlo.multiply %5, %5 : tensor<16x2048xf32>
  %7 = stablehlo.reduce(%6 init: %z) applies stablehlo.add across dimensions = [1] : (tensor<16x2048xf32>, tensor<f32>) -> tensor<16xf32>
  %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
  %10 = stablehlo.divide %8, %2 : tensor<16x1xf32>
  %eps = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
  %13 = stablehlo.broadcast_in_dim %eps, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
  %14 = stablehlo.add %10, %13 : tensor<16x1xf32>
  %15 = stablehlo.rsqrt %14 : tensor<16x1xf32>
  %16 = stablehlo.broadcast_in_dim %15, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x2048xf32>
  %17 = stablehlo.multiply %5, %16 : tensor<16x2048xf32>
  %18 = stablehlo.broadcast_in_dim %g, dims = [1] : (tensor<2048xf32>) -> tensor<1x2048xf32>
  %19 = stablehlo.broadcast_in_dim %18, dims = [0, 1] : (tensor<1x2048xf32>) -> tensor<16x2048xf32>
  %20 = stablehlo.multiply %17, %19 : tensor<16x2048xf32>
  %21 = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<2048xf32>) -> tensor<1x2048xf32>
  %22 = stablehlo.broadcast_in_dim %21, dims = [0, 1] : (tensor<1x2048xf32>) -> tensor<16x2048xf32>
  %23 = stablehlo.add %20, %22 : tensor<16x2048xf32>
  return %23 : tensor<16x2048xf32>
}
