//! Interpreter speed: a 256x256 f32 `dot_general` and a chain of elementwise ops on 1M f32 elements
//! (`cargo bench -p oxhlo-interp`).

use criterion::{criterion_group, criterion_main, Criterion};
use oxhlo_interp::{Data, Interpreter, RtValue, Tensor};
use oxhlo_ir::{ElementType, TensorType};

const DOT: &str = r#"
func.func @main(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}"#;

const CHAIN: &str = r#"
func.func @main(%x: tensor<1048576xf32>, %y: tensor<1048576xf32>) -> tensor<1048576xf32> {
  %0 = stablehlo.multiply %x, %y : tensor<1048576xf32>
  %1 = stablehlo.add %0, %x : tensor<1048576xf32>
  %2 = stablehlo.tanh %1 : tensor<1048576xf32>
  %3 = stablehlo.subtract %2, %y : tensor<1048576xf32>
  %4 = stablehlo.maximum %3, %x : tensor<1048576xf32>
  %5 = stablehlo.exponential %4 : tensor<1048576xf32>
  %6 = stablehlo.divide %5, %y : tensor<1048576xf32>
  %7 = stablehlo.sqrt %6 : tensor<1048576xf32>
  return %7 : tensor<1048576xf32>
}"#;

fn f32_tensor(shape: &[i64], f: impl Fn(usize) -> f64) -> RtValue {
    let n: i64 = shape.iter().product();
    let data = (0..n as usize).map(|i| f(i) as f32 as f64).collect();
    RtValue::Tensor(Tensor { ty: TensorType::new(shape.to_vec(), ElementType::F32), data: Data::Float(data) })
}

fn bench(c: &mut Criterion) {
    let dot = oxhlo_text::parse_module(DOT, "dot.mlir").expect("parses");
    let (a, b) = (f32_tensor(&[256, 256], |i| (i % 17) as f64 * 0.25), f32_tensor(&[256, 256], |i| (i % 13) as f64 - 6.0));
    c.bench_function("dot_general 256x256 f32", |bn| {
        bn.iter(|| Interpreter::new(&dot).run_func("main", vec![a.clone(), b.clone()]).expect("runs"))
    });
    let chain = oxhlo_text::parse_module(CHAIN, "chain.mlir").expect("parses");
    let (x, y) = (f32_tensor(&[1 << 20], |i| (i % 1000) as f64 * 1e-3), f32_tensor(&[1 << 20], |i| 1.0 + (i % 7) as f64));
    c.bench_function("elementwise chain of 8 ops, 1M f32", |bn| {
        bn.iter(|| Interpreter::new(&chain).run_func("main", vec![x.clone(), y.clone()]).expect("runs"))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench
}
criterion_main!(benches);
