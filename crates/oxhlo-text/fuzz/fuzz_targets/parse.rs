//! Fuzz target: any input text parses to a module or a diagnostic without panicking; a module that
//! parses prints (pretty and generic) to text that parses back to the same module.
//! Run with `cargo fuzz run parse` from crates/oxhlo-text (seed it with tests/corpus/*.mlir).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for (line, chunk) in oxhlo_text::split_input(text) {
        let Ok(m) = oxhlo_text::parse_module_at(chunk, "fuzz.mlir", line) else { continue };
        for generic in [false, true] {
            let opts = oxhlo_text::PrintOptions { generic, debug_info: true };
            let printed = oxhlo_text::print_module(&m, &opts);
            let m2 = oxhlo_text::parse_module(&printed, "printed.mlir").expect("printed text must parse");
            assert!(m2.without_locations() == m.without_locations(), "round trip changed the module");
        }
    }
});
