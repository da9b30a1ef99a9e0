// Ops with regions: reduce (compact `applies` and `reducer` forms), while, if, case, sort, map,
// reduce_window, select_and_scatter, scatter, and calls between functions.
func.func @reductions(%x: tensor<4x6xf32>, %y: tensor<4x6xi32>, %zf: tensor<f32>, %zi: tensor<i32>) -> tensor<4xf32> {
  %0 = stablehlo.reduce(%x init: %zf) applies stablehlo.add across dimensions = [1] : (tensor<4x6xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = stablehlo.reduce(%x init: %zf) applies stablehlo.maximum across dimensions = [0, 1] : (tensor<4x6xf32>, tensor<f32>) -> tensor<f32>
  %2 = stablehlo.reduce(%x init: %zf) across dimensions = [1] : (tensor<4x6xf32>, tensor<f32>) -> tensor<4xf32>
   reducer(%a: tensor<f32>, %b: tensor<f32>) {
    %s = stablehlo.add %b, %a : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }
  %3:2 = stablehlo.reduce(%x init: %zf), (%y init: %zi) across dimensions = [1] : (tensor<4x6xf32>, tensor<4x6xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
   reducer(%a: tensor<f32>, %c: tensor<f32>) (%b: tensor<i32>, %d: tensor<i32>) {
    %gt = stablehlo.compare GT, %a, %c, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %v = stablehlo.select %gt, %a, %c : tensor<i1>, tensor<f32>
    %i = stablehlo.select %gt, %b, %d : tensor<i1>, tensor<i32>
    stablehlo.return %v, %i : tensor<f32>, tensor<i32>
  }
  %4 = stablehlo.reduce(%y init: %zi) applies stablehlo.or across dimensions = [0] : (tensor<4x6xi32>, tensor<i32>) -> tensor<6xi32>
  %5 = "stablehlo.reduce"(%x, %zf) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.multiply %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) {dimensions = array<i64: 0>} : (tensor<4x6xf32>, tensor<f32>) -> tensor<6xf32>
  return %0 : tensor<4xf32>
}

func.func @loops(%n: tensor<i32>, %x: tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>) {
  %one = stablehlo.constant dense<1> : tensor<i32>
  %0:2 = stablehlo.while(%i = %one, %acc = %x) : tensor<i32>, tensor<4xf32>
  cond {
    %c = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %i2 = stablehlo.add %i, %one : tensor<i32>
    %a2 = stablehlo.sine %acc : tensor<4xf32>
    stablehlo.return %i2, %a2 : tensor<i32>, tensor<4xf32>
  }
  %1 = stablehlo.while(%i = %n) : tensor<i32> attributes {mhlo.frontend_attributes = {loop = "1"}}
  cond {
    %c = stablehlo.compare GT, %i, %one, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %i2 = stablehlo.subtract %i, %one : tensor<i32>
    stablehlo.return %i2 : tensor<i32>
  }
  %p = stablehlo.compare GT, %n, %one : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %2 = "stablehlo.if"(%p) ({
    %s = stablehlo.sine %x : tensor<4xf32>
    stablehlo.return %s : tensor<4xf32>
  }, {
    stablehlo.return %x : tensor<4xf32>
  }) : (tensor<i1>) -> tensor<4xf32>
  %3:2 = "stablehlo.case"(%n) ({
    stablehlo.return %n, %x : tensor<i32>, tensor<4xf32>
  }, {
    %c = stablehlo.cosine %x : tensor<4xf32>
    stablehlo.return %one, %c : tensor<i32>, tensor<4xf32>
  }, {
    stablehlo.return %one, %2 : tensor<i32>, tensor<4xf32>
  }) : (tensor<i32>) -> (tensor<i32>, tensor<4xf32>)
  %4 = call @helper(%3#1) : (tensor<4xf32>) -> tensor<4xf32>
  %5 = func.call @helper(%4) {mhlo.sharding = "{replicated}"} : (tensor<4xf32>) -> tensor<4xf32>
  return %0#0, %5 : tensor<i32>, tensor<4xf32>
}

func.func private @helper(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.negate %x : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

func.func @sort_map_window(%x: tensor<4x6xf32>, %y: tensor<4x6xi32>, %z: tensor<f32>, %src: tensor<2x3xf32>) -> tensor<4x6xf32> {
  %0:2 = "stablehlo.sort"(%x, %y) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %lt = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) : (tensor<4x6xf32>, tensor<4x6xi32>) -> (tensor<4x6xf32>, tensor<4x6xi32>)
  %1 = "stablehlo.map"(%x, %x) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.multiply %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  %2 = "stablehlo.reduce_window"(%x, %z) <{padding = dense<[[0, 0], [1, 1]]> : tensor<2x2xi64>, window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 2>, base_dilations = array<i64: 1, 1>, window_dilations = array<i64: 1, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x3xf32>
  %3 = "stablehlo.select_and_scatter"(%x, %src, %z) <{padding = dense<0> : tensor<2x2xi64>, window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %ge : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x6xf32>, tensor<2x3xf32>, tensor<f32>) -> tensor<4x6xf32>
  return %3 : tensor<4x6xf32>
}

func.func @gather_scatter(%x: tensor<5x3xf32>, %idx: tensor<4x1xi32>, %upd: tensor<4x3xf32>, %sizes: tensor<2xi32>) -> tensor<5x3xf32> {
  %0 = "stablehlo.gather"(%x, %idx) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 3>}> : (tensor<5x3xf32>, tensor<4x1xi32>) -> tensor<4x3xf32>
  %1 = "stablehlo.scatter"(%x, %idx, %upd) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<5x3xf32>, tensor<4x1xi32>, tensor<4x3xf32>) -> tensor<5x3xf32>
  %2 = "stablehlo.dynamic_gather"(%x, %idx, %sizes) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>}> : (tensor<5x3xf32>, tensor<4x1xi32>, tensor<2xi32>) -> tensor<4x3xf32>
  %xb = stablehlo.reshape %x : (tensor<5x3xf32>) -> tensor<1x5x3xf32>
  %ib = stablehlo.reshape %idx : (tensor<4x1xi32>) -> tensor<1x4x1xi32>
  %3 = "stablehlo.gather"(%xb, %ib) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 3>}> : (tensor<1x5x3xf32>, tensor<1x4x1xi32>) -> tensor<1x4x3xf32>
  %ub = stablehlo.reshape %upd : (tensor<4x3xf32>) -> tensor<1x4x3xf32>
  %4 = "stablehlo.scatter"(%xb, %ib, %ub) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<1x5x3xf32>, tensor<1x4x1xi32>, tensor<1x4x3xf32>) -> tensor<1x5x3xf32>
  return %1 : tensor<5x3xf32>
}
