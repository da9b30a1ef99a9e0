//! `oxhlo run PROG.mlir [--input x.npy|xs.npz]... [--output-dir DIR] [--output FILE.npz]`: execute the entry
//! function (`@main` or the only public function) and print the results, or write them as `result0.npy`,
//! `result1.npy`, ... (or as the members `result0`, ... of one .npz). An .npz input gives its arrays, in
//! archive order, to consecutive parameters. `--backend cpu|interp`, `-O0..3`: see `engine.rs`.

use crate::args::{read_input, Args};
use crate::format::format_value;
use crate::load::load_module;
use oxhlo_interp::{npy, npz, RtValue};
use oxhlo_ir::Type;
use std::path::Path;

pub fn run(argv: &[String]) -> Result<bool, String> {
    let argv = crate::engine::normalize(argv);
    let options = [&["input", "output-dir", "output"], crate::engine::OPTIONS].concat();
    let args = Args::parse(&argv, crate::engine::FLAGS, &options)?;
    let engine = crate::engine::Choice::from_args(&args)?;
    let (name, bytes) = read_input(args.one_file()?)?;
    let module = match load_module(&name, &bytes) {
        Ok(m) => m,
        Err(diags) => {
            eprintln!("{diags}");
            return Ok(false);
        }
    };
    let entry = module.entry().ok_or("the program has no @main and no single public function")?;
    // Each --input is one .npy array, or every array of an .npz: (where it came from, its npy bytes).
    let paths = args.values("input");
    if !paths.iter().any(|p| p.ends_with(".npz")) && paths.len() != entry.ty.inputs.len() {
        return Err(format!("@{} takes {} input(s), {} given with --input", entry.name, entry.ty.inputs.len(), paths.len()));
    }
    let mut arrays: Vec<(String, Vec<u8>)> = Vec::new();
    for p in paths {
        let bytes = std::fs::read(p).map_err(|e| format!("{p}: {e}"))?;
        if p.ends_with(".npz") {
            for (name, member) in npz::read_npz(&bytes).map_err(|e| format!("{p}: {e}"))? {
                arrays.push((format!("{p}:{name}"), member));
            }
        } else {
            arrays.push((p.to_string(), bytes));
        }
    }
    if arrays.len() != entry.ty.inputs.len() {
        return Err(format!("@{} takes {} input(s), {} given with --input", entry.name, entry.ty.inputs.len(), arrays.len()));
    }
    let mut inputs = Vec::new();
    for (i, ((p, bytes), ty)) in arrays.iter().zip(&entry.ty.inputs).enumerate() {
        let expected = match ty {
            Type::Tensor(t) => Some(t),
            _ => None,
        };
        let t = npy::parse_npy(bytes)
            .and_then(|a| npy::npy_to_tensor(&a, expected))
            .map_err(|e| format!("input #{i} ({p}): {e}"))?;
        inputs.push(RtValue::Tensor(t));
    }
    let results = match engine.prepare(&module)?.run(inputs) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e}");
            return Ok(false);
        }
    };
    if let Some(file) = args.value("output") {
        let mut members = Vec::new();
        for (i, r) in results.iter().enumerate() {
            let RtValue::Tensor(t) = r else { return Err(format!("result #{i} is not a tensor; cannot write .npz")) };
            members.push((format!("result{i}"), npy::write_npy_bytes(t)));
        }
        std::fs::write(file, npz::write_npz(&members)?).map_err(|e| format!("{file}: {e}"))?;
        println!("wrote {file}");
        return Ok(true);
    }
    match args.value("output-dir") {
        Some(dir) => {
            std::fs::create_dir_all(dir).map_err(|e| format!("{dir}: {e}"))?;
            for (i, r) in results.iter().enumerate() {
                let RtValue::Tensor(t) = r else { return Err(format!("result #{i} is not a tensor; cannot write .npy")) };
                let path = Path::new(dir).join(format!("result{i}.npy"));
                npy::write_npy(&path, t)?;
                println!("wrote {}", path.display());
            }
        }
        None => {
            for (i, r) in results.iter().enumerate() {
                println!("result #{i}: {}", format_value(r));
            }
        }
    }
    Ok(true)
}
