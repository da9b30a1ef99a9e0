//! [`Client`]: the entry point. It owns the backend choice and the compile cache, and compiles programs
//! (MLIR text or bytecode) into [`Executable`]s under [`CompileOptions`].

use crate::backend::{Backend, OptLevel};
use crate::cache::{Cache, CacheKey, CacheStats};
use crate::engine;
use crate::error::{Error, Result};
use crate::executable::{Executable, Signature};
use crate::frontend;
use std::sync::{Arc, Mutex, MutexGuard};

/// The default number of executables a client's compile cache holds.
pub const DEFAULT_CACHE_CAPACITY: usize = 64;

/// How to compile one program.
///
/// ```
/// use oxhlo::{Backend, CompileOptions, OptLevel};
/// let opts = CompileOptions { opt_level: OptLevel::O3, backend: Some(Backend::Interpreter), ..Default::default() };
/// assert!(opts.cache);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompileOptions {
    /// How hard to optimize (default [`OptLevel::O2`]).
    pub opt_level: OptLevel,
    /// The backend to compile for; `None` (the default) uses the client's.
    pub backend: Option<Backend>,
    /// Whether to look the program up in, and add it to, the client's compile cache (default true).
    pub cache: bool,
    /// The file name diagnostics show (default `<input>`).
    pub source_name: Option<String>,
}

impl Default for CompileOptions {
    fn default() -> CompileOptions {
        CompileOptions { opt_level: OptLevel::default(), backend: None, cache: true, source_name: None }
    }
}

impl CompileOptions {
    /// The default options.
    pub fn new() -> CompileOptions {
        CompileOptions::default()
    }

    /// Sets the optimization level.
    pub fn opt_level(mut self, level: OptLevel) -> CompileOptions {
        self.opt_level = level;
        self
    }

    /// Sets the backend to compile for.
    pub fn backend(mut self, backend: Backend) -> CompileOptions {
        self.backend = Some(backend);
        self
    }

    /// Turns the compile cache on or off for this compilation.
    pub fn cache(mut self, on: bool) -> CompileOptions {
        self.cache = on;
        self
    }

    /// Sets the file name diagnostics show.
    pub fn source_name(mut self, name: impl Into<String>) -> CompileOptions {
        self.source_name = Some(name.into());
        self
    }
}

/// Builds a [`Client`] with a chosen backend and cache size.
///
/// ```
/// use oxhlo::{Backend, Client};
/// let client = Client::builder().backend(Backend::Interpreter).cache_capacity(8).build().unwrap();
/// assert_eq!(client.backend(), Backend::Interpreter);
/// // Where no usable GPU is present, asking for CUDA is an Unsupported error.
/// if !Backend::Cuda.is_available() {
///     let err = Client::builder().backend(Backend::Cuda).build().unwrap_err();
///     assert_eq!(err.kind(), oxhlo::ErrorKind::Unsupported);
/// }
/// ```
#[derive(Clone, Debug)]
pub struct ClientBuilder {
    backend: Backend,
    cache_capacity: usize,
}

impl Default for ClientBuilder {
    fn default() -> ClientBuilder {
        ClientBuilder { backend: Backend::default(), cache_capacity: DEFAULT_CACHE_CAPACITY }
    }
}

impl ClientBuilder {
    /// The backend programs compile for unless [`CompileOptions::backend`] says otherwise
    /// (default [`Backend::Cpu`]; the builder ignores `OXHLO_BACKEND`).
    pub fn backend(mut self, backend: Backend) -> ClientBuilder {
        self.backend = backend;
        self
    }

    /// How many executables the compile cache holds (0 turns it off; default [`DEFAULT_CACHE_CAPACITY`]).
    pub fn cache_capacity(mut self, capacity: usize) -> ClientBuilder {
        self.cache_capacity = capacity;
        self
    }

    /// Creates the client; fails when the backend is not built into this copy of oxhlo.
    pub fn build(self) -> Result<Client> {
        self.backend.resolve()?;
        let inner = Inner { backend: self.backend, cache: Mutex::new(Cache::new(self.cache_capacity)) };
        Ok(Client { inner: Arc::new(inner) })
    }
}

/// Compiles programs and owns the compile cache. Cheap to clone (shared), `Send + Sync`.
///
/// ```
/// use oxhlo::{Buffer, Client};
/// let client = Client::new().unwrap();
/// let exe = client.compile(r#"
///   func.func @main(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>) -> tensor<2x2xf32> {
///     %0 = stablehlo.add %a, %b : tensor<2x2xf32>
///     return %0 : tensor<2x2xf32>
///   }"#).unwrap();
/// let a = Buffer::from_slice(&[1.0f32, 2.0, 3.0, 4.0], &[2, 2]).unwrap();
/// let b = Buffer::from_slice(&[10.0f32, 20.0, 30.0, 40.0], &[2, 2]).unwrap();
/// let out = exe.execute(&[&a, &b]).unwrap();
/// assert_eq!(out[0].to_vec::<f32>().unwrap(), vec![11.0, 22.0, 33.0, 44.0]);
/// ```
#[derive(Clone)]
pub struct Client {
    inner: Arc<Inner>,
}

struct Inner {
    backend: Backend,
    cache: Mutex<Cache>,
}

impl Client {
    /// A client for the backend named by the `OXHLO_BACKEND` environment variable (`interpreter`, `cpu`,
    /// `cuda`), or [`Backend::preferred()`] when it is unset (the GPU when one is usable, else the CPU);
    /// fails when the variable names no backend or one that is not usable here.
    pub fn new() -> Result<Client> {
        let backend = Backend::from_env()?.unwrap_or_else(Backend::preferred);
        Client::builder().backend(backend).build()
    }

    /// A builder to choose the backend and cache size.
    pub fn builder() -> ClientBuilder {
        ClientBuilder::default()
    }

    /// The backend programs compile for by default (as requested; [`Backend::resolve`] tells what runs).
    pub fn backend(&self) -> Backend {
        self.inner.backend
    }

    /// Compiles a program with the default options: MLIR text (`&str`, `String`) or MLIR bytecode (`&[u8]`
    /// starting with `ML\xEFR`). The entry point is `@main`, else the only public function.
    pub fn compile(&self, program: impl AsRef<[u8]>) -> Result<Executable> {
        self.compile_with_options(program, &CompileOptions::default())
    }

    /// Compiles a program: parse, verify against the StableHLO spec, compile for the backend. With
    /// `options.cache`, a program compiled before with the same options comes back from the cache.
    ///
    /// ```
    /// use oxhlo::{Client, CompileOptions, OptLevel};
    /// let client = Client::new().unwrap();
    /// let src = "func.func @main(%x: tensor<i32>) -> tensor<i32> { return %x : tensor<i32> }";
    /// let opts = CompileOptions::new().opt_level(OptLevel::O1).source_name("id.mlir");
    /// let _a = client.compile_with_options(src, &opts).unwrap();
    /// let _b = client.compile_with_options(src, &opts).unwrap();
    /// assert_eq!(client.cache_stats().hits, 1);
    /// ```
    pub fn compile_with_options(&self, program: impl AsRef<[u8]>, options: &CompileOptions) -> Result<Executable> {
        let program = program.as_ref();
        let requested = options.backend.unwrap_or(self.inner.backend);
        let backend = requested.resolve()?;
        let name = options.source_name.as_deref().unwrap_or("<input>");
        let key = options.cache.then(|| CacheKey::new(program, backend, options.opt_level, name));
        if let Some(key) = &key {
            if let Some(exe) = self.cache().get(key) {
                return Ok(exe);
            }
        }
        let module = frontend::load(program, name)?;
        let entry = module.entry().ok_or_else(|| {
            Error::invalid(format!("`{name}` has no entry point: define @main or exactly one public function"))
        })?;
        let sig = Signature::of(entry)?;
        let compiled = engine::compile(backend, module, options.opt_level)?;
        let exe = Executable::new(compiled, sig, backend, options.opt_level);
        if let Some(key) = key {
            self.cache().insert(key, exe.clone());
        }
        Ok(exe)
    }

    /// Reads a program file (text or bytecode) and compiles it; diagnostics name the file.
    pub fn compile_file(&self, path: impl AsRef<std::path::Path>, options: &CompileOptions) -> Result<Executable> {
        let path = path.as_ref();
        let bytes = std::fs::read(path)
            .map_err(|e| Error::invalid(format!("cannot read `{}`: {e}", path.display())))?;
        let mut options = options.clone();
        if options.source_name.is_none() {
            options.source_name = Some(path.display().to_string());
        }
        self.compile_with_options(bytes, &options)
    }

    /// The compile cache's counters.
    pub fn cache_stats(&self) -> CacheStats {
        self.cache().stats()
    }

    /// Drops every cached executable (executables already handed out keep working).
    pub fn clear_cache(&self) {
        self.cache().clear()
    }

    fn cache(&self) -> MutexGuard<'_, Cache> {
        // A panic while holding the lock leaves the cache consistent (every mutation is a single step).
        self.inner.cache.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client").field("backend", &self.inner.backend).field("cache", &self.cache_stats()).finish()
    }
}
