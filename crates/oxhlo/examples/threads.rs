//! One executable, many threads: `Executable` is `Send + Sync` and cheap to clone, so threads share it and
//! execute at the same time, each on its own inputs.
//!
//! `cargo run -p oxhlo --example threads`

use oxhlo::{Buffer, Client};

fn main() -> oxhlo::Result<()> {
    let exe = Client::new()?.compile(
        r#"
        func.func @main(%x: tensor<3xf64>) -> tensor<f64> {
          %zero = stablehlo.constant dense<0.0> : tensor<f64>
          %sq = stablehlo.multiply %x, %x : tensor<3xf64>
          %0 = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<3xf64>, tensor<f64>) -> tensor<f64>
          return %0 : tensor<f64>
        }"#,
    )?;
    std::thread::scope(|s| {
        for t in 0..4 {
            let exe = exe.clone();
            s.spawn(move || -> oxhlo::Result<()> {
                let x = Buffer::from_slice(&[t as f64, 1.0, 2.0], &[3])?;
                let norm2 = exe.execute(&[&x])?[0].to_vec::<f64>()?[0];
                println!("thread {t}: |x|^2 = {norm2}");
                Ok(())
            });
        }
    });
    Ok(())
}
