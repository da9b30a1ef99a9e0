//! `cargo run -p oxhlo-bytecode --example dump FILE`: prints a bytecode file's raw tree
//! in generic form (compare with `python3 shared/notes/mlirbc_reference.py FILE`).

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: dump FILE.mlirbc");
        std::process::exit(2);
    };
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    };
    match oxhlo_bytecode::read(&bytes) {
        Ok(m) => {
            print!("{}", oxhlo_bytecode::print_module(&m));
            println!("// OK: {} ops, {} attributes, {} types, {} resources", m.num_ops(), m.attrs.len(), m.types.len(), m.resources.len());
        }
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    }
}
