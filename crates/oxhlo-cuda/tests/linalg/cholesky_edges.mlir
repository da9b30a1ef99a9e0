// Written by hand: cholesky reading the upper triangle (lower = false; JAX always asks for the lower
// one), a matrix that is not positive definite (the raw argument: its pivots turn negative, NaNs from
// there on), and an all-zero matrix (zero pivots: 0 / 0). Expected values: the reference interpreter.
func.func @main(%x: tensor<2x6x6xf32>) -> (tensor<2x6x6xf32>, tensor<2x6x6xf32>, tensor<2x6x6xf32>, tensor<2x6x6xf32>) {
  %g = stablehlo.dot_general %x, %x, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x6x6xf32>, tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %i = stablehlo.iota dim = 1 : tensor<2x6x6xi32>
  %j = stablehlo.iota dim = 2 : tensor<2x6x6xi32>
  %eq = stablehlo.compare EQ, %i, %j : (tensor<2x6x6xi32>, tensor<2x6x6xi32>) -> tensor<2x6x6xi1>
  %six = stablehlo.constant dense<6.0> : tensor<2x6x6xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<2x6x6xf32>
  %d = stablehlo.select %eq, %six, %zero : tensor<2x6x6xi1>, tensor<2x6x6xf32>
  %a = stablehlo.add %g, %d : tensor<2x6x6xf32>
  %u = stablehlo.cholesky %a, lower = false : tensor<2x6x6xf32>
  %l = stablehlo.cholesky %a, lower = true : tensor<2x6x6xf32>
  %bad = stablehlo.cholesky %x, lower = true : tensor<2x6x6xf32>
  %sq = stablehlo.multiply %x, %x : tensor<2x6x6xf32>
  %neg = stablehlo.negate %sq : tensor<2x6x6xf32>
  %zz = stablehlo.maximum %neg, %zero : tensor<2x6x6xf32>
  %zeros = stablehlo.cholesky %zz, lower = false : tensor<2x6x6xf32>
  return %u, %l, %bad, %zeros : tensor<2x6x6xf32>, tensor<2x6x6xf32>, tensor<2x6x6xf32>, tensor<2x6x6xf32>
}
