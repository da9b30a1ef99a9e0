//! Read throughput (MB/s) of `read_module` and of the raw decode alone on a large
//! artifact: one GPT training step (forward, backward, AdamW; 48 layers by default,
//! `OXHLO_BENCH_GPT_LAYERS` to change) lowered with JAX and written by jaxlib at bench
//! time, as a portable artifact (VHLO) and as plain bytecode (`OXHLO_BENCH_ARTIFACT=FILE`
//! benches one given file instead).

use std::hint::black_box;
use std::path::PathBuf;
use std::process::Command;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn artifacts() -> Vec<(String, Vec<u8>)> {
    // A file given explicitly (e.g. on a machine without Python) is benched as is.
    if let Ok(p) = std::env::var("OXHLO_BENCH_ARTIFACT") {
        return std::fs::read(&p).map(|b| vec![(p.rsplit('/').next().unwrap_or("artifact").to_string(), b)]).unwrap_or_default();
    }
    let dir = std::env::temp_dir().join(format!("oxhlo-bench-gpt-{}", std::process::id()));
    let layers = std::env::var("OXHLO_BENCH_GPT_LAYERS").unwrap_or_else(|_| "48".into());
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("benches/gen_gpt.py");
    let out = Command::new("python3").arg(&script).arg(&dir).arg(&layers).env("JAX_PLATFORMS", "cpu").output();
    if !matches!(&out, Ok(o) if o.status.success()) {
        eprintln!("gen_gpt.py failed (needs jax 0.10.2); nothing to bench: {:?}", out.map(|o| String::from_utf8_lossy(&o.stderr).into_owned()));
        return Vec::new();
    }
    let mut v = Vec::new();
    for kind in ["vhlo", "plain"] {
        if let Ok(b) = std::fs::read(dir.join(format!("gpt_step.{kind}.mlirbc"))) {
            v.push((format!("gpt{layers}_{kind}"), b));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    v
}

fn bench(c: &mut Criterion) {
    for (name, bytes) in artifacts() {
        let m = oxhlo_bytecode::read_module(&bytes).expect("the GPT step reads");
        let ops: usize = m.funcs.iter().map(|f| {
            let mut n = 0;
            f.walk(&mut |_| n += 1);
            n
        }).sum();
        eprintln!("{name}: {} bytes, {} functions, {ops} ops", bytes.len(), m.funcs.len());
        let mut g = c.benchmark_group("read");
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.sample_size(20);
        // Dropping the result is the caller's cost, not the reader's.
        g.bench_function(format!("read_module/{name}"), |b| b.iter_with_large_drop(|| oxhlo_bytecode::read_module(black_box(&bytes))));
        g.bench_function(format!("raw_decode/{name}"), |b| b.iter_with_large_drop(|| oxhlo_bytecode::read(black_box(&bytes))));
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
