// The `check` test dialect and the interpreter's ops, as the StableHLO test suite writes them; several
// cases separated by split markers (a `//` comment of five dashes).
func.func @main() {
  %0 = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  check.expect_eq_const %0, dense<[1, 2]> : tensor<2xi32>
  %1 = stablehlo.constant dense<[1.000000e+00, 2.500000e+00]> : tensor<2xf32>
  check.expect_almost_eq_const %1, dense<[1.000000e+00, 2.500000e+00]> : tensor<2xf32>
  check.expect_almost_eq_const %1, dense<[1.000000e+00, 2.500000e+00]> : tensor<2xf32>, tolerance = 1.000000e-03
  check.expect_eq %0, %0 : tensor<2xi32>
  check.expect_almost_eq %1, %1 : tensor<2xf32>
  check.expect_almost_eq %1, %1, tolerance = 1.000000e-02 : tensor<2xf32>
  check.expect_close %1, %1, max_ulp_difference = 3 : tensor<2xf32>, tensor<2xf32>
  check.expect_close %1, %1, max_ulp_difference = 3, min_ulp_difference = 1 : tensor<2xf32>, tensor<2xf32>
  check.expect_serialized_eq %0, probe_id = "probe0" : tensor<2xi32>
  check.expect_serialized_eq %0, probe_id = "probe1", iter = 2 : tensor<2xi32>
  func.return
}

// -----

func.func @main() {
  %0 = stablehlo.constant dense<(1.000000e+00,-2.000000e+00)> : tensor<complex<f64>>
  "check.expect_eq_const"(%0) <{value = dense<(1.000000e+00,-2.000000e+00)> : tensor<complex<f64>>}> : (tensor<complex<f64>>) -> ()
  "check.expect_almost_eq_const"(%0) <{tolerance = 1.000000e-04 : f64, value = dense<(1.000000e+00,-2.000000e+00)> : tensor<complex<f64>>}> : (tensor<complex<f64>>) -> ()
  "check.expect_eq"(%0, %0) : (tensor<complex<f64>>, tensor<complex<f64>>) -> ()
  "check.expect_almost_eq"(%0, %0) <{tolerance = 1.000000e-04 : f64}> : (tensor<complex<f64>>, tensor<complex<f64>>) -> ()
  "check.expect_close"(%0, %0) <{max_ulp_difference = 2 : ui64}> : (tensor<complex<f64>>, tensor<complex<f64>>) -> ()
  "check.expect_serialized_eq"(%0) <{iteration = 0 : ui32, probe_id = "p"}> : (tensor<complex<f64>>) -> ()
  return
}

// -----

func.func @worker(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "interpreter.probe"(%x) <{probe_id = "w"}> : (tensor<2xf32>) -> tensor<2xf32>
  %1 = interpreter.probe %0, probe_id = "w2" : tensor<2xf32>
  return %1 : tensor<2xf32>
}

func.func @main() {
  %x = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %r:2 = "interpreter.run_parallel"(%x, %x) {programs = [[@worker], [@worker]]} : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  check.expect_eq %r#0, %r#1 : tensor<2xf32>
  return
}

// -----

// The JAX-generated test style: custom calls to check functions.
func.func public @main() -> tensor<2xf32> {
  %0 = call @inputs() : () -> tensor<2xf32>
  %1 = call @expected() : () -> tensor<2xf32>
  %2 = stablehlo.sine %0 : tensor<2xf32>
  stablehlo.custom_call @check.expect_close(%2, %1) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
  return %2 : tensor<2xf32>
}
func.func private @inputs() -> (tensor<2xf32> {mhlo.layout_mode = "default"}) {
  %cst = stablehlo.constant dense<"0x0000803F00000040"> : tensor<2xf32>
  return %cst : tensor<2xf32>
}
func.func private @expected() -> (tensor<2xf32> {mhlo.layout_mode = "default"}) {
  %cst = stablehlo.constant dense<[0.841470957, 0.909297406]> : tensor<2xf32>
  return %cst : tensor<2xf32>
}

// -----

func.func @async_and_collective_reduce(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.collective_reduce"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "stablehlo.async_start"(%0) {called_computation = @async_body} : (tensor<4xf32>) -> !stablehlo.future<tensor<4xf32>>
  %2 = "stablehlo.async_done"(%1) : (!stablehlo.future<tensor<4xf32>>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}
func.func private @async_body(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
// Newer upstream ops (not in every MLIR build, so kept out of the MLIR-checked corpus files).
func.func @newer_ops(%x: tensor<4xi32>, %f: tensor<4xf32>) -> (tensor<4xi32>, tensor<4xf32>, tensor<4xi32>) {
  %0 = stablehlo.square %x : tensor<4xi32>
  %1 = "stablehlo.square"(%f) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = "chlo.mulhi"(%x, %0) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0, %1, %2 : tensor<4xi32>, tensor<4xf32>, tensor<4xi32>
}
