//! Checks that the checked-in include/oxhlo.h is what cbindgen generates from the sources. Runs only when
//! cbindgen 0.24 (the version the header was generated with: Debian's package) is installed; otherwise it
//! says so and passes. Regenerate with `bash crates/oxhlo-capi/regen-header.sh`.

use std::path::Path;
use std::process::Command;

const GENERATOR: &str = "cbindgen 0.24";

#[test]
fn header_is_current() {
    let version = match Command::new("cbindgen").arg("--version").output() {
        Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout).trim().to_string(),
        _ => {
            eprintln!("SKIPPED header check: cbindgen is not installed");
            return;
        }
    };
    if !version.starts_with(GENERATOR) {
        eprintln!("SKIPPED header check: found {version}, the header is generated with {GENERATOR}");
        return;
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fresh = Path::new(env!("CARGO_TARGET_TMPDIR")).join("oxhlo.h");
    let out = Command::new("cbindgen")
        .current_dir(dir)
        .args(["--config", "cbindgen.toml", "--crate", "oxhlo-capi", "--output"])
        .arg(&fresh)
        .output()
        .expect("run cbindgen");
    assert!(out.status.success(), "cbindgen failed:\n{}", String::from_utf8_lossy(&out.stderr));
    let checked_in = std::fs::read_to_string(dir.join("include/oxhlo.h")).unwrap();
    let generated = std::fs::read_to_string(&fresh).unwrap();
    assert!(
        checked_in == generated,
        "include/oxhlo.h is stale: run `bash crates/oxhlo-capi/regen-header.sh` and commit the result"
    );
}
