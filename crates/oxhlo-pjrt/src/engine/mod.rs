//! The execution facade the plugin talks to: a [`Backend`] compiles program bytes into a [`Program`]
//! that runs on host arrays. The PJRT layer knows nothing else about oxhlo, so switching from the
//! interpreter to the public `oxhlo` API (or a fast backend) means writing one more implementation.

pub mod api;
pub mod cpu;
pub mod cuda;
pub mod host_transfer;
pub mod interp;
pub mod linalg;
pub mod spmd;

use crate::dtype::BufferType;
use crate::error::Result;
use crate::proto::CompileOptions;
use std::sync::Arc;

/// Element type and dimensions of a program input or output.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ArraySpec {
    pub ty: BufferType,
    pub dims: Vec<i64>,
}

impl ArraySpec {
    pub fn new(ty: BufferType, dims: &[i64]) -> ArraySpec {
        ArraySpec { ty, dims: dims.to_vec() }
    }
    /// Dense row-major byte size.
    pub fn byte_size(&self) -> usize {
        crate::dtype::num_elements(&self.dims).unwrap_or(0) * self.ty.byte_size().unwrap_or(0)
    }
}

impl std::fmt::Display for ArraySpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let dims: Vec<String> = self.dims.iter().map(|d| d.to_string()).collect();
        write!(f, "{}[{}]", self.ty.name(), dims.join(","))
    }
}

/// A dense, row-major, little-endian array on the host (one storage slot per element).
#[derive(Clone, Debug, PartialEq)]
pub struct HostArray {
    pub spec: ArraySpec,
    pub bytes: crate::host_bytes::HostBytes,
}

/// What the backend is asked to compile.
pub struct CompileRequest<'a> {
    /// `PJRT_Program.format`: "mlir" (MLIR bytecode, e.g. a VHLO portable artifact, or MLIR text).
    pub format: &'a str,
    pub code: &'a [u8],
    pub options: &'a CompileOptions,
}

/// Where one execution of a program runs: the logical ids of each participating device, in the order of
/// the argument lists, on a grid of `num_replicas x num_partitions`, and each device's host channels.
#[derive(Clone, Default)]
pub struct Launch {
    pub logical_ids: Vec<(u32, u32)>,
    pub num_replicas: u32,
    pub num_partitions: u32,
    /// Per device: the framework's host callbacks for `send`/`recv` ops with `is_host_transfer`.
    pub host: Vec<Option<Arc<dyn HostChannels>>>,
    /// Whether the caller is expected to wait for this execution's results at once (it waited for or
    /// read the previous execution's): a GPU run then polls briefly for its work before handing it to
    /// the completion thread; a caller that enqueues ahead gets it in flight at once.
    pub caller_waits: bool,
}

impl std::fmt::Debug for Launch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Launch")
            .field("logical_ids", &self.logical_ids)
            .field("grid", &(self.num_replicas, self.num_partitions))
            .field("host_channels", &self.host.iter().filter(|h| h.is_some()).count())
            .field("caller_waits", &self.caller_waits)
            .finish()
    }
}

/// Transfers between a running program and the host (JAX's Python callbacks: `jax.debug.print`,
/// `pure_callback`, ...), by channel id.
pub trait HostChannels: Send + Sync {
    /// Hands one array the program sends on `channel` to the host.
    fn send(&self, channel: i64, data: &HostArray) -> Result<()>;
    /// Receives one array of shape `spec` from the host on `channel` (blocks until it arrives).
    fn recv(&self, channel: i64, spec: &ArraySpec) -> Result<HostArray>;
}

/// An input the program lets the runtime reuse for an output (`tf.aliasing_output`, `jax.buffer_donor`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Donation {
    pub input: usize,
    pub output: Option<usize>,
}

/// Serialized `xla.OpSharding`s of a program's inputs and outputs.
pub type Shardings = (Vec<Vec<u8>>, Vec<Vec<u8>>);

/// Every input and output replicated. A program without outputs reports one sharding for its (empty
/// tuple) result, as the framework expects.
pub fn replicated_shardings(inputs: usize, outputs: usize) -> Shardings {
    let replicated = vec![8u8, 0];
    (vec![replicated.clone(); inputs], vec![replicated; outputs.max(1)])
}

/// Device work an execution left running: called, it blocks until the work is done and returns the
/// error of any device failure.
pub type InFlight = Box<dyn FnOnce() -> Result<()> + Send>;

/// A compiled program.
pub trait Program: Send + Sync {
    /// The module name (`jit_f`), used as the executable name.
    fn name(&self) -> &str;
    fn inputs(&self) -> &[ArraySpec];
    fn outputs(&self) -> &[ArraySpec];
    /// Inputs the program allows to be donated.
    fn donations(&self) -> &[Donation];
    /// A human-readable form of the program as it will run (MLIR text).
    fn text(&self) -> String;
    /// Serialized `xla.OpSharding`s of the inputs and outputs (how each is split across the devices of
    /// a multi-partition program; replicated otherwise).
    fn shardings(&self) -> Shardings {
        replicated_shardings(self.inputs().len(), self.outputs().len())
    }
    /// Runs once per device of `launch` (`args[d]` are device d's arguments, matching `inputs()`) and
    /// returns each device's outputs (matching `outputs()`).
    fn execute(&self, args: Vec<Vec<HostArray>>, launch: &Launch) -> Result<Vec<Vec<HostArray>>>;
    /// [`Program::execute`] that may return while a device still computes the results: they are then
    /// valid in the device's stream order (later executions and reads see them) and the work in flight
    /// says when they are complete.
    fn execute_async(&self, args: Vec<Vec<HostArray>>, launch: &Launch) -> Result<(Vec<Vec<HostArray>>, Option<InFlight>)> {
        self.execute(args, launch).map(|o| (o, None))
    }
}

/// A compiler of programs.
pub trait Backend: Send + Sync {
    /// A short description for the platform version string.
    fn describe(&self) -> String;
    fn compile(&self, req: &CompileRequest) -> Result<Arc<dyn Program>>;
}

/// The backend a new client uses: `OXHLO_ENGINE=api` selects the `oxhlo` public API, anything else
/// (the default) the interpreter backend.
pub fn default_backend() -> Box<dyn Backend> {
    if std::env::var("OXHLO_ENGINE").is_ok_and(|v| v.eq_ignore_ascii_case("api")) {
        match api::ApiBackend::new() {
            Ok(b) => return Box::new(b),
            Err(e) => crate::log::info(|| format!("OXHLO_ENGINE=api unavailable ({}); using the interpreter", e.message)),
        }
    }
    Box::new(interp::InterpBackend)
}
