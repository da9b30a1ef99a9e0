//! Shared helpers of the C API tests: where the built liboxhlo.so / liboxhlo.a are, and compiling the C
//! programs of examples/c against them with the system C compiler (`$CC`, else `cc`).

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository root.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("repository root")
}

/// The C example programs' folder.
pub fn examples_dir() -> PathBuf {
    repo_root().join("examples/c")
}

/// The folder with the header.
pub fn include_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("include")
}

/// The folder with the liboxhlo.so and liboxhlo.a that `cargo test` built with this test: `deps/` beside
/// the test binary (the copies in the profile folder are only refreshed by `cargo build`).
pub fn lib_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    let deps = exe.parent().expect("deps folder");
    for dir in [deps, deps.parent().expect("profile folder")] {
        if dir.join("liboxhlo.so").exists() && dir.join("liboxhlo.a").exists() {
            return dir.to_path_buf();
        }
    }
    panic!("liboxhlo.so / liboxhlo.a not found next to {}; build them with `cargo build -p oxhlo-capi`", exe.display());
}

/// Which library a C program links.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Link {
    Shared,
    Static,
}

/// A scratch folder for built programs.
pub fn out_dir() -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("oxhlo-capi-c");
    std::fs::create_dir_all(&d).expect("scratch folder");
    d
}

/// Compiles examples/c/`name`.c against the header and the library; returns the executable's path.
pub fn build_c(name: &str, link: Link) -> PathBuf {
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let src = examples_dir().join(format!("{name}.c"));
    let suffix = if link == Link::Shared { "shared" } else { "static" };
    let exe = out_dir().join(format!("{name}-{suffix}"));
    let lib = lib_dir();
    let mut cmd = Command::new(&cc);
    cmd.args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-g", "-O1"])
        .arg("-I")
        .arg(include_dir())
        .arg(&src)
        .arg("-o")
        .arg(&exe);
    match link {
        Link::Shared => {
            cmd.arg(format!("-L{}", lib.display())).arg("-loxhlo").arg(format!("-Wl,-rpath,{}", lib.display()));
        }
        Link::Static => {
            cmd.arg(lib.join("liboxhlo.a"));
        }
    }
    // What a Rust staticlib needs from the system (rustc --print native-static-libs).
    cmd.args(["-lpthread", "-ldl", "-lm"]);
    let out = cmd.output().unwrap_or_else(|e| panic!("cannot run the C compiler `{cc}`: {e}"));
    assert!(
        out.status.success(),
        "compiling {} failed:\n{}{}",
        src.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    exe
}

/// A command running a built program: without OXHLO_BACKEND, and without the LD_LIBRARY_PATH cargo sets
/// (it lists the profile folder, whose liboxhlo.so may be stale, ahead of the program's rpath).
pub fn command(exe: &Path) -> Command {
    let mut cmd = Command::new(exe);
    cmd.env_remove("OXHLO_BACKEND").env_remove("LD_LIBRARY_PATH");
    cmd
}

/// Runs a built program with arguments and returns its output, failing the test when it exits non-zero.
pub fn run_ok(exe: &Path, args: &[&str]) -> Output {
    let out = command(exe).args(args).output().expect("run the C program");
    assert!(
        out.status.success(),
        "{} exited with {}:\nstdout:\n{}\nstderr:\n{}",
        exe.display(),
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}
