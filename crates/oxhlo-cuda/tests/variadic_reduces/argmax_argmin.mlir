// jnp.argmax(x, axis=-1), jnp.argmin(x, axis=0) and an argmax over the middle dimension of a [4, 4, 300]
// view, as the plugin receives them (JAX 0.10's jax.export bytecode, printed by oxhlo convert).
module @jit__lambda attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func @main(%arg0: tensor<16x300xf32>) -> (tensor<16xi32> {jax.result_info = "result[0]"}, tensor<300xi32> {jax.result_info = "result[1]"}, tensor<4x300xi32> {jax.result_info = "result[2]"}) {
    %0 = call @argmax(%arg0) : (tensor<16x300xf32>) -> tensor<16xi32>
    %1 = call @argmin(%arg0) : (tensor<16x300xf32>) -> tensor<300xi32>
    %2 = stablehlo.reshape %arg0 : (tensor<16x300xf32>) -> tensor<4x4x300xf32>
    %3 = call @argmax_0(%2) : (tensor<4x4x300xf32>) -> tensor<4x300xi32>
    return %0, %1, %3 : tensor<16xi32>, tensor<300xi32>, tensor<4x300xi32>
  }
  func.func private @argmax(%arg0: tensor<16x300xf32>) -> tensor<16xi32> {
    %0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %2 = stablehlo.iota dim = 1 : tensor<16x300xi32>
    %3:2 = stablehlo.reduce(%arg0 init: %1),(%2 init: %0) across dimensions = [1] : (tensor<16x300xf32>, tensor<16x300xi32>, tensor<f32>, tensor<i32>) -> (tensor<16xf32>, tensor<16xi32>)
     reducer(%arg1: tensor<f32>, %arg3: tensor<f32>) (%arg2: tensor<i32>, %arg4: tensor<i32>) {
      %4 = stablehlo.compare GT, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %5 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = stablehlo.or %4, %5 : tensor<i1>
      %7 = stablehlo.compare EQ, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %8 = stablehlo.compare LT, %arg2, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %9 = stablehlo.and %7, %8 : tensor<i1>
      %10 = stablehlo.or %6, %9 : tensor<i1>
      %11 = stablehlo.select %6, %arg1, %arg3 : tensor<i1>, tensor<f32>
      %12 = stablehlo.select %10, %arg2, %arg4 : tensor<i1>, tensor<i32>
      stablehlo.return %11, %12 : tensor<f32>, tensor<i32>
    }
    return %3#1 : tensor<16xi32>
  }
  func.func private @argmin(%arg0: tensor<16x300xf32>) -> tensor<300xi32> {
    %0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %2 = stablehlo.iota dim = 0 : tensor<16x300xi32>
    %3:2 = stablehlo.reduce(%arg0 init: %1),(%2 init: %0) across dimensions = [0] : (tensor<16x300xf32>, tensor<16x300xi32>, tensor<f32>, tensor<i32>) -> (tensor<300xf32>, tensor<300xi32>)
     reducer(%arg1: tensor<f32>, %arg3: tensor<f32>) (%arg2: tensor<i32>, %arg4: tensor<i32>) {
      %4 = stablehlo.compare LT, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %5 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = stablehlo.or %4, %5 : tensor<i1>
      %7 = stablehlo.compare EQ, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %8 = stablehlo.compare LT, %arg2, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %9 = stablehlo.and %7, %8 : tensor<i1>
      %10 = stablehlo.or %6, %9 : tensor<i1>
      %11 = stablehlo.select %6, %arg1, %arg3 : tensor<i1>, tensor<f32>
      %12 = stablehlo.select %10, %arg2, %arg4 : tensor<i1>, tensor<i32>
      stablehlo.return %11, %12 : tensor<f32>, tensor<i32>
    }
    return %3#1 : tensor<300xi32>
  }
  func.func private @argmax_0(%arg0: tensor<4x4x300xf32>) -> tensor<4x300xi32> {
    %0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %2 = stablehlo.iota dim = 1 : tensor<4x4x300xi32>
    %3:2 = stablehlo.reduce(%arg0 init: %1),(%2 init: %0) across dimensions = [1] : (tensor<4x4x300xf32>, tensor<4x4x300xi32>, tensor<f32>, tensor<i32>) -> (tensor<4x300xf32>, tensor<4x300xi32>)
     reducer(%arg1: tensor<f32>, %arg3: tensor<f32>) (%arg2: tensor<i32>, %arg4: tensor<i32>) {
      %4 = stablehlo.compare GT, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %5 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = stablehlo.or %4, %5 : tensor<i1>
      %7 = stablehlo.compare EQ, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %8 = stablehlo.compare LT, %arg2, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %9 = stablehlo.and %7, %8 : tensor<i1>
      %10 = stablehlo.or %6, %9 : tensor<i1>
      %11 = stablehlo.select %6, %arg1, %arg3 : tensor<i1>, tensor<f32>
      %12 = stablehlo.select %10, %arg2, %arg4 : tensor<i1>, tensor<i32>
      stablehlo.return %11, %12 : tensor<f32>, tensor<i32>
    }
    return %3#1 : tensor<4x300xi32>
  }
}
