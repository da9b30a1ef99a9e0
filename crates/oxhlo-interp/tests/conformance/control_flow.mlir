// Control flow and evaluator features (hand-written, values derived from the spec's semantics).

func.func @main() {
  %init_i = stablehlo.constant dense<1> : tensor<i64>
  %init_sum = stablehlo.constant dense<0> : tensor<i64>
  %one = stablehlo.constant dense<1> : tensor<i64>
  %ten = stablehlo.constant dense<10> : tensor<i64>
  %results0, %results1 = stablehlo.while(%arg0 = %init_i, %arg1 = %init_sum) : tensor<i64>, tensor<i64>
   cond {
    %cond = stablehlo.compare LT, %arg0, %ten : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %cond : tensor<i1>
  } do {
    %new_sum = stablehlo.add %arg1, %one : tensor<i64>
    %new_i = stablehlo.add %arg0, %one : tensor<i64>
    stablehlo.return %new_i, %new_sum : tensor<i64>, tensor<i64>
  }
  check.expect_eq_const %results0, dense<10> : tensor<i64>
  check.expect_eq_const %results1, dense<9> : tensor<i64>
  func.return
}

// -----

func.func @main() {
  %pred = stablehlo.constant dense<true> : tensor<i1>
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %b = stablehlo.constant dense<[3, 4]> : tensor<2xi32>
  %r = "stablehlo.if"(%pred) ({
    stablehlo.return %a : tensor<2xi32>
  }, {
    stablehlo.return %b : tensor<2xi32>
  }) : (tensor<i1>) -> tensor<2xi32>
  check.expect_eq_const %r, dense<[1, 2]> : tensor<2xi32>
  func.return
}

// -----

func.func @main() {
  %index = stablehlo.constant dense<-1> : tensor<i32>
  %a = stablehlo.constant dense<0> : tensor<2xi64>
  %b = stablehlo.constant dense<1> : tensor<2xi64>
  %r0, %r1 = "stablehlo.case"(%index) ({
    stablehlo.return %a, %a : tensor<2xi64>, tensor<2xi64>
  }, {
    stablehlo.return %b, %b : tensor<2xi64>, tensor<2xi64>
  }) : (tensor<i32>) -> (tensor<2xi64>, tensor<2xi64>)
  check.expect_eq_const %r0, dense<1> : tensor<2xi64>
  check.expect_eq_const %r1, dense<1> : tensor<2xi64>
  func.return
}

// -----

func.func private @double(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = stablehlo.add %x, %x : tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

func.func @main() {
  %x = stablehlo.constant dense<[1.5, -2.0, 0.25]> : tensor<3xf32>
  %0 = func.call @double(%x) : (tensor<3xf32>) -> tensor<3xf32>
  %1 = stablehlo.composite "my.double" %0 {decomposition = @double} : (tensor<3xf32>) -> tensor<3xf32>
  %2 = stablehlo.optimization_barrier %1 : tensor<3xf32>
  check.expect_eq_const %2, dense<[6.0, -8.0, 1.0]> : tensor<3xf32>
  check.expect_almost_eq_const %2, dense<[6.00001, -8.0, 1.0]> : tensor<3xf32>
  func.return
}

// -----

// map: the region runs once per element.
func.func @main() {
  %a = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %b = stablehlo.constant dense<[[5.0, 6.0], [7.0, 8.0]]> : tensor<2x2xf32>
  %r = "stablehlo.map"(%a, %b) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %p = stablehlo.multiply %x, %y : tensor<f32>
    %one = stablehlo.constant dense<1.0> : tensor<f32>
    %s = stablehlo.add %p, %one : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {dimensions = array<i64: 0, 1>} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  check.expect_eq_const %r, dense<[[6.0, 13.0], [22.0, 33.0]]> : tensor<2x2xf32>
  func.return
}

// -----

// Recursion through func.call and if: factorial(10).
func.func private @fact(%n: tensor<i64>) -> tensor<i64> {
  %one = stablehlo.constant dense<1> : tensor<i64>
  %done = stablehlo.compare LE, %n, %one : (tensor<i64>, tensor<i64>) -> tensor<i1>
  %r = "stablehlo.if"(%done) ({
    stablehlo.return %one : tensor<i64>
  }, {
    %m = stablehlo.subtract %n, %one : tensor<i64>
    %f = func.call @fact(%m) : (tensor<i64>) -> tensor<i64>
    %p = stablehlo.multiply %n, %f : tensor<i64>
    stablehlo.return %p : tensor<i64>
  }) : (tensor<i1>) -> tensor<i64>
  func.return %r : tensor<i64>
}

func.func @main() {
  %n = stablehlo.constant dense<10> : tensor<i64>
  %r = func.call @fact(%n) : (tensor<i64>) -> tensor<i64>
  check.expect_eq_const %r, dense<3628800> : tensor<i64>
  func.return
}

// -----

// A while loop carrying a tensor and a token; a nested while in its body.
func.func @main() {
  %x0 = stablehlo.constant dense<[1.0, -2.0, 0.5]> : tensor<3xf32>
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %three = stablehlo.constant dense<3> : tensor<i32>
  %t0 = stablehlo.create_token : !stablehlo.token
  %i, %x, %t = stablehlo.while(%ia = %i0, %xa = %x0, %ta = %t0) : tensor<i32>, tensor<3xf32>, !stablehlo.token
   cond {
    %c = stablehlo.compare LT, %ia, %three : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %j0 = stablehlo.constant dense<0> : tensor<i32>
    %j, %y = stablehlo.while(%jb = %j0, %yb = %xa) : tensor<i32>, tensor<3xf32>
     cond {
      %c2 = stablehlo.compare LT, %jb, %ia : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c2 : tensor<i1>
    } do {
      %y2 = stablehlo.add %yb, %yb : tensor<3xf32>
      %j2 = stablehlo.add %jb, %one : tensor<i32>
      stablehlo.return %j2, %y2 : tensor<i32>, tensor<3xf32>
    }
    %i2 = stablehlo.add %ia, %one : tensor<i32>
    %t2 = stablehlo.after_all %ta : !stablehlo.token
    stablehlo.return %i2, %y, %t2 : tensor<i32>, tensor<3xf32>, !stablehlo.token
  }
  // Doubled 0 + 1 + 2 = 3 times.
  check.expect_eq_const %x, dense<[8.0, -16.0, 4.0]> : tensor<3xf32>
  check.expect_eq_const %i, dense<3> : tensor<i32>
  func.return
}

// -----

// case with an in-range and an out-of-range index (the last branch runs), optimization_barrier on
// several values, and the JAX-style check custom calls.
func.func @main() {
  %one = stablehlo.constant dense<1> : tensor<i32>
  %five = stablehlo.constant dense<5> : tensor<i32>
  %a = stablehlo.constant dense<10> : tensor<i32>
  %b = stablehlo.constant dense<20> : tensor<i32>
  %c = stablehlo.constant dense<30> : tensor<i32>
  %r1 = "stablehlo.case"(%one) ({
    stablehlo.return %a : tensor<i32>
  }, {
    stablehlo.return %b : tensor<i32>
  }, {
    stablehlo.return %c : tensor<i32>
  }) : (tensor<i32>) -> tensor<i32>
  %r2 = "stablehlo.case"(%five) ({
    stablehlo.return %a : tensor<i32>
  }, {
    stablehlo.return %b : tensor<i32>
  }, {
    stablehlo.return %c : tensor<i32>
  }) : (tensor<i32>) -> tensor<i32>
  %o1, %o2 = stablehlo.optimization_barrier %r1, %r2 : tensor<i32>, tensor<i32>
  check.expect_eq_const %o1, dense<20> : tensor<i32>
  check.expect_eq_const %o2, dense<30> : tensor<i32>
  stablehlo.custom_call @check.expect_eq(%o2, %c) {has_side_effect = true} : (tensor<i32>, tensor<i32>) -> ()
  %e = stablehlo.custom_call @check.eq(%o1, %b) : (tensor<i32>, tensor<i32>) -> tensor<i1>
  check.expect_eq_const %e, dense<true> : tensor<i1>
  func.return
}
