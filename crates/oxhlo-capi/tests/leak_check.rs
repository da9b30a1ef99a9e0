//! The leak check: 1000 compile/execute/destroy cycles through the C API (examples/c/leak_cycles.c) under
//! valgrind's memcheck, which must report no definitely or indirectly lost bytes (and no memory errors).
//! Skipped, with a message, when valgrind is not installed.

mod common;

use common::{build_c, Link};
use std::path::Path;
use std::process::Command;

fn valgrind_available() -> bool {
    Command::new("valgrind").arg("--version").output().is_ok_and(|o| o.status.success())
}

/// The byte count valgrind reports on a `LEAK SUMMARY` line such as `definitely lost: 0 bytes in 0 blocks`.
fn lost_bytes(report: &str, kind: &str) -> Option<u64> {
    let line = report.lines().find(|l| l.contains(&format!("{kind} lost:")))?;
    let after = line.split(&format!("{kind} lost:")).nth(1)?;
    after.split_whitespace().next()?.replace(',', "").parse().ok()
}

#[test]
fn thousand_cycles_leak_nothing() {
    if !valgrind_available() {
        eprintln!("SKIPPED leak check: valgrind is not installed (apt-get install valgrind)");
        return;
    }
    let exe = build_c("leak_cycles", Link::Static);
    let mut cmd = common::command(Path::new("valgrind"));
    let out = cmd
        .args([
            "--leak-check=full",
            "--show-leak-kinds=definite,indirect",
            "--errors-for-leak-kinds=definite,indirect",
            "--error-exitcode=1",
        ])
        .arg(&exe)
        .arg("1000")
        .output()
        .expect("run valgrind");
    let report = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "valgrind failed ({}):\n{report}\n{stdout}", out.status);
    assert!(stdout.contains("1000 cycles done"), "{stdout}");
    // No leak summary at all means nothing was left allocated ("All heap blocks were freed").
    let all_freed = report.contains("All heap blocks were freed");
    assert!(all_freed || lost_bytes(&report, "definitely") == Some(0), "definitely lost:\n{report}");
    assert!(all_freed || lost_bytes(&report, "indirectly") == Some(0), "indirectly lost:\n{report}");
    assert!(report.contains("ERROR SUMMARY: 0 errors"), "{report}");
}

#[test]
fn parses_valgrind_summaries() {
    let r = "==1==    definitely lost: 1,024 bytes in 2 blocks\n==1==    indirectly lost: 0 bytes in 0 blocks";
    assert_eq!(lost_bytes(r, "definitely"), Some(1024));
    assert_eq!(lost_bytes(r, "indirectly"), Some(0));
    assert_eq!(lost_bytes(r, "possibly"), None);
}
