//! cargo-fuzz target: any input must decode (and map onto oxhlo IR) to Ok or Err, never panic, hang or
//! allocate without bound. Run with `cargo +nightly fuzz run read` in
//! crates/oxhlo-bytecode (seed the corpus with real artifacts, e.g. tests/fixtures).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(m) = oxhlo_bytecode::read(data) {
        let _ = oxhlo_bytecode::print_module(&m);
        let _ = oxhlo_bytecode::raw_to_ir(&m);
    }
});
