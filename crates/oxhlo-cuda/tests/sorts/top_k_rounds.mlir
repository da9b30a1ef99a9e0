// chlo.top_k of more than the selection kernel keeps (k > 16), so the partial network runs on the
// device too: the 20 largest of 7 rows of 300 f32 (NaNs of both signs, signed zeros, ties; 512 slots,
// chunks of 32 halved by four rounds) and the 33 largest of 9 rows of 2000 i32 (chunks of 64, five
// rounds) on the shared-memory network (rows a block sorts), and the 20 largest of 10 rows of 90 i32
// in registers (sort_registers::top_k, a warp a row: 128 slots, two rounds across lanes).
func.func @main(%x: tensor<7x300xf32>, %i: tensor<9x2000xi32>, %j: tensor<10x90xi32>) -> (tensor<7x20xf32>, tensor<7x20xi32>, tensor<9x33xi32>, tensor<9x33xi32>, tensor<10x20xi32>, tensor<10x20xi32>) {
  %v, %p = chlo.top_k(%x, k = 20) : tensor<7x300xf32> -> (tensor<7x20xf32>, tensor<7x20xi32>)
  %w, %q = chlo.top_k(%i, k = 33) : tensor<9x2000xi32> -> (tensor<9x33xi32>, tensor<9x33xi32>)
  %y, %r = chlo.top_k(%j, k = 20) : tensor<10x90xi32> -> (tensor<10x20xi32>, tensor<10x20xi32>)
  return %v, %p, %w, %q, %y, %r : tensor<7x20xf32>, tensor<7x20xi32>, tensor<9x33xi32>, tensor<9x33xi32>, tensor<10x20xi32>, tensor<10x20xi32>
}
