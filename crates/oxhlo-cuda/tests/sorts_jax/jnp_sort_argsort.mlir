// jnp.sort(x, axis=-1) and jnp.argsort(x, axis=0) of an [8, 100] f32 array as the plugin receives them
// (JAX 0.10's jax.export bytecode, printed by oxhlo convert): the comparators' constants are defined
// outside their regions.
module @jit__lambda attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func @main(%arg0: tensor<8x100xf32>) -> (tensor<8x100xf32> {jax.result_info = "result[0]"}, tensor<8x100xi32> {jax.result_info = "result[1]"}) {
    %0 = call @sort(%arg0) : (tensor<8x100xf32>) -> tensor<8x100xf32>
    %1 = call @argsort(%arg0) : (tensor<8x100xf32>) -> tensor<8x100xi32>
    return %0, %1 : tensor<8x100xf32>, tensor<8x100xi32>
  }
  func.func private @sort(%arg0: tensor<8x100xf32>) -> tensor<8x100xf32> {
    %0 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = "stablehlo.sort"(%arg0) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %3 = stablehlo.compare EQ, %arg1, %1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %4 = stablehlo.select %3, %1, %arg1 : tensor<i1>, tensor<f32>
      %5 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = stablehlo.select %5, %0, %4 : tensor<i1>, tensor<f32>
      %7 = stablehlo.compare EQ, %arg2, %1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %8 = stablehlo.select %7, %1, %arg2 : tensor<i1>, tensor<f32>
      %9 = stablehlo.compare NE, %arg2, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %10 = stablehlo.select %9, %0, %8 : tensor<i1>, tensor<f32>
      %11 = stablehlo.compare LT, %6, %10, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %11 : tensor<i1>
    }) : (tensor<8x100xf32>) -> tensor<8x100xf32>
    return %2 : tensor<8x100xf32>
  }
  func.func private @argsort(%arg0: tensor<8x100xf32>) -> tensor<8x100xi32> {
    %0 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.iota dim = 0 : tensor<8x100xi32>
    %3:2 = "stablehlo.sort"(%arg0, %2) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>, %arg3: tensor<i32>, %arg4: tensor<i32>):
      %4 = stablehlo.compare EQ, %arg1, %1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %5 = stablehlo.select %4, %1, %arg1 : tensor<i1>, tensor<f32>
      %6 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %7 = stablehlo.select %6, %0, %5 : tensor<i1>, tensor<f32>
      %8 = stablehlo.compare EQ, %arg2, %1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %9 = stablehlo.select %8, %1, %arg2 : tensor<i1>, tensor<f32>
      %10 = stablehlo.compare NE, %arg2, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %11 = stablehlo.select %10, %0, %9 : tensor<i1>, tensor<f32>
      %12 = stablehlo.compare LT, %7, %11, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %12 : tensor<i1>
    }) : (tensor<8x100xf32>, tensor<8x100xi32>) -> (tensor<8x100xf32>, tensor<8x100xi32>)
    return %3#1 : tensor<8x100xi32>
  }
}
