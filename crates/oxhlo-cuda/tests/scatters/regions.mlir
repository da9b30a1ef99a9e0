// Written by hand: scatters whose update computation is not commutative (current - update; keep the
// current value) or runs on 2-byte elements (i16 maximum, f16 addition: compare-and-swap on 16 bits),
// and a 64-bit integer addition (the atomic add), each into rows 3 and 0 of the operand (distinct
// targets: any order of application gives one result). Expected values: the reference interpreter.
func.func @main(%x: tensor<5x3xf32>, %u: tensor<2x3xf32>, %a: tensor<5x3xi16>, %b: tensor<2x3xi16>, %h: tensor<5x3xf16>, %g: tensor<2x3xf16>, %q: tensor<5x3xui64>, %r: tensor<2x3xui64>) -> (tensor<5x3xf32>, tensor<5x3xf32>, tensor<5x3xi16>, tensor<5x3xf16>, tensor<5x3xui64>) {
  %idx = stablehlo.constant dense<[[3], [0]]> : tensor<2x1xi32>
  %0 = "stablehlo.scatter"(%x, %idx, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = true}> ({
  ^bb0(%c: tensor<f32>, %v: tensor<f32>):
    %d = stablehlo.subtract %c, %v : tensor<f32>
    stablehlo.return %d : tensor<f32>
  }) : (tensor<5x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<5x3xf32>
  %1 = "stablehlo.scatter"(%x, %idx, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = true}> ({
  ^bb0(%c: tensor<f32>, %v: tensor<f32>):
    stablehlo.return %c : tensor<f32>
  }) : (tensor<5x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<5x3xf32>
  %2 = "stablehlo.scatter"(%a, %idx, %b) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = true}> ({
  ^bb0(%c: tensor<i16>, %v: tensor<i16>):
    %m = stablehlo.maximum %c, %v : tensor<i16>
    stablehlo.return %m : tensor<i16>
  }) : (tensor<5x3xi16>, tensor<2x1xi32>, tensor<2x3xi16>) -> tensor<5x3xi16>
  %3 = "stablehlo.scatter"(%h, %idx, %g) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = true}> ({
  ^bb0(%c: tensor<f16>, %v: tensor<f16>):
    %s = stablehlo.add %c, %v : tensor<f16>
    stablehlo.return %s : tensor<f16>
  }) : (tensor<5x3xf16>, tensor<2x1xi32>, tensor<2x3xf16>) -> tensor<5x3xf16>
  %4 = "stablehlo.scatter"(%q, %idx, %r) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = true}> ({
  ^bb0(%c: tensor<ui64>, %v: tensor<ui64>):
    %s = stablehlo.add %c, %v : tensor<ui64>
    stablehlo.return %s : tensor<ui64>
  }) : (tensor<5x3xui64>, tensor<2x1xi32>, tensor<2x3xui64>) -> tensor<5x3xui64>
  return %0, %1, %2, %3, %4 : tensor<5x3xf32>, tensor<5x3xf32>, tensor<5x3xi16>, tensor<5x3xf16>, tensor<5x3xui64>
}
