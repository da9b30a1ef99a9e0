//! `oxhlo-nvrtc ARCH [full|quick]`: the NVRTC worker of the CUDA backend (`oxhlo_cuda::nvrtc_worker`).
//! Reads one CUDA C translation unit on stdin, compiles it to a CUBIN for ARCH (`sm_90`, ...) at the
//! optimization tier named (default full) with the options the backend uses in-process (from the same
//! environment), writes the CUBIN to stdout. Exit 1 with NVRTC's
//! log on stderr when compiling fails, 2 on bad use.
use std::io::{Read, Write};

fn main() {
    let usage = || -> ! {
        eprintln!("usage: oxhlo-nvrtc ARCH [full|quick] < unit.cu > unit.cubin");
        std::process::exit(2);
    };
    let Some(arch) = std::env::args().nth(1) else { usage() };
    let tier = match std::env::args().nth(2) {
        None => oxhlo_cuda::nvrtc::Tier::Full,
        Some(t) => oxhlo_cuda::nvrtc::Tier::from_name(&t).unwrap_or_else(|| usage()),
    };
    let mut src = String::new();
    if let Err(e) = std::io::stdin().read_to_string(&mut src) {
        eprintln!("oxhlo-nvrtc: reading the unit: {e}");
        std::process::exit(2);
    }
    match oxhlo_cuda::nvrtc::compile_cubin_tier(&src, &arch, tier) {
        Ok(bin) => {
            if let Err(e) = std::io::stdout().write_all(&bin) {
                eprintln!("oxhlo-nvrtc: writing the CUBIN: {e}");
                std::process::exit(2);
            }
        }
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
