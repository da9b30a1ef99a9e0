// four inputs' shares of their rows' total over rows of 4096: every input is read by the sum's loop
// and the output loop, so a row holds four arrays: 32 elements a thread of 128 would hold more registers
// than a row may, 16 a thread of 256 fit (the CUDA row kernel takes 256 threads)
func.func @main(%a: tensor<8x4096xf32>, %b: tensor<8x4096xf32>, %c: tensor<8x4096xf32>, %d: tensor<8x4096xf32>) -> (tensor<8x4096xf32>, tensor<8x4096xf32>, tensor<8x4096xf32>, tensor<8x4096xf32>) {
  %ab = stablehlo.add %a, %b : tensor<8x4096xf32>
  %cd = stablehlo.add %c, %d : tensor<8x4096xf32>
  %t = stablehlo.add %ab, %cd : tensor<8x4096xf32>
  %z = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %s = stablehlo.reduce(%t init: %z) applies stablehlo.add across dimensions = [1] : (tensor<8x4096xf32>, tensor<f32>) -> tensor<8xf32>
  %sb = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<8xf32>) -> tensor<8x4096xf32>
  %ra = stablehlo.divide %a, %sb : tensor<8x4096xf32>
  %rb = stablehlo.divide %b, %sb : tensor<8x4096xf32>
  %rc = stablehlo.divide %c, %sb : tensor<8x4096xf32>
  %rd = stablehlo.divide %d, %sb : tensor<8x4096xf32>
  return %ra, %rb, %rc, %rd : tensor<8x4096xf32>, tensor<8x4096xf32>, tensor<8x4096xf32>, tensor<8x4096xf32>
}
