// A long row of six i64 operands (52 bytes a position with its index: too many to keep a chunk of 1024
// in a block's 48 KiB, so the shared-memory steps sort positions only and read the keys from global
// memory), keyed on the first operand ascending, ties by position; 20000 elements (p = 32768: three
// global stages).
func.func @main(%a: tensor<20000xi64>, %b: tensor<20000xi64>, %c: tensor<20000xi64>, %d: tensor<20000xi64>, %e: tensor<20000xi64>, %f: tensor<20000xi64>) -> (tensor<20000xi64>, tensor<20000xi64>, tensor<20000xi64>, tensor<20000xi64>, tensor<20000xi64>, tensor<20000xi64>) {
  %0:6 = "stablehlo.sort"(%a, %b, %c, %d, %e, %f) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a0: tensor<i64>, %a1: tensor<i64>, %b0: tensor<i64>, %b1: tensor<i64>, %c0: tensor<i64>, %c1: tensor<i64>, %d0: tensor<i64>, %d1: tensor<i64>, %e0: tensor<i64>, %e1: tensor<i64>, %f0: tensor<i64>, %f1: tensor<i64>):
    %1 = stablehlo.compare LT, %a0, %a1, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) : (tensor<20000xi64>, tensor<20000xi64>, tensor<20000xi64>, tensor<20000xi64>, tensor<20000xi64>, tensor<20000xi64>) -> (tensor<20000xi64>, tensor<20000xi64>, tensor<20000xi64>, tensor<20000xi64>, tensor<20000xi64>, tensor<20000xi64>)
  return %0#0, %0#1, %0#2, %0#3, %0#4, %0#5 : tensor<20000xi64>, tensor<20000xi64>, tensor<20000xi64>, tensor<20000xi64>, tensor<20000xi64>, tensor<20000xi64>
}
