// A two-layer perceptron on a batch of 2, written by hand: relu(x @ w1 + b1) @ w2.
// `oxhlo run examples/mlp.mlir` evaluates @main (it takes no arguments) and prints the result:
// [[5.0, 0.0], [9.0, 1.0]] (NumPy: np.maximum(x @ w1 + b1, 0) @ w2).
func.func @main() -> tensor<2x2xf32> {
  %x = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %w1 = stablehlo.constant dense<[[1.0, -1.0, 0.5], [0.5, 1.0, 0.0]]> : tensor<2x3xf32>
  %b1 = stablehlo.constant dense<[0.0, 0.0, 0.5]> : tensor<3xf32>
  %w2 = stablehlo.constant dense<[[1.0, 0.0], [2.0, -1.0], [1.0, 1.0]]> : tensor<3x2xf32>
  %h0 = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<2x2xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %bb = stablehlo.broadcast_in_dim %b1, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  %h1 = stablehlo.add %h0, %bb : tensor<2x3xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<2x3xf32>
  %h = stablehlo.maximum %h1, %zero : tensor<2x3xf32>
  %y = stablehlo.dot_general %h, %w2, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}
