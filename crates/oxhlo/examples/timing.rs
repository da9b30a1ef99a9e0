//! Timings: run a small MLP layer with `execute_with_timing` and print the per-kernel table.
//!
//! `cargo run -p oxhlo --example timing`

use oxhlo::{Buffer, Client, CompileOptions};

const LAYER: &str = r#"
func.func @main(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %1 = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<16xf32>) -> tensor<4x16xf32>
  %2 = stablehlo.add %0, %1 : tensor<4x16xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<4x16xf32>
  %3 = stablehlo.maximum %2, %zero : tensor<4x16xf32>
  return %3 : tensor<4x16xf32>
}"#;

fn main() -> oxhlo::Result<()> {
    let client = Client::new()?;
    let exe = client.compile_with_options(LAYER, &CompileOptions::new().source_name("layer.mlir"))?;
    let x: Vec<f32> = (0..32).map(|i| i as f32 / 8.0 - 2.0).collect();
    let w: Vec<f32> = (0..128).map(|i| ((i * 7) % 11) as f32 / 11.0 - 0.5).collect();
    let b: Vec<f32> = (0..16).map(|i| i as f32 / 16.0).collect();
    let inputs = [Buffer::from_slice(&x, &[4, 8])?, Buffer::from_slice(&w, &[8, 16])?, Buffer::from_slice(&b, &[16])?];
    let inputs: Vec<&Buffer> = inputs.iter().collect();
    exe.execute(&inputs)?; // warm-up: the first execution also starts the interpreter's worker thread
    let (outputs, timing) = exe.execute_with_timing(&inputs)?;
    println!("output {:?}", outputs[0]);
    println!("{timing}");
    Ok(())
}
