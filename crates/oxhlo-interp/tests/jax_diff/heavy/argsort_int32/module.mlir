module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<9x2xi32>) -> (tensor<9x2xi64> {jax.result_info = "result"}) {
    %0 = call @argsort(%arg0) : (tensor<9x2xi32>) -> tensor<9x2xi64>
    return %0 : tensor<9x2xi64>
  }
  func.func private @argsort(%arg0: tensor<9x2xi32>) -> tensor<9x2xi64> {
    %0 = stablehlo.iota dim = 0 : tensor<9x2xi64>
    %1:2 = "stablehlo.sort"(%arg0, %0) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<i32>, %arg2: tensor<i32>, %arg3: tensor<i64>, %arg4: tensor<i64>):
      %2 = stablehlo.compare LT, %arg1, %arg2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    }) : (tensor<9x2xi32>, tensor<9x2xi64>) -> (tensor<9x2xi32>, tensor<9x2xi64>)
    return %1#1 : tensor<9x2xi64>
  }
}
