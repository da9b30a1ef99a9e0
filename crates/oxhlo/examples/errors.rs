//! What errors look like: a parse error and a verify error (with file:line:col diagnostics) and an input
//! that does not match the signature.
//!
//! `cargo run -p oxhlo --example errors`

use oxhlo::{Buffer, Client, CompileOptions};

fn main() -> oxhlo::Result<()> {
    let client = Client::new()?;
    let opts = CompileOptions::new().source_name("broken.mlir");

    let typo = "func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n  %0 = stablehlo.add %a %a : tensor<2xf32>\n  return %0 : tensor<2xf32>\n}";
    if let Err(e) = client.compile_with_options(typo, &opts) {
        println!("{e}\n");
    }

    let mismatch = "func.func @main(%a: tensor<2xf32>) -> tensor<3xf32> {\n  return %a : tensor<2xf32>\n}";
    if let Err(e) = client.compile_with_options(mismatch, &opts) {
        println!("{e}\n");
    }

    let exe = client.compile("func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> { return %a : tensor<2xf32> }")?;
    if let Err(e) = exe.execute(&[&Buffer::from_slice(&[1i32, 2], &[2])?]) {
        println!("{e}");
    }
    Ok(())
}
