// Quantized types (per-tensor, per-axis, narrowed storage ranges, unsigned storage)
// next to tokens, bounded dynamism, chlo enums and result accuracies.
func.func @main(%x: tensor<4xf32>, %t: !stablehlo.token, %b: tensor<?xf32, #stablehlo.bounds<8>>) -> (tensor<4x!quant.uniform<i8:f32, 5.000000e-01:3>>, tensor<2x4x!quant.uniform<u8<1:200>:f32:0, {5.000000e-01:1,2.500000e-01:2}>>, tensor<4xi1>) {
  %q = stablehlo.uniform_quantize %x : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 5.000000e-01:3>>
  %r = stablehlo.uniform_quantize %q : (tensor<4x!quant.uniform<i8:f32, 5.000000e-01:3>>) -> tensor<4x!quant.uniform<i8<-127:127>:f32, 2.500000e-01:-1>>
  %d = stablehlo.uniform_dequantize %r : (tensor<4x!quant.uniform<i8<-127:127>:f32, 2.500000e-01:-1>>) -> tensor<4xf32>
  %c = stablehlo.constant dense<1> : tensor<2x4xui8>
  %q2 = stablehlo.bitcast_convert %c : (tensor<2x4xui8>) -> tensor<2x4x!quant.uniform<u8<1:200>:f32:0, {5.000000e-01:1,2.500000e-01:2}>>
  %cmp = chlo.broadcast_compare %x, %x {comparison_direction = #chlo<comparison_direction LT>, compare_type = #chlo<comparison_type FLOAT>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %e = stablehlo.exponential %x {result_accuracy = #stablehlo.result_accuracy<atol = 1.000000e-05, rtol = 0.000000e+00, ulps = 2, mode = #stablehlo.result_accuracy_mode<TOLERANCE>>} : tensor<4xf32>
  %l = stablehlo.log %x {result_accuracy = #stablehlo.result_accuracy<mode = #stablehlo.result_accuracy_mode<HIGHEST>>} : tensor<4xf32>
  return %q, %q2, %cmp : tensor<4x!quant.uniform<i8:f32, 5.000000e-01:3>>, tensor<2x4x!quant.uniform<u8<1:200>:f32:0, {5.000000e-01:1,2.500000e-01:2}>>, tensor<4xi1>
}
