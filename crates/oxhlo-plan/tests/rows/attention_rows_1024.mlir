// masked softmax over the last dim of [batch, heads, queries, keys] scores of 1024 keys (a block per row,
// 4 elements a thread held in registers: the mask and the scores read once)
func.func @main(%x: tensor<1x2x24x1024xf32>, %mask: tensor<24x1024xi1>) -> tensor<1x2x24x1024xf32> {
  %big = stablehlo.constant dense<-1.000000e+09> : tensor<f32>
  %bigb = stablehlo.broadcast_in_dim %big, dims = [] : (tensor<f32>) -> tensor<1x2x24x1024xf32>
  %mb = stablehlo.broadcast_in_dim %mask, dims = [2, 3] : (tensor<24x1024xi1>) -> tensor<1x2x24x1024xi1>
  %sc = stablehlo.select %mb, %x, %bigb : tensor<1x2x24x1024xi1>, tensor<1x2x24x1024xf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %m = stablehlo.reduce(%sc init: %ninf) applies stablehlo.maximum across dimensions = [3] : (tensor<1x2x24x1024xf32>, tensor<f32>) -> tensor<1x2x24xf32>
  %m1 = stablehlo.broadcast_in_dim %m, dims = [0, 1, 2] : (tensor<1x2x24xf32>) -> tensor<1x2x24x1xf32>
  %m2 = stablehlo.broadcast_in_dim %m1, dims = [0, 1, 2, 3] : (tensor<1x2x24x1xf32>) -> tensor<1x2x24x1024xf32>
  %d = stablehlo.subtract %sc, %m2 : tensor<1x2x24x1024xf32>
  %e = stablehlo.exponential %d : tensor<1x2x24x1024xf32>
  %z = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %s = stablehlo.reduce(%e init: %z) applies stablehlo.add across dimensions = [3] : (tensor<1x2x24x1024xf32>, tensor<f32>) -> tensor<1x2x24xf32>
  %s1 = stablehlo.broadcast_in_dim %s, dims = [0, 1, 2] : (tensor<1x2x24xf32>) -> tensor<1x2x24x1xf32>
  %s2 = stablehlo.broadcast_in_dim %s1, dims = [0, 1, 2, 3] : (tensor<1x2x24x1xf32>) -> tensor<1x2x24x1024xf32>
  %r = stablehlo.divide %e, %s2 : tensor<1x2x24x1024xf32>
  return %r : tensor<1x2x24x1024xf32>
}
