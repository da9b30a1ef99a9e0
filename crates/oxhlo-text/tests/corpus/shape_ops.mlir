// Shape and data-movement ops in their pretty form.
func.func @shapes(%x: tensor<2x3xf32>, %s: tensor<f32>, %i: tensor<i32>, %shape: tensor<2xi64>, %t: !stablehlo.token) -> tensor<2x3xf32> {
  %0 = stablehlo.constant dense<[[1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, 6.000000e+00]]> : tensor<2x3xf32>
  %1 = stablehlo.iota dim = 1 : tensor<2x3xi32>
  %2 = stablehlo.dynamic_iota %shape, dim = 0 : (tensor<2xi64>) -> tensor<?x?xf32>
  %3 = stablehlo.create_token : !stablehlo.token
  %4 = stablehlo.replica_id : tensor<ui32>
  %5 = stablehlo.partition_id : tensor<ui32>
  %6 = stablehlo.after_all %t, %3 : !stablehlo.token
  %7 = stablehlo.after_all : !stablehlo.token
  %8 = stablehlo.tuple %x, %s, %t : tuple<tensor<2x3xf32>, tensor<f32>, !stablehlo.token>
  %9 = stablehlo.get_tuple_element %8[1] : (tuple<tensor<2x3xf32>, tensor<f32>, !stablehlo.token>) -> tensor<f32>
  %10 = stablehlo.tuple : tuple<>
  %11 = stablehlo.slice %x [0:2, 1:3:2] : (tensor<2x3xf32>) -> tensor<2x1xf32>
  %12 = stablehlo.dynamic_slice %x, %i, %i, sizes = [1, 2] : (tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<1x2xf32>
  %13 = stablehlo.dynamic_update_slice %x, %12, %i, %i : (tensor<2x3xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
  %14 = stablehlo.broadcast_in_dim %x, dims = [0, 2] : (tensor<2x3xf32>) -> tensor<2x4x3xf32>
  %15 = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
  %16 = stablehlo.broadcast %x, sizes = [5] : (tensor<2x3xf32>) -> tensor<5x2x3xf32>
  %17 = stablehlo.dynamic_broadcast_in_dim %x, %shape, dims = [0, 1] : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %18 = stablehlo.dynamic_broadcast_in_dim %x, %shape, dims = [0, 1] {known_expanding_dimensions = array<i64: 0>, known_nonexpanding_dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %19 = stablehlo.transpose %x, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %20 = stablehlo.reverse %x, dims = [0, 1] : tensor<2x3xf32>
  %21 = stablehlo.pad %x, %s, low = [0, 1], high = [1, 0], interior = [1, 1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<4x6xf32>
  %22 = stablehlo.concatenate %x, %x, %x, dim = 0 : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<6x3xf32>
  %23 = stablehlo.get_dimension_size %x, dim = 1 : (tensor<2x3xf32>) -> tensor<i32>
  %24 = stablehlo.set_dimension_size %x, %i, dim = 1 : (tensor<2x3xf32>, tensor<i32>) -> tensor<2x?xf32, #stablehlo.bounds<?, 3>>
  %25 = stablehlo.dynamic_reshape %x, %shape : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %26 = stablehlo.real_dynamic_slice %x, %shape, %shape, %shape : (tensor<2x3xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  %27 = stablehlo.dynamic_pad %x, %s, %shape, %shape, %shape : (tensor<2x3xf32>, tensor<f32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  %28 = stablehlo.reduce_precision %x, format = e5m10 : tensor<2x3xf32>
  %29:2 = stablehlo.optimization_barrier %x, %s : tensor<2x3xf32>, tensor<f32>
  stablehlo.optimization_barrier()
  %30 = stablehlo.reshape %x : (tensor<2x3xf32>) -> tensor<6xf32>
  %31 = stablehlo.slice %x [1:2, 0:3] : (tensor<2x3xf32>) -> tensor<1x3xf32>
  return %13 : tensor<2x3xf32>
}

func.func @linalg_and_random(%a: tensor<4x4xf32>, %c: tensor<8xcomplex<f32>>, %r: tensor<16xf32>, %st: tensor<2xui64>, %s: tensor<f32>, %shape: tensor<2xi64>) -> tensor<4x4xf32> {
  %0 = stablehlo.cholesky %a : tensor<4x4xf32>
  %1 = stablehlo.cholesky %a, lower = true : tensor<4x4xf32>
  %2 = stablehlo.fft %c, type = FFT, length = [8] : (tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>>
  %3 = stablehlo.fft %c, type = IFFT, length = [8] : (tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>>
  %4 = stablehlo.fft %r, type = RFFT, length = [16] : (tensor<16xf32>) -> tensor<9xcomplex<f32>>
  %5 = stablehlo.fft %4, type = IRFFT, length = [16] : (tensor<9xcomplex<f32>>) -> tensor<16xf32>
  %6 = stablehlo.einsum %a, %a, config = "ab,bc->ac" : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %7 = stablehlo.unary_einsum %a, config = "ab->a" : (tensor<4x4xf32>) -> tensor<4xf32>
  %8 = stablehlo.rng %s, %s, %shape, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<3x5xf32>
  %9 = stablehlo.rng %s, %s, %shape, distribution = NORMAL : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<3x5xf32>
  %10:2 = stablehlo.rng_bit_generator %st, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4x4xui32>)
  %11:2 = stablehlo.rng_bit_generator %st, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8xui64>)
  %12:2 = stablehlo.rng_bit_generator %st, algorithm = PHILOX : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8xui8>)
  return %0 : tensor<4x4xf32>
}

func.func @contractions(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>, %m: tensor<3x4xf32>, %v: tensor<4xf32>, %img: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x16xf32>) -> tensor<2x3x5xf32> {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  %1 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, HIGHEST] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  %2 = stablehlo.dot_general %m, %v, contracting_dims = [1] x [0] : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3xf32>
  %3 = stablehlo.dot_general %m, %v, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT], algorithm = <lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 3, allow_imprecise_accumulation = false> : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3xf32>
  %4 = stablehlo.dot %m, %v : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3xf32>
  %5 = stablehlo.dot %m, %v, precision = [DEFAULT, DEFAULT] : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3xf32>
  %6 = stablehlo.dot_general %m, %m, contracting_dims = [] x [] : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4x3x4xf32>
  %7 = stablehlo.convolution(%img, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 1], pad = [[1, 1], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 2], reverse = [false, true]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x4x4x16xf32>
  %8 = stablehlo.convolution(%img, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
  %kt = stablehlo.transpose %k, dims = [3, 2, 0, 1] : (tensor<3x3x3x16xf32>) -> tensor<16x3x3x3xf32>
  %it = stablehlo.transpose %img, dims = [0, 3, 1, 2] : (tensor<1x8x8x3xf32>) -> tensor<1x3x8x8xf32>
  %9 = stablehlo.convolution(%it, %kt) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x3x8x8xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x6x6xf32>
  return %0 : tensor<2x3x5xf32>
}
