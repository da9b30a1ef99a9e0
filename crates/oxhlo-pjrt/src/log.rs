//! Diagnostics on stderr, selected by `OXHLO_LOG`: `debug` logs every PJRT call, every error returned
//! and what compile/execute do; `info` logs errors, compiles and executions; unset or anything else
//! keeps the plugin silent.

use crate::error::Error;
use std::sync::OnceLock;

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum Level {
    Off,
    Info,
    Debug,
}

/// The level, read from `OXHLO_LOG` once.
pub fn level() -> Level {
    static LEVEL: OnceLock<Level> = OnceLock::new();
    *LEVEL.get_or_init(|| match std::env::var("OXHLO_LOG").unwrap_or_default().to_ascii_lowercase().as_str() {
        "debug" | "trace" | "2" => Level::Debug,
        "info" | "1" => Level::Info,
        _ => Level::Off,
    })
}

/// Logs an entry-point call.
pub fn call(name: &str) {
    if level() >= Level::Debug {
        eprintln!("[oxhlo-pjrt] call {name}");
    }
}

/// Logs an error returned by an entry point.
pub fn error(name: &str, e: &Error) {
    if level() >= Level::Info {
        eprintln!("[oxhlo-pjrt] {name} -> error {}: {}", e.code, e.message);
    }
}

/// Logs a detail at debug level.
pub fn debug(msg: impl FnOnce() -> String) {
    if level() >= Level::Debug {
        eprintln!("[oxhlo-pjrt]   {}", msg());
    }
}

/// Logs a notable event at info level.
pub fn info(msg: impl FnOnce() -> String) {
    if level() >= Level::Info {
        eprintln!("[oxhlo-pjrt] {}", msg());
    }
}
