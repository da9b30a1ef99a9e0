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
