// Reductions of two inputs over long rows, the group shared out among a block's threads (the tree kernel):
// argmax (JAX's reducer) of [3, 70000] rows whose maximum 1008.25 repeats (ties go to the first
// position, wherever its chunk lies); the same rows with NaNs put at 50000 + row and 60000 (the first NaN
// wins); and a reducer that is not commutative, "the last positive value and its position", over
// [5, 1000] (its value depends on the order of the fold), and the same reducer over [3, 70000] rows
// whose values past 30000 + 1000 * row are negative (a long group split into parts across blocks: the
// parts' values combine in order); and argmax along the first dimension of the
// rows transposed to [70000, 3] (strided groups, three results: a block each). The values are integers mod 1009 plus the
// input clamped to [-0.25, 0.25].
module @argmax_long {
  func.func @main(%x: tensor<3x70000xf32>, %w: tensor<5x1000xf32>) -> (tensor<3xi32>, tensor<3xf32>, tensor<3xi32>, tensor<5xf32>, tensor<5xi32>, tensor<3xi32>, tensor<3xf32>, tensor<3xi32>) {
    %lo = stablehlo.constant dense<-2.500000e-01> : tensor<f32>
    %hi = stablehlo.constant dense<2.500000e-01> : tensor<f32>
    %c7919 = stablehlo.constant dense<7919> : tensor<3x70000xi32>
    %c13 = stablehlo.constant dense<13> : tensor<3x70000xi32>
    %c1009 = stablehlo.constant dense<1009> : tensor<3x70000xi32>
    %i = stablehlo.iota dim = 1 : tensor<3x70000xi32>
    %r = stablehlo.iota dim = 0 : tensor<3x70000xi32>
    %a = stablehlo.multiply %i, %c7919 : tensor<3x70000xi32>
    %b = stablehlo.multiply %r, %c13 : tensor<3x70000xi32>
    %s = stablehlo.add %a, %b : tensor<3x70000xi32>
    %m = stablehlo.remainder %s, %c1009 : tensor<3x70000xi32>
    %f = stablehlo.convert %m : (tensor<3x70000xi32>) -> tensor<3x70000xf32>
    %cx = stablehlo.clamp %lo, %x, %hi : (tensor<f32>, tensor<3x70000xf32>, tensor<f32>) -> tensor<3x70000xf32>
    %g = stablehlo.add %f, %cx : tensor<3x70000xf32>
    %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %zi = stablehlo.constant dense<0> : tensor<i32>
    %am:2 = stablehlo.reduce(%g init: %ninf), (%i init: %zi) across dimensions = [1] : (tensor<3x70000xf32>, tensor<3x70000xi32>, tensor<f32>, tensor<i32>) -> (tensor<3xf32>, tensor<3xi32>)
     reducer(%p0: tensor<f32>, %q0: tensor<f32>) (%p1: tensor<i32>, %q1: tensor<i32>) {
      %0 = stablehlo.compare GT, %p0, %q0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %1 = stablehlo.compare NE, %p0, %p0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %2 = stablehlo.or %0, %1 : tensor<i1>
      %3 = stablehlo.compare EQ, %p0, %q0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %4 = stablehlo.compare LT, %p1, %q1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %5 = stablehlo.and %3, %4 : tensor<i1>
      %6 = stablehlo.or %2, %5 : tensor<i1>
      %7 = stablehlo.select %2, %p0, %q0 : tensor<i1>, tensor<f32>
      %8 = stablehlo.select %6, %p1, %q1 : tensor<i1>, tensor<i32>
      stablehlo.return %7, %8 : tensor<f32>, tensor<i32>
    }
    %c50000 = stablehlo.constant dense<50000> : tensor<3x70000xi32>
    %c60000 = stablehlo.constant dense<60000> : tensor<3x70000xi32>
    %at = stablehlo.add %r, %c50000 : tensor<3x70000xi32>
    %e1 = stablehlo.compare EQ, %i, %at, SIGNED : (tensor<3x70000xi32>, tensor<3x70000xi32>) -> tensor<3x70000xi1>
    %e2 = stablehlo.compare EQ, %i, %c60000, SIGNED : (tensor<3x70000xi32>, tensor<3x70000xi32>) -> tensor<3x70000xi1>
    %e = stablehlo.or %e1, %e2 : tensor<3x70000xi1>
    %nan = stablehlo.constant dense<0x7FC00000> : tensor<3x70000xf32>
    %gn = stablehlo.select %e, %nan, %g : tensor<3x70000xi1>, tensor<3x70000xf32>
    %an:2 = stablehlo.reduce(%gn init: %ninf), (%i init: %zi) across dimensions = [1] : (tensor<3x70000xf32>, tensor<3x70000xi32>, tensor<f32>, tensor<i32>) -> (tensor<3xf32>, tensor<3xi32>)
     reducer(%p0: tensor<f32>, %q0: tensor<f32>) (%p1: tensor<i32>, %q1: tensor<i32>) {
      %0 = stablehlo.compare GT, %p0, %q0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %1 = stablehlo.compare NE, %p0, %p0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %2 = stablehlo.or %0, %1 : tensor<i1>
      %3 = stablehlo.compare EQ, %p0, %q0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %4 = stablehlo.compare LT, %p1, %q1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %5 = stablehlo.and %3, %4 : tensor<i1>
      %6 = stablehlo.or %2, %5 : tensor<i1>
      %7 = stablehlo.select %2, %p0, %q0 : tensor<i1>, tensor<f32>
      %8 = stablehlo.select %6, %p1, %q1 : tensor<i1>, tensor<i32>
      stablehlo.return %7, %8 : tensor<f32>, tensor<i32>
    }
    %wi = stablehlo.iota dim = 1 : tensor<5x1000xi32>
    %zf = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %m1 = stablehlo.constant dense<-1> : tensor<i32>
    %lp:2 = stablehlo.reduce(%w init: %zf), (%wi init: %m1) across dimensions = [1] : (tensor<5x1000xf32>, tensor<5x1000xi32>, tensor<f32>, tensor<i32>) -> (tensor<5xf32>, tensor<5xi32>)
     reducer(%p0: tensor<f32>, %q0: tensor<f32>) (%p1: tensor<i32>, %q1: tensor<i32>) {
      %z = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %0 = stablehlo.compare GT, %q0, %z, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %1 = stablehlo.select %0, %q0, %p0 : tensor<i1>, tensor<f32>
      %2 = stablehlo.select %0, %q1, %p1 : tensor<i1>, tensor<i32>
      stablehlo.return %1, %2 : tensor<f32>, tensor<i32>
    }
    %gt = stablehlo.transpose %g, dims = [1, 0] : (tensor<3x70000xf32>) -> tensor<70000x3xf32>
    %it = stablehlo.iota dim = 0 : tensor<70000x3xi32>
    %at0:2 = stablehlo.reduce(%gt init: %ninf), (%it init: %zi) across dimensions = [0] : (tensor<70000x3xf32>, tensor<70000x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<3xf32>, tensor<3xi32>)
     reducer(%p0: tensor<f32>, %q0: tensor<f32>) (%p1: tensor<i32>, %q1: tensor<i32>) {
      %0 = stablehlo.compare GT, %p0, %q0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %1 = stablehlo.compare NE, %p0, %p0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %2 = stablehlo.or %0, %1 : tensor<i1>
      %3 = stablehlo.compare EQ, %p0, %q0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %4 = stablehlo.compare LT, %p1, %q1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %5 = stablehlo.and %3, %4 : tensor<i1>
      %6 = stablehlo.or %2, %5 : tensor<i1>
      %7 = stablehlo.select %2, %p0, %q0 : tensor<i1>, tensor<f32>
      %8 = stablehlo.select %6, %p1, %q1 : tensor<i1>, tensor<i32>
      stablehlo.return %7, %8 : tensor<f32>, tensor<i32>
    }
    %c30000 = stablehlo.constant dense<30000> : tensor<3x70000xi32>
    %c1000 = stablehlo.constant dense<1000> : tensor<3x70000xi32>
    %rk = stablehlo.multiply %r, %c1000 : tensor<3x70000xi32>
    %cut = stablehlo.add %rk, %c30000 : tensor<3x70000xi32>
    %before = stablehlo.compare LT, %i, %cut, SIGNED : (tensor<3x70000xi32>, tensor<3x70000xi32>) -> tensor<3x70000xi1>
    %neg = stablehlo.constant dense<-1.000000e+00> : tensor<3x70000xf32>
    %cm = stablehlo.select %before, %cx, %neg : tensor<3x70000xi1>, tensor<3x70000xf32>
    %lq:2 = stablehlo.reduce(%cm init: %zf), (%i init: %m1) across dimensions = [1] : (tensor<3x70000xf32>, tensor<3x70000xi32>, tensor<f32>, tensor<i32>) -> (tensor<3xf32>, tensor<3xi32>)
     reducer(%p0: tensor<f32>, %q0: tensor<f32>) (%p1: tensor<i32>, %q1: tensor<i32>) {
      %z = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %0 = stablehlo.compare GT, %q0, %z, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %1 = stablehlo.select %0, %q0, %p0 : tensor<i1>, tensor<f32>
      %2 = stablehlo.select %0, %q1, %p1 : tensor<i1>, tensor<i32>
      stablehlo.return %1, %2 : tensor<f32>, tensor<i32>
    }
    return %am#1, %an#0, %an#1, %lp#0, %lp#1, %at0#1, %lq#0, %lq#1 : tensor<3xi32>, tensor<3xf32>, tensor<3xi32>, tensor<5xf32>, tensor<5xi32>, tensor<3xi32>, tensor<3xf32>, tensor<3xi32>
  }
}
