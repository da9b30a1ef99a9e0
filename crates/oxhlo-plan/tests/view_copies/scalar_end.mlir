// A chain of a slice, a transpose and a reshape to rank 0: the slice and the transpose are one copy, the
// reshape to a scalar stays an op (a retype of the copy's single element).
func.func @main(%x: tensor<8x4xf32>) -> tensor<f32> {
  %0 = stablehlo.slice %x [2:3, 1:2] : (tensor<8x4xf32>) -> tensor<1x1xf32>
  %1 = stablehlo.transpose %0, dims = [1, 0] : (tensor<1x1xf32>) -> tensor<1x1xf32>
  %2 = stablehlo.reshape %1 : (tensor<1x1xf32>) -> tensor<f32>
  return %2 : tensor<f32>
}
