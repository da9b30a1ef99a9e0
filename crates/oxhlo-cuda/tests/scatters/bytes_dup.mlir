// Written by hand: scatters of 1-byte elements whose updates collide (rows 1, 3, 1, 0, 3 of the
// operand): an i8 maximum, a u8 addition that wraps, a bool `or` and an i8 computation that is not
// commutative (current - update): each byte's compare-and-swap loop on its aligned 4-byte word, beside
// neighbours other updates change at the same time. Integers and booleans combine exactly whatever
// the order, except the subtraction, whose updates go to distinct rows. Expected values: the
// reference interpreter.
func.func @main(%a: tensor<5x7xi8>, %b: tensor<5x7xi8>, %c: tensor<5x7xui8>, %d: tensor<5x7xui8>, %e: tensor<5x7xi1>, %f: tensor<5x7xi1>) -> (tensor<5x7xi8>, tensor<5x7xui8>, tensor<5x7xi1>, tensor<5x7xi8>) {
  %idx = stablehlo.constant dense<[[1], [3], [1], [0], [3]]> : tensor<5x1xi32>
  %distinct = stablehlo.constant dense<[[4], [2], [0], [1], [3]]> : tensor<5x1xi32>
  %0 = "stablehlo.scatter"(%a, %idx, %b) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%x: tensor<i8>, %y: tensor<i8>):
    %m = stablehlo.maximum %x, %y : tensor<i8>
    stablehlo.return %m : tensor<i8>
  }) : (tensor<5x7xi8>, tensor<5x1xi32>, tensor<5x7xi8>) -> tensor<5x7xi8>
  %1 = "stablehlo.scatter"(%c, %idx, %d) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%x: tensor<ui8>, %y: tensor<ui8>):
    %s = stablehlo.add %x, %y : tensor<ui8>
    stablehlo.return %s : tensor<ui8>
  }) : (tensor<5x7xui8>, tensor<5x1xi32>, tensor<5x7xui8>) -> tensor<5x7xui8>
  %2 = "stablehlo.scatter"(%e, %idx, %f) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%x: tensor<i1>, %y: tensor<i1>):
    %o = stablehlo.or %x, %y : tensor<i1>
    stablehlo.return %o : tensor<i1>
  }) : (tensor<5x7xi1>, tensor<5x1xi32>, tensor<5x7xi1>) -> tensor<5x7xi1>
  %3 = "stablehlo.scatter"(%a, %distinct, %b) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = true}> ({
  ^bb0(%x: tensor<i8>, %y: tensor<i8>):
    %s = stablehlo.subtract %x, %y : tensor<i8>
    stablehlo.return %s : tensor<i8>
  }) : (tensor<5x7xi8>, tensor<5x1xi32>, tensor<5x7xi8>) -> tensor<5x7xi8>
  return %0, %1, %2, %3 : tensor<5x7xi8>, tensor<5x7xui8>, tensor<5x7xi1>, tensor<5x7xi8>
}
