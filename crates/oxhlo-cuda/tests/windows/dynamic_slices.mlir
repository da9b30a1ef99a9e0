// dynamic_slice and dynamic_update_slice with start indices from the arguments (small values, some
// negative: clamped to 0) and from constants past either end (clamped to 0 or operand_dim - size), of i32,
// i64 and u32 index types; and a scan-like while loop (lax.scan's form: each step reads row i of xs with
// dynamic_slice, adds it to a carry and writes the carry into row i of ys with dynamic_update_slice).
func.func @main(%x: tensor<10x6xf32>, %u: tensor<3x4xf32>, %i: tensor<i32>, %j: tensor<i32>, %xs: tensor<5x4xi32>) -> (tensor<4x6xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<10x6xf32>, tensor<10x6xf32>, tensor<5x4xi32>, tensor<1x4xi32>) {
  %big = stablehlo.constant dense<100> : tensor<i32>
  %m3 = stablehlo.constant dense<-3> : tensor<i64>
  %l2 = stablehlo.constant dense<2> : tensor<i64>
  %ubig = stablehlo.constant dense<4000000000> : tensor<ui32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %0 = stablehlo.dynamic_slice %x, %i, %z, sizes = [4, 6] : (tensor<10x6xf32>, tensor<i32>, tensor<i32>) -> tensor<4x6xf32>
  %1 = stablehlo.dynamic_slice %x, %big, %j, sizes = [3, 2] : (tensor<10x6xf32>, tensor<i32>, tensor<i32>) -> tensor<3x2xf32>
  %s1 = stablehlo.dynamic_slice %x, %l2, %m3, sizes = [3, 2] : (tensor<10x6xf32>, tensor<i64>, tensor<i64>) -> tensor<3x2xf32>
  %2 = stablehlo.dynamic_update_slice %x, %u, %i, %j : (tensor<10x6xf32>, tensor<3x4xf32>, tensor<i32>, tensor<i32>) -> tensor<10x6xf32>
  %3 = stablehlo.dynamic_update_slice %x, %u, %ubig, %ubig : (tensor<10x6xf32>, tensor<3x4xf32>, tensor<ui32>, tensor<ui32>) -> tensor<10x6xf32>
  %ys0 = stablehlo.constant dense<0> : tensor<5x4xi32>
  %c0 = stablehlo.constant dense<0> : tensor<1x4xi32>
  %r:3 = stablehlo.while(%k = %z, %carry = %c0, %ys = %ys0) : tensor<i32>, tensor<1x4xi32>, tensor<5x4xi32>
   cond {
    %n = stablehlo.constant dense<5> : tensor<i32>
    %lt = stablehlo.compare LT, %k, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %zz = stablehlo.constant dense<0> : tensor<i32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %row = stablehlo.dynamic_slice %xs, %k, %zz, sizes = [1, 4] : (tensor<5x4xi32>, tensor<i32>, tensor<i32>) -> tensor<1x4xi32>
    %c = stablehlo.add %carry, %row : tensor<1x4xi32>
    %ys2 = stablehlo.dynamic_update_slice %ys, %c, %k, %zz : (tensor<5x4xi32>, tensor<1x4xi32>, tensor<i32>, tensor<i32>) -> tensor<5x4xi32>
    %k2 = stablehlo.add %k, %one : tensor<i32>
    stablehlo.return %k2, %c, %ys2 : tensor<i32>, tensor<1x4xi32>, tensor<5x4xi32>
  }
  return %0, %1, %s1, %2, %3, %r#2, %r#1 : tensor<4x6xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<10x6xf32>, tensor<10x6xf32>, tensor<5x4xi32>, tensor<1x4xi32>
}
