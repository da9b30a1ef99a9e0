//! `oxhlo-nvrtc ARCH [full|quick]`: the NVRTC worker of the CUDA backend (`oxhlo_cuda::nvrtc_worker`).
//! `oxhlo-nvrtc --serve ARCH` starts ahead of its unit: it runs NVRTC once on an empty kernel, then reads
//! the tier's name as the first line of stdin and the unit after it (no input: exit 0), at the lowest
//! CPU priority (nice 19).
//! Reads one CUDA C translation unit on stdin, compiles it to a CUBIN for ARCH (`sm_90`, ...) at the
//! optimization tier named (default full) with the options the backend uses in-process (from the same
//! environment), writes the CUBIN to stdout. Exit 1 with NVRTC's
//! log on stderr when compiling fails, 2 on bad use.
use std::io::{Read, Write};

fn main() {
    let usage = || -> ! {
        eprintln!("usage: oxhlo-nvrtc ARCH [full|quick] < unit.cu > unit.cubin\n       oxhlo-nvrtc --serve ARCH < (tier line, unit) > unit.cubin");
        std::process::exit(2);
    };
    let Some(first) = std::env::args().nth(1) else { usage() };
    let serve = first == oxhlo_cuda::nvrtc_worker::SERVE;
    let arch = if serve { std::env::args().nth(2).unwrap_or_else(|| usage()) } else { first };
    if serve {
        // Started ahead, beside a process that may be running a program: at the lowest priority, so
        // that loading NVRTC takes only idle cores (one table's small benchmarks ran 10-100% slower
        // while workers warmed up at the normal priority after each compile).
        // SAFETY: setpriority on this process only reads its arguments.
        unsafe {
            libc::setpriority(libc::PRIO_PROCESS, 0, 19);
        }
        // Started ahead: NVRTC loaded and run once before the unit comes.
        let _ = oxhlo_cuda::nvrtc::compile_cubin_tier("extern \"C\" __global__ void oxk_warm() {}\n", &arch, oxhlo_cuda::nvrtc::Tier::Quick);
    }
    let mut src = String::new();
    if let Err(e) = std::io::stdin().read_to_string(&mut src) {
        eprintln!("oxhlo-nvrtc: reading the unit: {e}");
        std::process::exit(2);
    }
    let tier_name = if serve {
        // No unit came (this worker's parent is done with it): nothing to do.
        if src.is_empty() {
            return;
        }
        let (tier, unit) = src.split_once('\n').unwrap_or((src.as_str(), ""));
        let tier = tier.trim().to_string();
        src = unit.to_string();
        Some(tier)
    } else {
        std::env::args().nth(2)
    };
    let tier = match tier_name {
        None => oxhlo_cuda::nvrtc::Tier::Full,
        Some(t) => oxhlo_cuda::nvrtc::Tier::from_name(&t).unwrap_or_else(|| usage()),
    };
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
