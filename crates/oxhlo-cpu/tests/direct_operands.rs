//! f32 arithmetic reading inputs in place (`kernels::elementwise_direct`: no load pass into a register)
//! against the interpreter, bit for bit: operands that are whole inputs, a scalar, a splat constant, a
//! per-row statistic broadcast along rows of 300 (chunks of 256 elements repeat one element or cross a
//! row and gather) and a per-column vector, through all six direct ops, with NaNs, infinities and
//! signed zeros among the values; a load also read by a non-direct op (`exp`) stays a load.

mod common;
use common::*;
use oxhlo_cpu::{Buf, Kind};

const PROGRAM: &str = r#"
func.func @main(%x: tensor<64x300xf32>, %y: tensor<64x300xf32>, %r: tensor<64xf32>, %c: tensor<300xf32>, %s: tensor<f32>) -> (tensor<64x300xf32>, tensor<64x300xf32>, tensor<64x300xf32>, tensor<64x300xf32>) {
  %k = stablehlo.constant dense<0.75> : tensor<64x300xf32>
  %rb = stablehlo.broadcast_in_dim %r, dims = [0] : (tensor<64xf32>) -> tensor<64x300xf32>
  %cb = stablehlo.broadcast_in_dim %c, dims = [1] : (tensor<300xf32>) -> tensor<64x300xf32>
  %sb = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<64x300xf32>
  %0 = stablehlo.subtract %x, %rb : tensor<64x300xf32>
  %1 = stablehlo.multiply %0, %cb : tensor<64x300xf32>
  %2 = stablehlo.divide %1, %sb : tensor<64x300xf32>
  %3 = stablehlo.maximum %2, %rb : tensor<64x300xf32>
  %4 = stablehlo.minimum %cb, %3 : tensor<64x300xf32>
  %5 = stablehlo.add %k, %4 : tensor<64x300xf32>
  %6 = stablehlo.divide %sb, %y : tensor<64x300xf32>
  %7 = stablehlo.maximum %x, %y : tensor<64x300xf32>
  %8 = stablehlo.minimum %7, %sb : tensor<64x300xf32>
  %9 = stablehlo.exponential %y : tensor<64x300xf32>
  %11 = stablehlo.subtract %rb, %cb : tensor<64x300xf32>
  %12 = stablehlo.multiply %11, %6 : tensor<64x300xf32>
  return %5, %8, %12, %9 : tensor<64x300xf32>, tensor<64x300xf32>, tensor<64x300xf32>, tensor<64x300xf32>
}"#;

#[test]
fn direct_operands_match_the_interpreter_bit_for_bit() {
    for seed in [0u64, 1, 2, 3] {
        let f = |shape: &[i64], k: u64| {
            let n = shape.iter().product::<i64>() as usize;
            let Buf::F32(mut v) = values(Kind::F32, n, seed * 10 + k) else { unreachable!() };
            // Specials spread over the whole tensor, not only its first elements.
            let specials = [f32::NAN, -f32::NAN, 0.0, -0.0, f32::INFINITY, f32::NEG_INFINITY];
            for (j, at) in (0..n).step_by(97).enumerate() {
                if (j as u64 + seed).is_multiple_of(3) {
                    v[at] = specials[j % specials.len()];
                }
            }
            tensor("f32", shape, Buf::F32(v))
        };
        let inputs = [f(&[64, 300], 1), f(&[64, 300], 2), f(&[64], 3), f(&[300], 4), f(&[], 5)];
        let want = run_interp(PROGRAM, &inputs).expect("interp");
        for threads in [1, 2] {
            for fusion in [true, false] {
                let got = run_cpu(PROGRAM, &inputs, fusion, threads).expect("cpu");
                for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                    // exp (output 3, whose operand `y` is also read directly by `maximum`) is the CPU's
                    // vectorized one: within a few ulps of the interpreter's.
                    let ulps = if i == 3 { 4 } else { 0 };
                    compare(g, w, ulps, 0.0).unwrap_or_else(|e| panic!("seed {seed}, threads {threads}, fusion {fusion}, output {i}: {e}"));
                }
            }
        }
    }
}
