// Functions without a surrounding module (parsed into an implicit module), generic-form ops with
// properties and discardable attributes, unknown dialect ops and attributes kept verbatim.
func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.add"(%arg0, %arg0) {mhlo.frontend_attributes = {a = "b"}} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = "stablehlo.custom_call"(%0) <{call_target_name = "Sharding"}> {mhlo.sharding = "{devices=[2]<=[2]}", sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>} : (tensor<4xf32>) -> tensor<4xf32>
  %2 = "mydialect.op"(%1) {attr = #mydialect.attr<"payload", [1, 2]>, ty = !mydialect.type<f32>} : (tensor<4xf32>) -> !mydialect.type<f32>
  %3 = "mydialect.region_op"(%1) ({
  ^bb0(%a: tensor<4xf32>):
    "mydialect.yield"(%a) : (tensor<4xf32>) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  "mydialect.no_result"() : () -> ()
  %4 = "stablehlo.broadcast_in_dim"(%arg0) {broadcast_dimensions = dense<[1]> : tensor<1xi64>} : (tensor<4xf32>) -> tensor<2x4xf32>
  %5 = "stablehlo.compare"(%arg0, %arg0) {comparison_direction = 3 : i64} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  "func.return"(%3) : (tensor<4xf32>) -> ()
}

func.func @g(%arg0: tensor<i32>) -> tensor<i32> {
  %0 = "func.call"(%arg0) <{callee = @g}> : (tensor<i32>) -> tensor<i32>
  return %0 : tensor<i32>
}
