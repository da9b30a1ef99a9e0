// Quantized element types: per-tensor, per-axis, narrowed storage ranges, in ops and constants.
func.func @quantized(%f: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.uniform_quantize %f : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-3>>
  %1 = stablehlo.uniform_quantize %0 : (tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-3>>) -> tensor<4x!quant.uniform<u8:f32, 2.500000e-01:10>>
  %2 = stablehlo.uniform_dequantize %1 : (tensor<4x!quant.uniform<u8:f32, 2.500000e-01:10>>) -> tensor<4xf32>
  %3 = stablehlo.add %0, %0 : tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-3>>
  return %2 : tensor<4xf32>
}

func.func @per_axis(%x: tensor<2x3xf32>, %w: tensor<3x4x!quant.uniform<i8<-127:127>:f32:1, {1.000000e-01:-1,2.000000e-01,3.000000e-01:5,4.000000e-01}>>) -> tensor<2x3x!quant.uniform<i8:f32, 1.000000e-01>> {
  %0 = stablehlo.uniform_quantize %x : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i8:f32, 1.000000e-01>>
  %1 = stablehlo.constant() <{value = dense<[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]> : tensor<3x4xi8>}> : () -> tensor<3x4x!quant.uniform<i8<-127:127>:f32:1, {1.000000e-01:-1,2.000000e-01,3.000000e-01:5,4.000000e-01}>>
  %2 = stablehlo.dot_general %0, %w, contracting_dims = [1] x [0] : (tensor<2x3x!quant.uniform<i8:f32, 1.000000e-01>>, tensor<3x4x!quant.uniform<i8<-127:127>:f32:1, {1.000000e-01:-1,2.000000e-01,3.000000e-01:5,4.000000e-01}>>) -> tensor<2x4x!quant.uniform<i32:f32:1, {1.000000e-02,2.000000e-02,3.000000e-02,4.000000e-02}>>
  %3 = stablehlo.uniform_quantize %x : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<u4:bf16, 3.125000e-02:7>>
  %4 = stablehlo.uniform_quantize %x : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i16:f16, 1.234567e-03:-100>>
  return %0 : tensor<2x3x!quant.uniform<i8:f32, 1.000000e-01>>
}

func.func @generic_forms(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.uniform_quantize"(%x) : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-3>>
  %1 = "stablehlo.uniform_dequantize"(%0) : (tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-3>>) -> tensor<4xf32>
  %2 = "stablehlo.constant"() <{value = dense<[1, 2, 3, 4]> : tensor<4xi8>}> : () -> tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-3>>
  "func.return"(%1) : (tensor<4xf32>) -> ()
}
