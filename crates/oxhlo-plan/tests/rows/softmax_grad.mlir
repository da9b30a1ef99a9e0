// softmax over rows of 40 and its gradient as JAX's autodiff of exp / sum writes it, with a batched dot
// between them (the forward and backward are two row kernels): the backward divides by the row sums
// broadcast to the full shape and multiplies by the exponentials, which the backward kernel computes
// itself from the input and the stored row maxima and sums (oxhlo_plan::recompute) instead of reading
// full-shape copies of them
func.func @main(%x: tensor<2x3x8x40xf32>, %w: tensor<2x3x40x40xf32>) -> (tensor<2x3x8x40xf32>, tensor<2x3x8x40xf32>) {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %m = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [3] : (tensor<2x3x8x40xf32>, tensor<f32>) -> tensor<2x3x8xf32>
  %mb = stablehlo.broadcast_in_dim %m, dims = [0, 1, 2] : (tensor<2x3x8xf32>) -> tensor<2x3x8x40xf32>
  %d = stablehlo.subtract %x, %mb : tensor<2x3x8x40xf32>
  %e = stablehlo.exponential %d : tensor<2x3x8x40xf32>
  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [3] : (tensor<2x3x8x40xf32>, tensor<f32>) -> tensor<2x3x8xf32>
  %sb = stablehlo.broadcast_in_dim %s, dims = [0, 1, 2] : (tensor<2x3x8xf32>) -> tensor<2x3x8x40xf32>
  %p = stablehlo.divide %e, %sb : tensor<2x3x8x40xf32>
  %dp = stablehlo.dot_general %p, %w, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [HIGHEST, HIGHEST] : (tensor<2x3x8x40xf32>, tensor<2x3x40x40xf32>) -> tensor<2x3x8x40xf32>
  %ge = stablehlo.divide %dp, %sb : tensor<2x3x8x40xf32>
  %t = stablehlo.multiply %dp, %e : tensor<2x3x8x40xf32>
  %ts = stablehlo.reduce(%t init: %zero) applies stablehlo.add across dimensions = [3] : (tensor<2x3x8x40xf32>, tensor<f32>) -> tensor<2x3x8xf32>
  %s2 = stablehlo.multiply %s, %s : tensor<2x3x8xf32>
  %c = stablehlo.divide %ts, %s2 : tensor<2x3x8xf32>
  %cb = stablehlo.broadcast_in_dim %c, dims = [0, 1, 2] : (tensor<2x3x8xf32>) -> tensor<2x3x8x40xf32>
  %g = stablehlo.subtract %ge, %cb : tensor<2x3x8x40xf32>
  %dx = stablehlo.multiply %g, %e : tensor<2x3x8x40xf32>
  return %p, %dx : tensor<2x3x8x40xf32>, tensor<2x3x8x40xf32>
}
