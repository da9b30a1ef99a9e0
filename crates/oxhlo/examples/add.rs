//! The smallest oxhlo program: compile a StableHLO function that adds two matrices, run it, print the sum.
//!
//! `cargo run -p oxhlo --example add`

use oxhlo::{Buffer, Client};

fn main() -> oxhlo::Result<()> {
    let client = Client::new()?;
    let exe = client.compile(
        r#"
        func.func @main(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>) -> tensor<2x2xf32> {
          %0 = stablehlo.add %a, %b : tensor<2x2xf32>
          return %0 : tensor<2x2xf32>
        }"#,
    )?;
    let a = Buffer::from_slice(&[1.0f32, 2.0, 3.0, 4.0], &[2, 2])?;
    let b = Buffer::from_slice(&[10.0f32, 20.0, 30.0, 40.0], &[2, 2])?;
    let outputs = exe.execute(&[&a, &b])?;
    println!("backend: {} (runs on {})", client.backend(), exe.backend());
    println!("{:?} = {:?}", outputs[0], outputs[0].to_vec::<f32>()?);
    Ok(())
}
