// stablehlo.async_start / async_done (hand-written; expected values derived by hand): async_start calls
// `called_computation` on its operands and yields a !stablehlo.future of its results; async_done unwraps
// them. Work scheduled between the two does not change the results.

func.func private @add_mul(%a: tensor<3xi32>, %b: tensor<3xi32>) -> (tensor<3xi32>, tensor<3xi32>) {
  %s = stablehlo.add %a, %b : tensor<3xi32>
  %m = stablehlo.multiply %a, %b : tensor<3xi32>
  func.return %s, %m : tensor<3xi32>, tensor<3xi32>
}
func.func @main() {
  %a = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %b = stablehlo.constant dense<[4, 5, 6]> : tensor<3xi32>
  %f = "stablehlo.async_start"(%a, %b) {called_computation = @add_mul} : (tensor<3xi32>, tensor<3xi32>) -> !stablehlo.future<tensor<3xi32>, tensor<3xi32>>
  %x = stablehlo.subtract %b, %a : tensor<3xi32>
  %r:2 = "stablehlo.async_done"(%f) : (!stablehlo.future<tensor<3xi32>, tensor<3xi32>>) -> (tensor<3xi32>, tensor<3xi32>)
  check.expect_eq_const %r#0, dense<[5, 7, 9]> : tensor<3xi32>
  check.expect_eq_const %r#1, dense<[4, 10, 18]> : tensor<3xi32>
  check.expect_eq_const %x, dense<3> : tensor<3xi32>
  func.return
}

// -----

func.func private @neg(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %r = stablehlo.negate %x : tensor<2x2xf32>
  func.return %r : tensor<2x2xf32>
}
func.func @main() {
  %x = stablehlo.constant dense<[[1.5, -0.0], [0x7F800000, -2.25]]> : tensor<2x2xf32>
  %f = "stablehlo.async_start"(%x) {called_computation = @neg} : (tensor<2x2xf32>) -> !stablehlo.future<tensor<2x2xf32>>
  %r = "stablehlo.async_done"(%f) : (!stablehlo.future<tensor<2x2xf32>>) -> tensor<2x2xf32>
  check.expect_eq_const %r, dense<[[-1.5, 0.0], [0xFF800000, 2.25]]> : tensor<2x2xf32>
  func.return
}

// -----

// A computation without operands, and two futures in flight at once (done in the opposite order).
func.func private @seven() -> tensor<i64> {
  %c = stablehlo.constant dense<7> : tensor<i64>
  func.return %c : tensor<i64>
}
func.func private @twice(%x: tensor<i64>) -> tensor<i64> {
  %r = stablehlo.add %x, %x : tensor<i64>
  func.return %r : tensor<i64>
}
func.func @main() {
  %f1 = "stablehlo.async_start"() {called_computation = @seven} : () -> !stablehlo.future<tensor<i64>>
  %c = stablehlo.constant dense<-4> : tensor<i64>
  %f2 = "stablehlo.async_start"(%c) {called_computation = @twice} : (tensor<i64>) -> !stablehlo.future<tensor<i64>>
  %r2 = "stablehlo.async_done"(%f2) : (!stablehlo.future<tensor<i64>>) -> tensor<i64>
  %r1 = "stablehlo.async_done"(%f1) : (!stablehlo.future<tensor<i64>>) -> tensor<i64>
  check.expect_eq_const %r1, dense<7> : tensor<i64>
  check.expect_eq_const %r2, dense<-8> : tensor<i64>
  func.return
}

// -----

// An async pair inside a while body: sum of 2*i for i = 0..4 is 20.
func.func private @twice(%x: tensor<i32>) -> tensor<i32> {
  %r = stablehlo.add %x, %x : tensor<i32>
  func.return %r : tensor<i32>
}
func.func @main() {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %five = stablehlo.constant dense<5> : tensor<i32>
  %i, %acc = stablehlo.while(%arg0 = %zero, %arg1 = %zero) : tensor<i32>, tensor<i32>
   cond {
    %p = stablehlo.compare LT, %arg0, %five : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %f = "stablehlo.async_start"(%arg0) {called_computation = @twice} : (tensor<i32>) -> !stablehlo.future<tensor<i32>>
    %n = stablehlo.add %arg0, %one : tensor<i32>
    %d = "stablehlo.async_done"(%f) : (!stablehlo.future<tensor<i32>>) -> tensor<i32>
    %s = stablehlo.add %arg1, %d : tensor<i32>
    stablehlo.return %n, %s : tensor<i32>, tensor<i32>
  }
  check.expect_eq_const %i, dense<5> : tensor<i32>
  check.expect_eq_const %acc, dense<20> : tensor<i32>
  func.return
}

// -----

// A collective run asynchronously on two processes: all_reduce(sum) of [1, 2] and [10, 20].
func.func private @allsum(%x: tensor<2xi64>) -> tensor<2xi64> {
  %r = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %s = stablehlo.add %a, %b : tensor<i64>
    stablehlo.return %s : tensor<i64>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xi64>) -> tensor<2xi64>
  func.return %r : tensor<2xi64>
}
func.func @f(%x: tensor<2xi64>) -> tensor<2xi64> {
  %fut = "stablehlo.async_start"(%x) {called_computation = @allsum} : (tensor<2xi64>) -> !stablehlo.future<tensor<2xi64>>
  %r = "stablehlo.async_done"(%fut) : (!stablehlo.future<tensor<2xi64>>) -> tensor<2xi64>
  func.return %r : tensor<2xi64>
}
func.func @main() {
  %in0 = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
  %in1 = stablehlo.constant dense<[10, 20]> : tensor<2xi64>
  %r:2 = "interpreter.run_parallel"(%in0, %in1) {programs = [[@f], [@f]]} : (tensor<2xi64>, tensor<2xi64>) -> (tensor<2xi64>, tensor<2xi64>)
  check.expect_eq_const %r#0, dense<[11, 22]> : tensor<2xi64>
  check.expect_eq_const %r#1, dense<[11, 22]> : tensor<2xi64>
  func.return
}
