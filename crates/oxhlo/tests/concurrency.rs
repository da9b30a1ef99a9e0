//! Concurrent use: several threads execute one executable at once (each with its own inputs) and compile
//! through one client; every result is checked.

use oxhlo::{Backend, Buffer, Client};
use std::sync::Arc;

const AFFINE: &str = "func.func @main(%x: tensor<4xi64>, %k: tensor<i64>) -> tensor<4xi64> {
  %kb = stablehlo.broadcast_in_dim %k, dims = [] : (tensor<i64>) -> tensor<4xi64>
  %0 = stablehlo.multiply %x, %kb : tensor<4xi64>
  %1 = stablehlo.add %0, %kb : tensor<4xi64>
  return %1 : tensor<4xi64>
}";

#[test]
fn one_executable_many_threads() {
    let client = Client::builder().backend(Backend::Interpreter).build().unwrap();
    let exe = Arc::new(client.compile(AFFINE).unwrap());
    let threads: Vec<_> = (0..8i64)
        .map(|t| {
            let exe = Arc::clone(&exe);
            std::thread::spawn(move || {
                for run in 0..25i64 {
                    let k = t * 100 + run;
                    let x = Buffer::from_slice(&[0i64, 1, 2, -3], &[4]).unwrap();
                    let out = exe.execute(&[&x, &Buffer::scalar(k)]).unwrap();
                    // x*k + k
                    assert_eq!(out[0].to_vec::<i64>().unwrap(), vec![k, 2 * k, 3 * k, -2 * k], "thread {t} run {run}");
                }
            })
        })
        .collect();
    for t in threads {
        t.join().expect("a thread failed");
    }
}

#[test]
fn one_client_compiling_from_many_threads() {
    let client = Client::builder().backend(Backend::Interpreter).build().unwrap();
    let threads: Vec<_> = (0..4i32)
        .map(|t| {
            let client = client.clone();
            std::thread::spawn(move || {
                for k in 0..5 {
                    // Programs 0..5 are shared by all threads: cache hits and misses interleave.
                    let src = format!(
                        "func.func @main(%x: tensor<i32>) -> tensor<i32> {{
                           %c = stablehlo.constant dense<{k}> : tensor<i32>
                           %0 = stablehlo.subtract %x, %c : tensor<i32>
                           return %0 : tensor<i32>
                         }}"
                    );
                    let exe = client.compile(&src).unwrap();
                    let out = exe.execute(&[&Buffer::scalar(t)]).unwrap();
                    assert_eq!(out[0].to_vec::<i32>().unwrap(), vec![t - k]);
                }
            })
        })
        .collect();
    for t in threads {
        t.join().expect("a thread failed");
    }
    let s = client.cache_stats();
    assert_eq!(s.entries, 5);
    assert_eq!(s.hits + s.misses, 20);
}

#[test]
fn handles_are_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<Client>();
    check::<oxhlo::Executable>();
    check::<Buffer>();
    check::<oxhlo::Error>();
}
