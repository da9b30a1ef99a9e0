//! Parse (and print) throughput in MB/s on a large JAX program: the Adam step of a 12-layer transformer's
//! gradient with debug locations, lowered by `gen_large.py` (cached under the target directory). Without
//! python3 + jax, the corpus files repeated stand in for it.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::path::PathBuf;
use std::process::Command;

fn large_program() -> (String, &'static str) {
    let target = std::env::var("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|_| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target"));
    let cached = target.join("oxhlo-text-bench-large.mlir");
    if let Ok(s) = std::fs::read_to_string(&cached) {
        return (s, "jax transformer grad");
    }
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("benches/gen_large.py");
    let ok = Command::new("python3").env("JAX_PLATFORMS", "cpu").arg(&script).arg(&cached).status().map(|s| s.success()).unwrap_or(false);
    if ok {
        if let Ok(s) = std::fs::read_to_string(&cached) {
            return (s, "jax transformer grad");
        }
    }
    eprintln!("python3 with jax unavailable: benchmarking the corpus instead");
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let one = std::fs::read_to_string(dir.join("regions.mlir")).expect("corpus");
    // Rename the functions of each copy so the module stays valid.
    let text = (0..200).map(|i| one.replace("func.func @", &format!("func.func @c{i}_")).replace("call @helper", &format!("call @c{i}_helper"))).collect::<Vec<_>>().join("\n");
    (text, "corpus x200")
}

fn bench(c: &mut Criterion) {
    let (pretty, what) = large_program();
    let m = oxhlo_text::parse_module(&pretty, "large.mlir").expect("benchmark input parses");
    let generic = oxhlo_text::print_module(&m, &oxhlo_text::PrintOptions { generic: true, debug_info: true });
    let mut g = c.benchmark_group(format!("text ({what})"));
    g.sample_size(20);
    g.throughput(Throughput::Bytes(pretty.len() as u64));
    g.bench_function("parse pretty", |b| b.iter(|| oxhlo_text::parse_module(&pretty, "large.mlir").expect("parses")));
    g.throughput(Throughput::Bytes(generic.len() as u64));
    g.bench_function("parse generic", |b| b.iter(|| oxhlo_text::parse_module(&generic, "large.mlir").expect("parses")));
    g.throughput(Throughput::Bytes(pretty.len() as u64));
    g.bench_function("print pretty", |b| b.iter(|| oxhlo_text::print_module(&m, &oxhlo_text::PrintOptions::default())));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
