// Locations of every kind, location aliases defined after their use (as JAX writes them), attribute and
// type aliases, module attributes, function attributes, visibility, declarations.
#dims = array<i64: 1, 0>
#cfg = {alpha = 1.000000e+00 : f32, "quoted key" = "v"}
!vec = tensor<4xf32>
!tok = !stablehlo.token
module @jit_f attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: !vec {jax.arg_info = "x", mhlo.sharding = "{replicated}"} loc("x"), %arg1: tensor<2x3xf32> loc(unknown)) -> (!vec {jax.result_info = "result"}, tensor<3x2xf32>) attributes {cfg = #cfg} {
    %0 = stablehlo.sine %arg0 : !vec loc(#loc3)
    %1 = stablehlo.transpose %arg1, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32> loc(#loc4)
    %2 = "stablehlo.transpose"(%arg1) {permutation = #dims} : (tensor<2x3xf32>) -> tensor<3x2xf32> loc(#loc5)
    %3 = stablehlo.cosine %0 : !vec loc("f.py":10:3 to :9)
    %4 = stablehlo.cosine %3 : !vec loc("f.py":10:3 to 12:1)
    %5 = stablehlo.cosine %4 : !vec loc(fused["a.py":1:1, "b.py":2:2])
    %6 = stablehlo.cosine %5 : !vec loc(fused<"meta">["a.py":1:1, unknown])
    %7 = stablehlo.cosine %6 : !vec loc(callsite("inner"("g.py":5:5) at callsite("h.py":6:6 at "i.py":7:7)))
    %8 = stablehlo.cosine %7 : !vec loc("name_only")
    %9 = stablehlo.cosine %8 : !vec loc(unknown)
    return %9, %1 : !vec, tensor<3x2xf32> loc(#loc)
  } loc(#loc)
  func.func private @decl(tensor<f32>, tensor<2xi32> {foo.bar}) -> tensor<f32>
  func.func nested @nested_vis(%a: !tok) -> !tok {
    return %a : !tok
  }
  func.func private @no_results(%a: tensor<f32>) {
    return
  }
  func.func private @"quoted name"() -> (tensor<f32>, tuple<>) {
    %0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.tuple : tuple<>
    return %0, %1 : tensor<f32>, tuple<>
  }
} loc(#loc)
#loc = loc(unknown)
#loc1 = loc("/home/user/model.py":12:7)
#loc2 = loc("/home/user/model.py":30:1)
#loc3 = loc("jit(f)/jit(main)/sin"(#loc1))
#loc4 = loc(callsite(#loc3 at #loc2))
#loc5 = loc("transpose"(#loc4))
