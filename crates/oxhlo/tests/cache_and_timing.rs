//! The compile cache (hits, misses, options in the key, capacity, opting out) and execution timings.

use oxhlo::{Backend, Buffer, Client, CompileOptions, OptLevel};

const SQUARE: &str = "func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = stablehlo.multiply %x, %x : tensor<3xf32>
  %1 = stablehlo.add %0, %x : tensor<3xf32>
  return %1 : tensor<3xf32>
}";

fn client(capacity: usize) -> Client {
    Client::builder().backend(Backend::Interpreter).cache_capacity(capacity).build().unwrap()
}

#[test]
fn same_program_and_options_hit() {
    let c = client(8);
    c.compile(SQUARE).unwrap();
    c.compile(String::from(SQUARE)).unwrap(); // String, &str and &[u8] all work
    c.compile(SQUARE.as_bytes()).unwrap();
    let s = c.cache_stats();
    assert_eq!((s.hits, s.misses, s.entries), (2, 1, 1));
}

#[test]
fn options_are_part_of_the_key() {
    let c = client(8);
    c.compile(SQUARE).unwrap();
    c.compile_with_options(SQUARE, &CompileOptions::new().opt_level(OptLevel::O0)).unwrap();
    c.compile_with_options(SQUARE, &CompileOptions::new().source_name("sq.mlir")).unwrap();
    // The client compiles for the interpreter; the CPU backend is another executable.
    c.compile_with_options(SQUARE, &CompileOptions::new().backend(Backend::Cpu)).unwrap();
    c.compile_with_options(SQUARE, &CompileOptions::new().backend(Backend::Interpreter)).unwrap();
    let s = c.cache_stats();
    assert_eq!((s.hits, s.misses, s.entries), (1, 4, 4));
}

#[test]
fn opting_out_and_clearing() {
    let c = client(8);
    let opts = CompileOptions::new().cache(false);
    c.compile_with_options(SQUARE, &opts).unwrap();
    c.compile_with_options(SQUARE, &opts).unwrap();
    assert_eq!(c.cache_stats().entries, 0);
    assert_eq!(c.cache_stats().misses, 0);
    let exe = c.compile(SQUARE).unwrap();
    c.clear_cache();
    assert_eq!(c.cache_stats().entries, 0);
    // Executables outlive the cache (and the client).
    drop(c);
    let out = exe.execute(&[&Buffer::from_slice(&[1.0f32, 2.0, -3.0], &[3]).unwrap()]).unwrap();
    assert_eq!(out[0].to_vec::<f32>().unwrap(), vec![2.0, 6.0, 6.0]);
}

#[test]
fn capacity_evicts_least_recently_used() {
    let c = client(2);
    let prog = |k: i32| {
        format!(
            "func.func @main(%x: tensor<i32>) -> tensor<i32> {{
               %c = stablehlo.constant dense<{k}> : tensor<i32>
               %0 = stablehlo.add %x, %c : tensor<i32>
               return %0 : tensor<i32>
             }}"
        )
    };
    c.compile(prog(1)).unwrap();
    c.compile(prog(2)).unwrap();
    c.compile(prog(1)).unwrap(); // hit: 1 is now more recent than 2
    c.compile(prog(3)).unwrap(); // evicts 2
    c.compile(prog(1)).unwrap(); // still cached
    let s = c.cache_stats();
    assert_eq!((s.hits, s.misses, s.entries, s.capacity), (2, 3, 2, 2));
    let exe = c.compile(prog(2)).unwrap(); // was evicted: a miss
    assert_eq!(c.cache_stats().misses, 4);
    assert_eq!(exe.execute(&[&Buffer::scalar(40i32)]).unwrap()[0].to_vec::<i32>().unwrap(), vec![42]);
}

#[test]
fn zero_capacity_caches_nothing() {
    let c = client(0);
    c.compile(SQUARE).unwrap();
    c.compile(SQUARE).unwrap();
    assert_eq!(c.cache_stats().entries, 0);
    assert_eq!(c.cache_stats().hits, 0);
}

#[test]
fn timing_reports_total_and_kernels() {
    let c = client(8);
    let exe = c.compile(SQUARE).unwrap();
    let x = Buffer::from_slice(&[1.0f32, 2.0, 3.0], &[3]).unwrap();
    let (out, timing) = exe.execute_with_timing(&[&x]).unwrap();
    // x*x + x = [2, 6, 12]
    assert_eq!(out[0].to_vec::<f32>().unwrap(), vec![2.0, 6.0, 12.0]);
    assert!(!timing.kernels.is_empty());
    assert!(timing.total > std::time::Duration::ZERO);
    assert!(timing.kernel_time() <= timing.total);
    assert!(timing.kernels.iter().all(|k| k.calls >= 1));
    let table = timing.to_string();
    assert!(table.contains("kernel") && table.contains("total"), "{table}");
}

#[test]
fn per_op_timing_names_ops() {
    let c = client(8);
    let exe = c.compile_with_options(SQUARE, &CompileOptions::new().source_name("sq.mlir")).unwrap();
    let x = Buffer::from_slice(&[1.0f32, 2.0, 3.0], &[3]).unwrap();
    let (_, timing) = exe.execute_with_timing(&[&x]).unwrap();
    let names: Vec<&str> = timing.kernels.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, vec!["stablehlo.multiply", "stablehlo.add"]);
    assert!(timing.kernels[0].location.starts_with("sq.mlir:2:"), "{:?}", timing.kernels[0]);
}

#[test]
fn per_op_timing_counts_loop_body_runs() {
    // A while loop of 5 iterations: the body's add runs 5 times, the compare 6 times, the while op once.
    let src = "func.func @main() -> tensor<i32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c5 = stablehlo.constant dense<5> : tensor<i32>
  %r = stablehlo.while(%i = %c0) : tensor<i32>
    cond {
      %p = stablehlo.compare LT, %i, %c5 : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %n = stablehlo.add %i, %c1 : tensor<i32>
      stablehlo.return %n : tensor<i32>
    }
  return %r : tensor<i32>
}";
    let c = client(8);
    let exe = c.compile(src).unwrap();
    let (out, timing) = exe.execute_with_timing(&[]).unwrap();
    assert_eq!(out[0].to_vec::<i32>().unwrap(), vec![5]);
    let calls = |name: &str| timing.kernels.iter().filter(|k| k.name == name).map(|k| k.calls).sum::<u64>();
    assert_eq!(calls("stablehlo.add"), 5);
    assert_eq!(calls("stablehlo.compare"), 6);
    assert_eq!(calls("stablehlo.while"), 1);
}
