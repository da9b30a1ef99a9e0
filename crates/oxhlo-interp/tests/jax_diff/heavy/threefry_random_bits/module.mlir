module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2xui32>) -> (tensor<3x5xui64> {jax.result_info = "result"}) {
    %0 = stablehlo.slice %arg0 [0:1] : (tensor<2xui32>) -> tensor<1xui32>
    %1 = stablehlo.reshape %0 : (tensor<1xui32>) -> tensor<ui32>
    %2 = stablehlo.slice %arg0 [1:2] : (tensor<2xui32>) -> tensor<1xui32>
    %3 = stablehlo.reshape %2 : (tensor<1xui32>) -> tensor<ui32>
    %4 = stablehlo.iota dim = 0 : tensor<3x5xui64>
    %5 = stablehlo.iota dim = 1 : tensor<3x5xui64>
    %c = stablehlo.constant dense<5> : tensor<ui64>
    %6 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<ui64>) -> tensor<3x5xui64>
    %7 = stablehlo.multiply %6, %4 : tensor<3x5xui64>
    %c_0 = stablehlo.constant dense<1> : tensor<ui64>
    %8 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<ui64>) -> tensor<3x5xui64>
    %9 = stablehlo.multiply %8, %5 : tensor<3x5xui64>
    %10 = stablehlo.add %7, %9 : tensor<3x5xui64>
    %c_1 = stablehlo.constant dense<32> : tensor<ui64>
    %11 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<ui64>) -> tensor<3x5xui64>
    %12 = stablehlo.shift_right_logical %10, %11 : tensor<3x5xui64>
    %13 = stablehlo.convert %10 : (tensor<3x5xui64>) -> tensor<3x5xui32>
    %14 = stablehlo.convert %12 : (tensor<3x5xui64>) -> tensor<3x5xui32>
    %15:2 = call @threefry2x32(%1, %3, %14, %13) : (tensor<ui32>, tensor<ui32>, tensor<3x5xui32>, tensor<3x5xui32>) -> (tensor<3x5xui32>, tensor<3x5xui32>)
    %16 = stablehlo.convert %15#0 : (tensor<3x5xui32>) -> tensor<3x5xui64>
    %17 = stablehlo.convert %15#1 : (tensor<3x5xui32>) -> tensor<3x5xui64>
    %c_2 = stablehlo.constant dense<32> : tensor<ui64>
    %18 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<ui64>) -> tensor<3x5xui64>
    %19 = stablehlo.shift_left %16, %18 : tensor<3x5xui64>
    %20 = stablehlo.or %19, %17 : tensor<3x5xui64>
    return %20 : tensor<3x5xui64>
  }
  func.func private @threefry2x32(%arg0: tensor<ui32>, %arg1: tensor<ui32>, %arg2: tensor<3x5xui32>, %arg3: tensor<3x5xui32>) -> (tensor<3x5xui32>, tensor<3x5xui32>) {
    %c = stablehlo.constant dense<[13, 15, 26, 6]> : tensor<4xui32>
    %c_0 = stablehlo.constant dense<[17, 29, 16, 24]> : tensor<4xui32>
    %0 = stablehlo.xor %arg0, %arg1 : tensor<ui32>
    %c_1 = stablehlo.constant dense<466688986> : tensor<ui32>
    %1 = stablehlo.xor %0, %c_1 : tensor<ui32>
    %2 = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<ui32>) -> tensor<3x5xui32>
    %3 = stablehlo.add %arg2, %2 : tensor<3x5xui32>
    %4 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<ui32>) -> tensor<3x5xui32>
    %5 = stablehlo.add %arg3, %4 : tensor<3x5xui32>
    %c_2 = stablehlo.constant dense<0> : tensor<i64>
    %c_3 = stablehlo.constant dense<0> : tensor<i64>
    %6:9 = stablehlo.while(%iterArg = %c_3, %iterArg_4 = %c_2, %iterArg_5 = %3, %iterArg_6 = %5, %iterArg_7 = %arg1, %iterArg_8 = %1, %iterArg_9 = %arg0, %iterArg_10 = %c, %iterArg_11 = %c_0) : tensor<i64>, tensor<i64>, tensor<3x5xui32>, tensor<3x5xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>
    cond {
      %c_12 = stablehlo.constant dense<5> : tensor<i64>
      %7 = stablehlo.compare LT, %iterArg, %c_12, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %7 : tensor<i1>
    } do {
      %7:8 = func.call @closed_call(%iterArg_4, %iterArg_5, %iterArg_6, %iterArg_7, %iterArg_8, %iterArg_9, %iterArg_10, %iterArg_11) : (tensor<i64>, tensor<3x5xui32>, tensor<3x5xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>) -> (tensor<i64>, tensor<3x5xui32>, tensor<3x5xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>)
      %c_12 = stablehlo.constant dense<1> : tensor<i64>
      %8 = stablehlo.add %iterArg, %c_12 : tensor<i64>
      stablehlo.return %8, %7#0, %7#1, %7#2, %7#3, %7#4, %7#5, %7#6, %7#7 : tensor<i64>, tensor<i64>, tensor<3x5xui32>, tensor<3x5xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>
    }
    return %6#2, %6#3 : tensor<3x5xui32>, tensor<3x5xui32>
  }
  func.func private @closed_call(%arg0: tensor<i64>, %arg1: tensor<3x5xui32>, %arg2: tensor<3x5xui32>, %arg3: tensor<ui32>, %arg4: tensor<ui32>, %arg5: tensor<ui32>, %arg6: tensor<4xui32>, %arg7: tensor<4xui32>) -> (tensor<i64>, tensor<3x5xui32>, tensor<3x5xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>) {
    %c = stablehlo.constant dense<1> : tensor<i64>
    %0 = stablehlo.add %arg0, %c : tensor<i64>
    %1 = stablehlo.slice %arg6 [0:1] : (tensor<4xui32>) -> tensor<1xui32>
    %2 = stablehlo.reshape %1 : (tensor<1xui32>) -> tensor<ui32>
    %3 = stablehlo.add %arg1, %arg2 : tensor<3x5xui32>
    %4 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<ui32>) -> tensor<3x5xui32>
    %5 = stablehlo.shift_left %arg2, %4 : tensor<3x5xui32>
    %c_0 = stablehlo.constant dense<32> : tensor<ui32>
    %6 = stablehlo.subtract %c_0, %2 : tensor<ui32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<ui32>) -> tensor<3x5xui32>
    %8 = stablehlo.shift_right_logical %arg2, %7 : tensor<3x5xui32>
    %9 = stablehlo.or %5, %8 : tensor<3x5xui32>
    %10 = stablehlo.xor %3, %9 : tensor<3x5xui32>
    %11 = stablehlo.slice %arg6 [1:2] : (tensor<4xui32>) -> tensor<1xui32>
    %12 = stablehlo.reshape %11 : (tensor<1xui32>) -> tensor<ui32>
    %13 = stablehlo.add %3, %10 : tensor<3x5xui32>
    %14 = stablehlo.broadcast_in_dim %12, dims = [] : (tensor<ui32>) -> tensor<3x5xui32>
    %15 = stablehlo.shift_left %10, %14 : tensor<3x5xui32>
    %c_1 = stablehlo.constant dense<32> : tensor<ui32>
    %16 = stablehlo.subtract %c_1, %12 : tensor<ui32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [] : (tensor<ui32>) -> tensor<3x5xui32>
    %18 = stablehlo.shift_right_logical %10, %17 : tensor<3x5xui32>
    %19 = stablehlo.or %15, %18 : tensor<3x5xui32>
    %20 = stablehlo.xor %13, %19 : tensor<3x5xui32>
    %21 = stablehlo.slice %arg6 [2:3] : (tensor<4xui32>) -> tensor<1xui32>
    %22 = stablehlo.reshape %21 : (tensor<1xui32>) -> tensor<ui32>
    %23 = stablehlo.add %13, %20 : tensor<3x5xui32>
    %24 = stablehlo.broadcast_in_dim %22, dims = [] : (tensor<ui32>) -> tensor<3x5xui32>
    %25 = stablehlo.shift_left %20, %24 : tensor<3x5xui32>
    %c_2 = stablehlo.constant dense<32> : tensor<ui32>
    %26 = stablehlo.subtract %c_2, %22 : tensor<ui32>
    %27 = stablehlo.broadcast_in_dim %26, dims = [] : (tensor<ui32>) -> tensor<3x5xui32>
    %28 = stablehlo.shift_right_logical %20, %27 : tensor<3x5xui32>
    %29 = stablehlo.or %25, %28 : tensor<3x5xui32>
    %30 = stablehlo.xor %23, %29 : tensor<3x5xui32>
    %31 = stablehlo.slice %arg6 [3:4] : (tensor<4xui32>) -> tensor<1xui32>
    %32 = stablehlo.reshape %31 : (tensor<1xui32>) -> tensor<ui32>
    %33 = stablehlo.add %23, %30 : tensor<3x5xui32>
    %34 = stablehlo.broadcast_in_dim %32, dims = [] : (tensor<ui32>) -> tensor<3x5xui32>
    %35 = stablehlo.shift_left %30, %34 : tensor<3x5xui32>
    %c_3 = stablehlo.constant dense<32> : tensor<ui32>
    %36 = stablehlo.subtract %c_3, %32 : tensor<ui32>
    %37 = stablehlo.broadcast_in_dim %36, dims = [] : (tensor<ui32>) -> tensor<3x5xui32>
    %38 = stablehlo.shift_right_logical %30, %37 : tensor<3x5xui32>
    %39 = stablehlo.or %35, %38 : tensor<3x5xui32>
    %40 = stablehlo.xor %33, %39 : tensor<3x5xui32>
    %41 = stablehlo.broadcast_in_dim %arg3, dims = [] : (tensor<ui32>) -> tensor<3x5xui32>
    %42 = stablehlo.add %33, %41 : tensor<3x5xui32>
    %43 = stablehlo.broadcast_in_dim %arg4, dims = [] : (tensor<ui32>) -> tensor<3x5xui32>
    %44 = stablehlo.add %40, %43 : tensor<3x5xui32>
    %c_4 = stablehlo.constant dense<1> : tensor<i64>
    %45 = stablehlo.add %arg0, %c_4 : tensor<i64>
    %46 = stablehlo.convert %45 : (tensor<i64>) -> tensor<ui32>
    %47 = stablehlo.broadcast_in_dim %46, dims = [] : (tensor<ui32>) -> tensor<3x5xui32>
    %48 = stablehlo.add %44, %47 : tensor<3x5xui32>
    return %0, %42, %48, %arg4, %arg5, %arg3, %arg7, %arg6 : tensor<i64>, tensor<3x5xui32>, tensor<3x5xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>
  }
}
