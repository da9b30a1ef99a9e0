// `dense_resource` constants backed by blobs of the file's `{-# dialect_resources #-}` section (read as
// dense literals), one without a blob (kept as a resource reference), and strings with escapes.
func.func @main() -> (tensor<2xf32>, tensor<3xi1>, tensor<4xi8>) {
  %0 = stablehlo.constant dense_resource<blob1> : tensor<2xf32>
  %1 = stablehlo.constant dense_resource<"blob 2"> : tensor<3xi1>
  %2 = stablehlo.constant dense_resource<external_blob> : tensor<4xi8>
  %3 = stablehlo.custom_call @"esc\22aped"() {backend_config = "line1\0Aline2\09tab \22quoted\22 back\\slash \E2\9C\93"} : () -> tensor<f32>
  return %0, %1, %2 : tensor<2xf32>, tensor<3xi1>, tensor<4xi8>
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000000803F00000040",
      "blob 2": "0x01000000010001"
    }
  }
#-}
