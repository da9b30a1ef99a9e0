//! Backends (what executes a compiled program) and optimization levels, and how a requested backend resolves
//! to one that is built into this copy of oxhlo.

use crate::error::{Error, ErrorKind, Result};
use std::fmt;
use std::str::FromStr;

/// The environment variable [`Client::new`](crate::Client::new) reads to pick a backend
/// (`interpreter`, `cpu` or `cuda`; unset or empty means [`Backend::preferred()`]: the GPU when one is
/// usable, else the CPU).
pub const BACKEND_ENV: &str = "OXHLO_BACKEND";

/// Which executor runs compiled programs.
///
/// A backend that is not built into this copy of oxhlo either resolves to one that is, or fails when a
/// client is built for it ([`Backend::resolve`]):
///
/// | requested | runs on today |
/// |---|---|
/// | [`Interpreter`](Backend::Interpreter) | the reference interpreter (exact, every op and element type; slow) |
/// | [`Cpu`](Backend::Cpu) (the default) | the CPU backend (`oxhlo-cpu`: native kernels, fusion; ops without a kernel run on the interpreter); multi-process programs on the interpreter's process grid |
/// | [`Cuda`](Backend::Cuda) | the CUDA backend (`oxhlo-cuda`) when a usable NVIDIA GPU and the CUDA libraries are present; otherwise an Unsupported error saying why |
///
/// New backends are added as variants; match with a wildcard arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Backend {
    /// The reference interpreter: the oracle every other backend is checked against.
    Interpreter,
    /// The host CPU: the fast CPU backend.
    #[default]
    Cpu,
    /// NVIDIA GPUs through CUDA (`oxhlo-cuda`), when present.
    Cuda,
}

impl Backend {
    /// Every backend variant, built or not.
    pub const ALL: &'static [Backend] = &[Backend::Interpreter, Backend::Cpu, Backend::Cuda];

    /// The lower-case name used by `OXHLO_BACKEND` and the CLI: `interpreter`, `cpu`, `cuda`.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Interpreter => "interpreter",
            Backend::Cpu => "cpu",
            Backend::Cuda => "cuda",
        }
    }

    /// The backend that actually executes programs requested for `self`, or an
    /// [`Unsupported`](ErrorKind::Unsupported) error when this copy of oxhlo has none.
    ///
    /// ```
    /// use oxhlo::Backend;
    /// assert_eq!(Backend::Cpu.resolve().unwrap(), Backend::Cpu);
    /// // Cuda resolves only where a usable GPU is present (an Unsupported error says why otherwise).
    /// assert_eq!(Backend::Cuda.resolve().is_ok(), Backend::Cuda.is_available());
    /// ```
    pub fn resolve(self) -> Result<Backend> {
        match self {
            Backend::Interpreter => Ok(Backend::Interpreter),
            Backend::Cpu => Ok(Backend::Cpu),
            Backend::Cuda => match oxhlo_cuda::available() {
                Ok(_) => Ok(Backend::Cuda),
                Err(why) => Err(Error::new(
                    ErrorKind::Unsupported,
                    format!("CUDA backend unavailable: no usable CUDA device ({why}); use Backend::Cpu or Backend::Interpreter"),
                )),
            },
        }
    }

    /// True when [`resolve`](Backend::resolve) succeeds.
    pub fn is_available(self) -> bool {
        self.resolve().is_ok()
    }

    /// The fastest backend usable here: [`Cuda`](Backend::Cuda) when a usable NVIDIA GPU and the CUDA
    /// libraries are present, else [`Cpu`](Backend::Cpu) (probing never panics).
    pub fn preferred() -> Backend {
        if Backend::Cuda.is_available() {
            Backend::Cuda
        } else {
            Backend::Cpu
        }
    }

    /// The backend named by `OXHLO_BACKEND`, `Ok(None)` when it is unset or empty.
    pub fn from_env() -> Result<Option<Backend>> {
        match std::env::var(BACKEND_ENV) {
            Ok(v) if v.trim().is_empty() => Ok(None),
            Ok(v) => v.trim().parse().map(Some).map_err(|e: Error| Error::invalid(format!("{BACKEND_ENV}: {}", e.message()))),
            Err(std::env::VarError::NotPresent) => Ok(None),
            Err(std::env::VarError::NotUnicode(_)) => Err(Error::invalid(format!("{BACKEND_ENV} is not valid UTF-8"))),
        }
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Backend {
    type Err = Error;
    /// Parses a backend name, case-insensitively (`interp` is accepted for `interpreter`).
    fn from_str(s: &str) -> Result<Backend> {
        match s.to_ascii_lowercase().as_str() {
            "interpreter" | "interp" | "reference" => Ok(Backend::Interpreter),
            "cpu" | "host" => Ok(Backend::Cpu),
            "cuda" | "gpu" => Ok(Backend::Cuda),
            _ => Err(Error::invalid(format!("`{s}` is not a backend; expected one of interpreter, cpu, cuda"))),
        }
    }
}

/// How hard the compiler optimizes (as `-O0`..`-O3`). The interpreter executes the verified program as
/// written at every level; the compiled backends use the level to choose their passes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum OptLevel {
    /// No optimization: run the program as written.
    O0,
    /// Cheap clean-ups only.
    O1,
    /// The usual passes (the default).
    #[default]
    O2,
    /// Everything, including costly fusion searches.
    O3,
}

impl OptLevel {
    /// The level as a number 0..=3.
    pub fn as_u8(self) -> u8 {
        self as u8
    }
}

impl TryFrom<u8> for OptLevel {
    type Error = Error;
    fn try_from(v: u8) -> Result<OptLevel> {
        match v {
            0 => Ok(OptLevel::O0),
            1 => Ok(OptLevel::O1),
            2 => Ok(OptLevel::O2),
            3 => Ok(OptLevel::O3),
            _ => Err(Error::invalid(format!("optimization level {v} is not one of 0, 1, 2, 3"))),
        }
    }
}

impl fmt::Display for OptLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "O{}", self.as_u8())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse() {
        for &b in Backend::ALL {
            assert_eq!(b.name().parse::<Backend>().unwrap(), b);
        }
        assert_eq!("CPU".parse::<Backend>().unwrap(), Backend::Cpu);
        let e = "tpu".parse::<Backend>().unwrap_err();
        assert!(e.message().contains("expected one of interpreter, cpu, cuda"));
    }

    #[test]
    fn resolution() {
        assert_eq!(Backend::default(), Backend::Cpu);
        assert!(Backend::Interpreter.is_available());
        match oxhlo_cuda::available() {
            Ok(_) => assert_eq!(Backend::Cuda.resolve().unwrap(), Backend::Cuda),
            Err(_) => assert_eq!(Backend::Cuda.resolve().unwrap_err().kind(), ErrorKind::Unsupported),
        }
    }

    #[test]
    fn opt_levels() {
        assert_eq!(OptLevel::try_from(3).unwrap(), OptLevel::O3);
        assert!(OptLevel::try_from(4).is_err());
        assert_eq!(OptLevel::default().to_string(), "O2");
    }
}
