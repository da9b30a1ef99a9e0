//! Reads a bytecode file with `read_module` and prints a summary (or the error), timing
//! the raw decode and the whole read: `cargo run --release --example to_ir FILE [N]`.

use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!("usage: to_ir FILE.mlirbc [REPEAT]");
        std::process::exit(2);
    };
    let reps: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    // Third argument `raw` or `full`: run only that part (for instruction counts).
    let only = args.get(3).map(String::as_str);
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    };
    let t = Instant::now();
    for _ in 0..reps {
        if only == Some("full") {
            break;
        }
        let _ = oxhlo_bytecode::read(&bytes);
    }
    if only == Some("raw") {
        return;
    }
    let raw = t.elapsed() / reps as u32;
    let t = Instant::now();
    let mut result = None;
    for _ in 0..reps {
        result = Some(oxhlo_bytecode::read_module(&bytes));
    }
    let full = t.elapsed() / reps as u32;
    match result {
        Some(Ok(m)) => {
            let ops: usize = m.funcs.iter().map(|f| {
                let mut n = 0;
                f.walk(&mut |_| n += 1);
                n
            }).sum();
            let mb = bytes.len() as f64 / 1e6;
            println!(
                "{path}: {} functions, {ops} ops; raw decode {raw:?} ({:.1} MB/s), read_module {full:?} ({:.1} MB/s)",
                m.funcs.len(),
                mb / raw.as_secs_f64(),
                mb / full.as_secs_f64()
            );
        }
        Some(Err(e)) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
        None => {}
    }
}
