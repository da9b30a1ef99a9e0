//! Parses each file given on the command line, prints it (pretty, or generic with `--generic`), and checks
//! that the printed text parses back to the same module. A development aid.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let generic = args.iter().any(|a| a == "--generic");
    let quiet = args.iter().any(|a| a == "-q");
    let mut failed = false;
    for path in args.iter().filter(|a| !a.starts_with('-')) {
        let src = match std::fs::read_to_string(path) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{path}: {e}");
                failed = true;
                continue;
            }
        };
        for (line, chunk) in oxhlo_text::split_input(&src) {
            let m = match oxhlo_text::parse_module_at(chunk, path, line) {
                Ok(m) => m,
                Err(d) => {
                    eprintln!("{d}");
                    failed = true;
                    continue;
                }
            };
            let opts = oxhlo_text::PrintOptions { generic, debug_info: false };
            let text = oxhlo_text::print_module(&m, &opts);
            if !quiet {
                print!("{text}");
            }
            match oxhlo_text::parse_module(&text, "<printed>") {
                Ok(m2) if m2.without_locations() == m.without_locations() => {}
                Ok(_) => {
                    eprintln!("{path}:{line}: round trip changed the module");
                    failed = true;
                }
                Err(d) => {
                    eprintln!("{path}:{line}: printed text does not parse: {d}");
                    failed = true;
                }
            }
        }
    }
    std::process::exit(failed as i32);
}
