// Negative cases for indexing: gather and scatter (every dimension-number rule, batching dimensions
// included), dynamic_gather, dynamic_slice, dynamic_update_slice and torch_index_select.

func.func @main(%arg0: tensor<3x4x2xi32>, %arg1: tensor<2x3x2xi64>) -> tensor<2x3x2x2xi32> {
  // expected-error@+1 {{stablehlo.gather: slice_sizes has 2 entries but the operand has rank 3}}
  %0 = "stablehlo.gather"(%arg0, %arg1) {dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 2>, indices_are_sorted = false} : (tensor<3x4x2xi32>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xi32>
  func.return %0 : tensor<2x3x2x2xi32>
}

// -----

func.func @main(%arg0: tensor<3x4x2xi32>, %arg1: tensor<2x3x2xi64>) -> tensor<2x3x2x2xi32> {
  // expected-error@+1 {{stablehlo.gather: operand rank 3 must equal size(offset_dims) + size(collapsed_slice_dims) + size(operand_batching_dims) = 2 + 0 + 0}}
  %0 = "stablehlo.gather"(%arg0, %arg1) {dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [], start_index_map = [1, 0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 2, 2>, indices_are_sorted = false} : (tensor<3x4x2xi32>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xi32>
  func.return %0 : tensor<2x3x2x2xi32>
}

// -----

func.func @main(%arg0: tensor<3x4x2xi32>, %arg1: tensor<2x3x2xi64>) -> tensor<2x3x2x2xi32> {
  // expected-error@+1 {{stablehlo.gather: index_vector_dim 4 is out of range [0, 3]}}
  %0 = "stablehlo.gather"(%arg0, %arg1) {dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 4>, slice_sizes = array<i64: 1, 2, 2>, indices_are_sorted = false} : (tensor<3x4x2xi32>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xi32>
  func.return %0 : tensor<2x3x2x2xi32>
}

// -----

func.func @main(%arg0: tensor<3x4x2xi32>, %arg1: tensor<2x3x2xi64>) -> tensor<2x3x2x2xi32> {
  // expected-error@+1 {{stablehlo.gather: start_index_map has 1 entries but the index vector dimension has size 2}}
  %0 = "stablehlo.gather"(%arg0, %arg1) {dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 2, 2>, indices_are_sorted = false} : (tensor<3x4x2xi32>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xi32>
  func.return %0 : tensor<2x3x2x2xi32>
}

// -----

func.func @main(%arg0: tensor<3x4x2xi32>, %arg1: tensor<2x3x2xi64>) -> tensor<2x3x2x2xi32> {
  // expected-error@+1 {{stablehlo.gather: offset_dims [3, 2] must be unique and sorted}}
  %0 = "stablehlo.gather"(%arg0, %arg1) {dimension_numbers = #stablehlo.gather<offset_dims = [3, 2], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 2, 2>, indices_are_sorted = false} : (tensor<3x4x2xi32>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xi32>
  func.return %0 : tensor<2x3x2x2xi32>
}

// -----

func.func @main(%arg0: tensor<3x4x2xi32>, %arg1: tensor<2x3x2xi64>) -> tensor<2x3x2xi32> {
  // expected-error@+1 {{stablehlo.gather: collapsed_slice_dims + operand_batching_dims [0, 0] are not unique}}
  %0 = "stablehlo.gather"(%arg0, %arg1) {dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0, 0], start_index_map = [1, 0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 2, 2>, indices_are_sorted = false} : (tensor<3x4x2xi32>, tensor<2x3x2xi64>) -> tensor<2x3x2xi32>
  func.return %0 : tensor<2x3x2xi32>
}

// -----

func.func @main(%arg0: tensor<3x4x2xi32>, %arg1: tensor<2x3x2xi64>) -> tensor<2x3x2xi32> {
  // expected-error@+1 {{stablehlo.gather: collapsed_slice_dims [1, 0] are not sorted}}
  %0 = "stablehlo.gather"(%arg0, %arg1) {dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1, 0], start_index_map = [1, 0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 2>, indices_are_sorted = false} : (tensor<3x4x2xi32>, tensor<2x3x2xi64>) -> tensor<2x3x2xi32>
  func.return %0 : tensor<2x3x2xi32>
}

// -----

func.func @main(%arg0: tensor<3x4x2xi32>, %arg1: tensor<2x3x2xi64>) -> tensor<2x3x2x2xi32> {
  // expected-error@+1 {{stablehlo.gather: collapsed slice dimension 3 is out of range [0, 3) (the rank of the operand)}}
  %0 = "stablehlo.gather"(%arg0, %arg1) {dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [3], start_index_map = [1, 0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 2, 2>, indices_are_sorted = false} : (tensor<3x4x2xi32>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xi32>
  func.return %0 : tensor<2x3x2x2xi32>
}

// -----

func.func @main(%arg0: tensor<3x4x2xi32>, %arg1: tensor<2x3x2xi64>) -> tensor<2x3x2x2xi32> {
  // expected-error@+1 {{stablehlo.gather: slice size 2 of collapsed dimension 0 must be at most 1}}
  %0 = "stablehlo.gather"(%arg0, %arg1) {dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>, slice_sizes = array<i64: 2, 2, 2>, indices_are_sorted = false} : (tensor<3x4x2xi32>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xi32>
  func.return %0 : tensor<2x3x2x2xi32>
}

// -----

func.func @main(%arg0: tensor<2x3x5x3xi32>, %arg1: tensor<2x3x4x1xi64>) -> tensor<2x3x4x3xi32> {
  // expected-error@+1 {{stablehlo.gather: operand_batching_dims [1, 0] are not sorted}}
  %0 = "stablehlo.gather"(%arg0, %arg1) {dimension_numbers = #stablehlo.gather<offset_dims = [3], collapsed_slice_dims = [2], operand_batching_dims = [1, 0], start_indices_batching_dims = [0, 1], start_index_map = [2], index_vector_dim = 3>, slice_sizes = array<i64: 1, 1, 1, 3>, indices_are_sorted = false} : (tensor<2x3x5x3xi32>, tensor<2x3x4x1xi64>) -> tensor<2x3x4x3xi32>
  func.return %0 : tensor<2x3x4x3xi32>
}

// -----

func.func @main(%arg0: tensor<2x5x3xi32>, %arg1: tensor<2x4x1xi64>) -> tensor<2x4x3xi32> {
  // expected-error@+1 {{stablehlo.gather: operand batching dimension 3 is out of range [0, 3) (the rank of the operand)}}
  %0 = "stablehlo.gather"(%arg0, %arg1) {dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [3], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 3>, indices_are_sorted = false} : (tensor<2x5x3xi32>, tensor<2x4x1xi64>) -> tensor<2x4x3xi32>
  func.return %0 : tensor<2x4x3xi32>
}

// -----

func.func @main(%arg0: tensor<2x5x3xi32>, %arg1: tensor<2x4x1xi64>) -> tensor<2x4x3xi32> {
  // expected-error@+1 {{stablehlo.gather: slice size 2 of operand batching dimension 0 must be at most 1}}
  %0 = "stablehlo.gather"(%arg0, %arg1) {dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 2, 1, 3>, indices_are_sorted = false} : (tensor<2x5x3xi32>, tensor<2x4x1xi64>) -> tensor<2x4x3xi32>
  func.return %0 : tensor<2x4x3xi32>
}

// -----

func.func @main(%arg0: tensor<2x5x3xi32>, %arg1: tensor<2x4x1xi64>) -> tensor<2x4x3xi32> {
  // expected-error@+1 {{stablehlo.gather: start_indices_batching_dims [0, 0] are not unique}}
  %0 = "stablehlo.gather"(%arg0, %arg1) {dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0, 0], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 3>, indices_are_sorted = false} : (tensor<2x5x3xi32>, tensor<2x4x1xi64>) -> tensor<2x4x3xi32>
  func.return %0 : tensor<2x4x3xi32>
}

// -----

func.func @main(%arg0: tensor<2x5x3xi32>, %arg1: tensor<2x4x1xi64>) -> tensor<2x4x3xi32> {
  // expected-error@+1 {{stablehlo.gather: start_indices_batching_dims 3 is out of range [0, 3) (the rank of the indices)}}
  %0 = "stablehlo.gather"(%arg0, %arg1) {dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [3], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 3>, indices_are_sorted = false} : (tensor<2x5x3xi32>, tensor<2x4x1xi64>) -> tensor<2x4x3xi32>
  func.return %0 : tensor<2x4x3xi32>
}

// -----

func.func @main(%arg0: tensor<2x5x3xi32>, %arg1: tensor<2x4x1xi64>) -> tensor<2x4x3xi32> {
  // expected-error@+1 {{stablehlo.gather: index_vector_dim 2 must not be one of start_indices_batching_dims [2]}}
  %0 = "stablehlo.gather"(%arg0, %arg1) {dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [2], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 3>, indices_are_sorted = false} : (tensor<2x5x3xi32>, tensor<2x4x1xi64>) -> tensor<2x4x3xi32>
  func.return %0 : tensor<2x4x3xi32>
}

// -----

func.func @main(%arg0: tensor<2x5x3xi32>, %arg1: tensor<2x4x1xi64>) -> tensor<2x4x3xi32> {
  // expected-error@+1 {{stablehlo.gather: operand_batching_dims has 1 entries but start_indices_batching_dims has 0}}
  %0 = "stablehlo.gather"(%arg0, %arg1) {dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 3>, indices_are_sorted = false} : (tensor<2x5x3xi32>, tensor<2x4x1xi64>) -> tensor<2x4x3xi32>
  func.return %0 : tensor<2x4x3xi32>
}

// -----

func.func @main(%arg0: tensor<2x5x3xi32>, %arg1: tensor<3x4x1xi64>) -> tensor<3x4x3xi32> {
  // expected-error@+1 {{stablehlo.gather: batching dimension sizes differ (2 vs 3) for operand dimension 0 and indices dimension 0}}
  %0 = "stablehlo.gather"(%arg0, %arg1) {dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 3>, indices_are_sorted = false} : (tensor<2x5x3xi32>, tensor<3x4x1xi64>) -> tensor<3x4x3xi32>
  func.return %0 : tensor<3x4x3xi32>
}

// -----

func.func @main(%arg0: tensor<3x4x2xi32>, %arg1: tensor<2x3x2xi64>) -> tensor<2x3x2x2xi32> {
  // expected-error@+1 {{stablehlo.gather: start_index_map + operand_batching_dims [1, 1] are not unique}}
  %0 = "stablehlo.gather"(%arg0, %arg1) {dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 2, 2>, indices_are_sorted = false} : (tensor<3x4x2xi32>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xi32>
  func.return %0 : tensor<2x3x2x2xi32>
}

// -----

func.func @main(%arg0: tensor<3x4x2xi32>, %arg1: tensor<2x3x2xi64>) -> tensor<2x3x2x2xi32> {
  // expected-error@+1 {{stablehlo.gather: start_index_map entry 3 is out of range [0, 3) (the rank of the operand)}}
  %0 = "stablehlo.gather"(%arg0, %arg1) {dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [3, 0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 2, 2>, indices_are_sorted = false} : (tensor<3x4x2xi32>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xi32>
  func.return %0 : tensor<2x3x2x2xi32>
}

// -----

func.func @main(%arg0: tensor<3x4x2xi32>, %arg1: tensor<2x3x2xi64>) -> tensor<2x3x5x2xi32> {
  // expected-error@+1 {{stablehlo.gather: slice size 5 of dimension 1 is out of range [0, 4]}}
  %0 = "stablehlo.gather"(%arg0, %arg1) {dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 5, 2>, indices_are_sorted = false} : (tensor<3x4x2xi32>, tensor<2x3x2xi64>) -> tensor<2x3x5x2xi32>
  func.return %0 : tensor<2x3x5x2xi32>
}

// -----

func.func @main(%arg0: tensor<3x4x2xi32>, %arg1: tensor<2x3x2xi64>) -> tensor<2x3x2x2xi32> {
  // expected-error@+1 {{stablehlo.gather: offset dimension 4 is out of range [0, 4) (the rank of the result)}}
  %0 = "stablehlo.gather"(%arg0, %arg1) {dimension_numbers = #stablehlo.gather<offset_dims = [2, 4], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 2, 2>, indices_are_sorted = false} : (tensor<3x4x2xi32>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xi32>
  func.return %0 : tensor<2x3x2x2xi32>
}

// -----

func.func @main(%arg0: tensor<3x4x2xi32>, %arg1: tensor<2x3x2xi64>) -> tensor<2x3x2x3xi32> {
  // expected-error@+1 {{stablehlo.gather: result shape [2x3x2x3] does not match the expected shape [2x3x2x2]}}
  %0 = "stablehlo.gather"(%arg0, %arg1) {dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 2, 2>, indices_are_sorted = false} : (tensor<3x4x2xi32>, tensor<2x3x2xi64>) -> tensor<2x3x2x3xi32>
  func.return %0 : tensor<2x3x2x3xi32>
}

// -----

func.func @main(%arg0: tensor<3x4x2xi32>, %arg1: tensor<2x3x2xi64>) -> tensor<2x3x2x2xf32> {
  // expected-error@+1 {{stablehlo.gather: operand element type i32 and result element type f32 differ}}
  %0 = "stablehlo.gather"(%arg0, %arg1) {dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 2, 2>, indices_are_sorted = false} : (tensor<3x4x2xi32>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xf32>
  func.return %0 : tensor<2x3x2x2xf32>
}

// -----

func.func @main(%arg0: tensor<3x4x2xi32>, %arg1: tensor<2x3x2xi64>, %arg2: tensor<2xi64>) -> tensor<2x3x?x?xi32> {
  // expected-error@+1 {{stablehlo.dynamic_gather: slice_sizes must be tensor<3x...> of integers, got tensor<2xi64>}}
  %0 = "stablehlo.dynamic_gather"(%arg0, %arg1, %arg2) {dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>} : (tensor<3x4x2xi32>, tensor<2x3x2xi64>, tensor<2xi64>) -> tensor<2x3x?x?xi32>
  func.return %0 : tensor<2x3x?x?xi32>
}

// -----

func.func @main(%arg0: tensor<3x4x2xi32>, %arg1: tensor<2x3x2xi64>, %arg2: tensor<2x3x2x2xi32>) -> tensor<3x4x2xi32> {
  // expected-error@+1 {{stablehlo.scatter: input rank 3 must equal size(update_window_dims) + size(inserted_window_dims) + size(input_batching_dims) = 2 + 0 + 0}}
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%s) : (tensor<i32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2, 3], inserted_window_dims = [], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 2>, indices_are_sorted = false, unique_indices = false} : (tensor<3x4x2xi32>, tensor<2x3x2xi64>, tensor<2x3x2x2xi32>) -> tensor<3x4x2xi32>
  func.return %0 : tensor<3x4x2xi32>
}

// -----

func.func @main(%arg0: tensor<3x4x2xi32>, %arg1: tensor<2x3x2xi64>, %arg2: tensor<2x3x2x2xi32>) -> tensor<3x4x2xi32> {
  // expected-error@+1 {{stablehlo.scatter: index_vector_dim 4 is out of range [0, 3]}}
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%s) : (tensor<i32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2, 3], inserted_window_dims = [0], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 4>, indices_are_sorted = false, unique_indices = false} : (tensor<3x4x2xi32>, tensor<2x3x2xi64>, tensor<2x3x2x2xi32>) -> tensor<3x4x2xi32>
  func.return %0 : tensor<3x4x2xi32>
}

// -----

func.func @main(%arg0: tensor<3x4x2xi32>, %arg1: tensor<2x3x2xi64>, %arg2: tensor<2x3x2x2xi32>) -> tensor<3x4x2xi32> {
  // expected-error@+1 {{stablehlo.scatter: scatter_dims_to_operand_dims has 1 entries but the index vector dimension has size 2}}
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%s) : (tensor<i32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2, 3], inserted_window_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>, indices_are_sorted = false, unique_indices = false} : (tensor<3x4x2xi32>, tensor<2x3x2xi64>, tensor<2x3x2x2xi32>) -> tensor<3x4x2xi32>
  func.return %0 : tensor<3x4x2xi32>
}

// -----

func.func @main(%arg0: tensor<3x4x2xi32>, %arg1: tensor<2x3x2xi64>, %arg2: tensor<2x3x2x2xi32>) -> tensor<3x4x2xi32> {
  // expected-error@+1 {{stablehlo.scatter: update_window_dims [3, 2] must be unique and sorted}}
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%s) : (tensor<i32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [3, 2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 2>, indices_are_sorted = false, unique_indices = false} : (tensor<3x4x2xi32>, tensor<2x3x2xi64>, tensor<2x3x2x2xi32>) -> tensor<3x4x2xi32>
  func.return %0 : tensor<3x4x2xi32>
}

// -----

func.func @main(%arg0: tensor<3x4x2xi32>, %arg1: tensor<2x3x2xi64>, %arg2: tensor<2x3x2x2xi32>) -> tensor<3x4x2xi32> {
  // expected-error@+1 {{stablehlo.scatter: update window dimension 4 is out of range [0, 4) (the rank of the updates)}}
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%s) : (tensor<i32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2, 4], inserted_window_dims = [0], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 2>, indices_are_sorted = false, unique_indices = false} : (tensor<3x4x2xi32>, tensor<2x3x2xi64>, tensor<2x3x2x2xi32>) -> tensor<3x4x2xi32>
  func.return %0 : tensor<3x4x2xi32>
}

// -----

func.func @main(%arg0: tensor<3x4x2xi32>, %arg1: tensor<2x3x2xi64>, %arg2: tensor<2x3x2x2xi32>) -> tensor<3x4x2xi32> {
  // expected-error@+1 {{stablehlo.scatter: inserted_window_dims + input_batching_dims [0, 0] are not unique}}
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%s) : (tensor<i32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [3], inserted_window_dims = [0, 0], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 2>, indices_are_sorted = false, unique_indices = false} : (tensor<3x4x2xi32>, tensor<2x3x2xi64>, tensor<2x3x2x2xi32>) -> tensor<3x4x2xi32>
  func.return %0 : tensor<3x4x2xi32>
}

// -----

func.func @main(%arg0: tensor<3x4x2xi32>, %arg1: tensor<2x3x2xi64>, %arg2: tensor<2x3x2x2xi32>) -> tensor<3x4x2xi32> {
  // expected-error@+1 {{stablehlo.scatter: inserted_window_dims [1, 0] are not sorted}}
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%s) : (tensor<i32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [3], inserted_window_dims = [1, 0], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 2>, indices_are_sorted = false, unique_indices = false} : (tensor<3x4x2xi32>, tensor<2x3x2xi64>, tensor<2x3x2x2xi32>) -> tensor<3x4x2xi32>
  func.return %0 : tensor<3x4x2xi32>
}

// -----

func.func @main(%arg0: tensor<3x4x2xi32>, %arg1: tensor<2x3x2xi64>, %arg2: tensor<2x3x2x2xi32>) -> tensor<3x4x2xi32> {
  // expected-error@+1 {{stablehlo.scatter: inserted window dimension 3 is out of range [0, 3) (the rank of the input)}}
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%s) : (tensor<i32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2, 3], inserted_window_dims = [3], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 2>, indices_are_sorted = false, unique_indices = false} : (tensor<3x4x2xi32>, tensor<2x3x2xi64>, tensor<2x3x2x2xi32>) -> tensor<3x4x2xi32>
  func.return %0 : tensor<3x4x2xi32>
}

// -----

func.func @main(%arg0: tensor<2x3x5x3xi32>, %arg1: tensor<2x3x4x1xi64>, %arg2: tensor<2x3x4x3xi32>) -> tensor<2x3x5x3xi32> {
  // expected-error@+1 {{stablehlo.scatter: input_batching_dims [1, 0] are not sorted}}
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%s) : (tensor<i32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [3], inserted_window_dims = [2], input_batching_dims = [1, 0], scatter_indices_batching_dims = [0, 1], scatter_dims_to_operand_dims = [2], index_vector_dim = 3>, indices_are_sorted = false, unique_indices = false} : (tensor<2x3x5x3xi32>, tensor<2x3x4x1xi64>, tensor<2x3x4x3xi32>) -> tensor<2x3x5x3xi32>
  func.return %0 : tensor<2x3x5x3xi32>
}

// -----

func.func @main(%arg0: tensor<2x5x3xi32>, %arg1: tensor<2x4x1xi64>, %arg2: tensor<2x4x3xi32>) -> tensor<2x5x3xi32> {
  // expected-error@+1 {{stablehlo.scatter: input batching dimension 3 is out of range [0, 3) (the rank of the input)}}
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%s) : (tensor<i32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [1], input_batching_dims = [3], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>, indices_are_sorted = false, unique_indices = false} : (tensor<2x5x3xi32>, tensor<2x4x1xi64>, tensor<2x4x3xi32>) -> tensor<2x5x3xi32>
  func.return %0 : tensor<2x5x3xi32>
}

// -----

func.func @main(%arg0: tensor<2x5x3xi32>, %arg1: tensor<2x4x1xi64>, %arg2: tensor<2x4x3xi32>) -> tensor<2x5x3xi32> {
  // expected-error@+1 {{stablehlo.scatter: scatter_indices_batching_dims [0, 0] are not unique}}
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%s) : (tensor<i32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0, 0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>, indices_are_sorted = false, unique_indices = false} : (tensor<2x5x3xi32>, tensor<2x4x1xi64>, tensor<2x4x3xi32>) -> tensor<2x5x3xi32>
  func.return %0 : tensor<2x5x3xi32>
}

// -----

func.func @main(%arg0: tensor<2x5x3xi32>, %arg1: tensor<2x4x1xi64>, %arg2: tensor<2x4x3xi32>) -> tensor<2x5x3xi32> {
  // expected-error@+1 {{stablehlo.scatter: scatter_indices_batching_dims 3 is out of range [0, 3) (the rank of the indices)}}
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%s) : (tensor<i32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [3], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>, indices_are_sorted = false, unique_indices = false} : (tensor<2x5x3xi32>, tensor<2x4x1xi64>, tensor<2x4x3xi32>) -> tensor<2x5x3xi32>
  func.return %0 : tensor<2x5x3xi32>
}

// -----

func.func @main(%arg0: tensor<2x5x3xi32>, %arg1: tensor<2x4x1xi64>, %arg2: tensor<2x4x3xi32>) -> tensor<2x5x3xi32> {
  // expected-error@+1 {{stablehlo.scatter: index_vector_dim 2 must not be one of scatter_indices_batching_dims [2]}}
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%s) : (tensor<i32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [2], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>, indices_are_sorted = false, unique_indices = false} : (tensor<2x5x3xi32>, tensor<2x4x1xi64>, tensor<2x4x3xi32>) -> tensor<2x5x3xi32>
  func.return %0 : tensor<2x5x3xi32>
}

// -----

func.func @main(%arg0: tensor<2x5x3xi32>, %arg1: tensor<2x4x1xi64>, %arg2: tensor<2x4x3xi32>) -> tensor<2x5x3xi32> {
  // expected-error@+1 {{stablehlo.scatter: input_batching_dims has 1 entries but scatter_indices_batching_dims has 0}}
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%s) : (tensor<i32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>, indices_are_sorted = false, unique_indices = false} : (tensor<2x5x3xi32>, tensor<2x4x1xi64>, tensor<2x4x3xi32>) -> tensor<2x5x3xi32>
  func.return %0 : tensor<2x5x3xi32>
}

// -----

func.func @main(%arg0: tensor<2x5x3xi32>, %arg1: tensor<3x4x1xi64>, %arg2: tensor<3x4x3xi32>) -> tensor<2x5x3xi32> {
  // expected-error@+1 {{stablehlo.scatter: batching dimension sizes differ (2 vs 3) for operand dimension 0 and indices dimension 0}}
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%s) : (tensor<i32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>, indices_are_sorted = false, unique_indices = false} : (tensor<2x5x3xi32>, tensor<3x4x1xi64>, tensor<3x4x3xi32>) -> tensor<2x5x3xi32>
  func.return %0 : tensor<2x5x3xi32>
}

// -----

func.func @main(%arg0: tensor<3x4x2xi32>, %arg1: tensor<2x3x2xi64>, %arg2: tensor<2x3x2x2xi32>) -> tensor<3x4x2xi32> {
  // expected-error@+1 {{stablehlo.scatter: scatter_dims_to_operand_dims + input_batching_dims [1, 1] are not unique}}
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%s) : (tensor<i32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2, 3], inserted_window_dims = [0], scatter_dims_to_operand_dims = [1, 1], index_vector_dim = 2>, indices_are_sorted = false, unique_indices = false} : (tensor<3x4x2xi32>, tensor<2x3x2xi64>, tensor<2x3x2x2xi32>) -> tensor<3x4x2xi32>
  func.return %0 : tensor<3x4x2xi32>
}

// -----

func.func @main(%arg0: tensor<3x4x2xi32>, %arg1: tensor<2x3x2xi64>, %arg2: tensor<2x3x2x2xi32>) -> tensor<3x4x2xi32> {
  // expected-error@+1 {{stablehlo.scatter: scatter_dims_to_operand_dims entry 3 is out of range [0, 3) (the rank of the input)}}
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%s) : (tensor<i32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2, 3], inserted_window_dims = [0], scatter_dims_to_operand_dims = [3, 0], index_vector_dim = 2>, indices_are_sorted = false, unique_indices = false} : (tensor<3x4x2xi32>, tensor<2x3x2xi64>, tensor<2x3x2x2xi32>) -> tensor<3x4x2xi32>
  func.return %0 : tensor<3x4x2xi32>
}

// -----

func.func @main(%arg0: tensor<3x4x2xi32>, %arg1: tensor<2x3x2xi64>, %arg2: tensor<2x3x2x5xi32>) -> tensor<3x4x2xi32> {
  // expected-error@+1 {{stablehlo.scatter: update window dimension 3 has size 5, larger than the input's window bound 2}}
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%s) : (tensor<i32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2, 3], inserted_window_dims = [0], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 2>, indices_are_sorted = false, unique_indices = false} : (tensor<3x4x2xi32>, tensor<2x3x2xi64>, tensor<2x3x2x5xi32>) -> tensor<3x4x2xi32>
  func.return %0 : tensor<3x4x2xi32>
}

// -----

func.func @main(%arg0: tensor<3x4x2xi32>, %arg1: tensor<2x3x2xi64>, %arg2: tensor<2x3x2x2xi32>) -> tensor<3x4x3xi32> {
  // expected-error@+1 {{stablehlo.scatter: result #0 type tensor<3x4x3xi32> differs from input #0's type tensor<3x4x2xi32>}}
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%s) : (tensor<i32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2, 3], inserted_window_dims = [0], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 2>, indices_are_sorted = false, unique_indices = false} : (tensor<3x4x2xi32>, tensor<2x3x2xi64>, tensor<2x3x2x2xi32>) -> tensor<3x4x3xi32>
  func.return %0 : tensor<3x4x3xi32>
}

// -----

func.func @main(%arg0: tensor<3x4x2xi32>, %arg1: tensor<2x3x2xi64>, %arg2: tensor<2x3x2x2xi32>) -> tensor<3x4x2xi32> {
  // expected-error@+1 {{stablehlo.scatter: update_computation must have type (tensor<i32>, tensor<i32>) -> (tensor<i32>), got (tensor<f32>, tensor<f32>) -> (tensor<f32>)}}
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2, 3], inserted_window_dims = [0], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 2>, indices_are_sorted = false, unique_indices = false} : (tensor<3x4x2xi32>, tensor<2x3x2xi64>, tensor<2x3x2x2xi32>) -> tensor<3x4x2xi32>
  func.return %0 : tensor<3x4x2xi32>
}

// -----

func.func @main(%arg0: tensor<3x4x2xi32>, %arg1: tensor<2x3x2xi64>, %arg2: tensor<2x3x2x2xf32>) -> tensor<3x4x2xi32> {
  // expected-error@+1 {{stablehlo.scatter: update #0 element type f32 differs from input #0's i32}}
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%s) : (tensor<i32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2, 3], inserted_window_dims = [0], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 2>, indices_are_sorted = false, unique_indices = false} : (tensor<3x4x2xi32>, tensor<2x3x2xi64>, tensor<2x3x2x2xf32>) -> tensor<3x4x2xi32>
  func.return %0 : tensor<3x4x2xi32>
}

// -----

func.func @main(%arg0: tensor<3xi32>, %arg1: tensor<1x1xi64>, %arg2: tensor<1xi32>, %arg3: tensor<1xi32>) -> tensor<3xi32> {
  // expected-error@+1 {{stablehlo.scatter: expects 2N + 1 operands and N results, got 4 operands and 1 results}}
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2, %arg3) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    "stablehlo.return"(%b) : (tensor<i32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<3xi32>, tensor<1x1xi64>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
  func.return %0 : tensor<3xi32>
}

// -----

func.func @main(%arg0: tensor<3xi32>, %arg1: tensor<4xi32>, %arg2: tensor<1x1xi64>, %arg3: tensor<1xi32>) -> (tensor<3xi32>, tensor<4xi32>) {
  // expected-error@+1 {{stablehlo.scatter: input #1 shape [4] differs from input #0's [3]}}
  %0:2 = "stablehlo.scatter"(%arg0, %arg1, %arg2, %arg3, %arg3) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<i32>, %d: tensor<i32>):
    "stablehlo.return"(%c, %d) : (tensor<i32>, tensor<i32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<3xi32>, tensor<4xi32>, tensor<1x1xi64>, tensor<1xi32>, tensor<1xi32>) -> (tensor<3xi32>, tensor<4xi32>)
  func.return %0#0, %0#1 : tensor<3xi32>, tensor<4xi32>
}

// -----

func.func @main(%arg0: tensor<4x4xi32>, %arg1: tensor<i64>, %arg2: tensor<i64>) -> tensor<2xi32> {
  // expected-error@+1 {{stablehlo.dynamic_slice: slice_sizes has 1 entries but the operand has rank 2}}
  %0 = "stablehlo.dynamic_slice"(%arg0, %arg1, %arg2) {slice_sizes = array<i64: 2>} : (tensor<4x4xi32>, tensor<i64>, tensor<i64>) -> tensor<2xi32>
  func.return %0 : tensor<2xi32>
}

// -----

func.func @main(%arg0: tensor<4x4xi32>, %arg1: tensor<i64>, %arg2: tensor<i64>) -> tensor<2x5xi32> {
  // expected-error@+1 {{stablehlo.dynamic_slice: slice size 5 of dimension 1 is out of range [0, 4]}}
  %0 = "stablehlo.dynamic_slice"(%arg0, %arg1, %arg2) {slice_sizes = array<i64: 2, 5>} : (tensor<4x4xi32>, tensor<i64>, tensor<i64>) -> tensor<2x5xi32>
  func.return %0 : tensor<2x5xi32>
}

// -----

func.func @main(%arg0: tensor<4x4xi32>, %arg1: tensor<i64>) -> tensor<2x2xi32> {
  // expected-error@+1 {{stablehlo.dynamic_slice: expects 2 start indices (the operand's rank), got 1}}
  %0 = "stablehlo.dynamic_slice"(%arg0, %arg1) {slice_sizes = array<i64: 2, 2>} : (tensor<4x4xi32>, tensor<i64>) -> tensor<2x2xi32>
  func.return %0 : tensor<2x2xi32>
}

// -----

func.func @main(%arg0: tensor<4x4xi32>, %arg1: tensor<i64>, %arg2: tensor<1xi64>) -> tensor<2x2xi32> {
  // expected-error@+1 {{stablehlo.dynamic_slice: start index #1 must be a 0-d integer tensor, got tensor<1xi64>}}
  %0 = "stablehlo.dynamic_slice"(%arg0, %arg1, %arg2) {slice_sizes = array<i64: 2, 2>} : (tensor<4x4xi32>, tensor<i64>, tensor<1xi64>) -> tensor<2x2xi32>
  func.return %0 : tensor<2x2xi32>
}

// -----

func.func @main(%arg0: tensor<4x4xi32>, %arg1: tensor<i64>, %arg2: tensor<i32>) -> tensor<2x2xi32> {
  // expected-error@+1 {{stablehlo.dynamic_slice: start indices must have one type, got tensor<i64> and tensor<i32>}}
  %0 = "stablehlo.dynamic_slice"(%arg0, %arg1, %arg2) {slice_sizes = array<i64: 2, 2>} : (tensor<4x4xi32>, tensor<i64>, tensor<i32>) -> tensor<2x2xi32>
  func.return %0 : tensor<2x2xi32>
}

// -----

func.func @main(%arg0: tensor<4x4xi32>, %arg1: tensor<i64>, %arg2: tensor<i64>) -> tensor<2x3xi32> {
  // expected-error@+1 {{stablehlo.dynamic_slice: result shape [2x3] must equal slice_sizes [2, 2]}}
  %0 = "stablehlo.dynamic_slice"(%arg0, %arg1, %arg2) {slice_sizes = array<i64: 2, 2>} : (tensor<4x4xi32>, tensor<i64>, tensor<i64>) -> tensor<2x3xi32>
  func.return %0 : tensor<2x3xi32>
}

// -----

func.func @main(%arg0: tensor<4x4xi32>, %arg1: tensor<2x2xi32>, %arg2: tensor<i64>) -> tensor<4x5xi32> {
  // expected-error@+1 {{stablehlo.dynamic_update_slice: operand type tensor<4x4xi32> and result type tensor<4x5xi32> differ}}
  %0 = "stablehlo.dynamic_update_slice"(%arg0, %arg1, %arg2, %arg2) : (tensor<4x4xi32>, tensor<2x2xi32>, tensor<i64>, tensor<i64>) -> tensor<4x5xi32>
  func.return %0 : tensor<4x5xi32>
}

// -----

func.func @main(%arg0: tensor<4x4xi32>, %arg1: tensor<2x5xi32>, %arg2: tensor<i64>) -> tensor<4x4xi32> {
  // expected-error@+1 {{stablehlo.dynamic_update_slice: update shape [2x5] must have the operand's rank and fit in its shape [4x4]}}
  %0 = "stablehlo.dynamic_update_slice"(%arg0, %arg1, %arg2, %arg2) : (tensor<4x4xi32>, tensor<2x5xi32>, tensor<i64>, tensor<i64>) -> tensor<4x4xi32>
  func.return %0 : tensor<4x4xi32>
}

// -----

func.func @main(%arg0: tensor<5x3xf32>, %arg1: tensor<4xi32>) -> tensor<4x3xf32> {
  // expected-error@+1 {{stablehlo.torch_index_select: need 0 <= batch_dims (0) <= dim (2) < operand rank (2) and batch_dims <= index rank (1)}}
  %0 = "stablehlo.torch_index_select"(%arg0, %arg1) {dim = 2 : i64, batch_dims = 0 : i64} : (tensor<5x3xf32>, tensor<4xi32>) -> tensor<4x3xf32>
  func.return %0 : tensor<4x3xf32>
}

// -----

func.func @main(%arg0: tensor<5x3xf32>, %arg1: tensor<4xi32>) -> tensor<5x3xf32> {
  // expected-error@+1 {{stablehlo.torch_index_select: result shape [5x3] does not match the expected shape [4x3]}}
  %0 = "stablehlo.torch_index_select"(%arg0, %arg1) {dim = 0 : i64, batch_dims = 0 : i64} : (tensor<5x3xf32>, tensor<4xi32>) -> tensor<5x3xf32>
  func.return %0 : tensor<5x3xf32>
}
