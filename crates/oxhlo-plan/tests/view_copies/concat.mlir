// The gradients of q, k and v back into the fused projection's layout: concat(reshape(transpose(d))) of
// three heads-first values is one copy of three pieces; the second concatenation's pieces (i32, odd head
// size: element by element) include a strided slice chain and an operand used as it is.
func.func @main(%dq: tensor<2x4x5x4xf32>, %dk: tensor<2x4x5x4xf32>, %dv: tensor<2x4x5x4xf32>, %a: tensor<2x3x5x3xi32>, %b: tensor<2x5x9xi32>, %c: tensor<4x5x20xi32>) -> (tensor<2x5x48xf32>, tensor<2x5x28xi32>) {
  %tq = stablehlo.transpose %dq, dims = [0, 2, 1, 3] : (tensor<2x4x5x4xf32>) -> tensor<2x5x4x4xf32>
  %tk = stablehlo.transpose %dk, dims = [0, 2, 1, 3] : (tensor<2x4x5x4xf32>) -> tensor<2x5x4x4xf32>
  %tv = stablehlo.transpose %dv, dims = [0, 2, 1, 3] : (tensor<2x4x5x4xf32>) -> tensor<2x5x4x4xf32>
  %rq = stablehlo.reshape %tq : (tensor<2x5x4x4xf32>) -> tensor<2x5x16xf32>
  %rk = stablehlo.reshape %tk : (tensor<2x5x4x4xf32>) -> tensor<2x5x16xf32>
  %rv = stablehlo.reshape %tv : (tensor<2x5x4x4xf32>) -> tensor<2x5x16xf32>
  %g = stablehlo.concatenate %rq, %rk, %rv, dim = 2 : (tensor<2x5x16xf32>, tensor<2x5x16xf32>, tensor<2x5x16xf32>) -> tensor<2x5x48xf32>
  %ta = stablehlo.transpose %a, dims = [0, 2, 1, 3] : (tensor<2x3x5x3xi32>) -> tensor<2x5x3x3xi32>
  %ra = stablehlo.reshape %ta : (tensor<2x5x3x3xi32>) -> tensor<2x5x9xi32>
  %sc = stablehlo.slice %c [1:4:2, 0:5, 3:13] : (tensor<4x5x20xi32>) -> tensor<2x5x10xi32>
  %h = stablehlo.concatenate %ra, %b, %sc, dim = 2 : (tensor<2x5x9xi32>, tensor<2x5x9xi32>, tensor<2x5x10xi32>) -> tensor<2x5x28xi32>
  return %g, %h : tensor<2x5x48xf32>, tensor<2x5x28xi32>
}
