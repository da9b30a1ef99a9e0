// Rows long enough for every depth of the register network's long-row form (sort_registers.rs): one
// row of 33000 f32 (65536 slots in chunks of 4096; its last stage four steps across chunks, three
// in one launch, then one), and two rows of 17000 f64 keys carrying i64 values, descending (chunks
// of 2048; the last stage four steps across chunks, three, then one, at a time), and the three
// columns of [9000, 3] i32 along dimension 0 (rows 3 elements apart).
func.func @main(%x: tensor<33000xf32>, %y: tensor<2x17000xf64>, %i: tensor<2x17000xi64>, %z: tensor<9000x3xi32>) -> (tensor<33000xf32>, tensor<2x17000xf64>, tensor<2x17000xi64>, tensor<9000x3xi32>) {
  %0 = "stablehlo.sort"(%x) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) : (tensor<33000xf32>) -> tensor<33000xf32>
  %10:2 = "stablehlo.sort"(%y, %i) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f64>, %b: tensor<f64>, %c: tensor<i64>, %d: tensor<i64>):
    %11 = stablehlo.compare GT, %a, %b, TOTALORDER : (tensor<f64>, tensor<f64>) -> tensor<i1>
    stablehlo.return %11 : tensor<i1>
  }) : (tensor<2x17000xf64>, tensor<2x17000xi64>) -> (tensor<2x17000xf64>, tensor<2x17000xi64>)
  %20 = "stablehlo.sort"(%z) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %21 = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %21 : tensor<i1>
  }) : (tensor<9000x3xi32>) -> tensor<9000x3xi32>
  return %0, %10#0, %10#1, %20 : tensor<33000xf32>, tensor<2x17000xf64>, tensor<2x17000xi64>, tensor<9000x3xi32>
}
