//! Kernel compilation: CUDA C to CUBIN with NVRTC for the device's architecture, and the caches of
//! compiled kernels, in memory (by a hash of the source) and on disk (`OXHLO_CUDA_CACHE`, default
//! `~/.cache/oxhlo/cuda`).
//!
//! A program's kernels are compiled together when it is compiled ([`Gpu::precompile`]), several to an
//! NVRTC program: on the H200 host each NVRTC program costs ~20 ms that do not overlap across threads,
//! so 160 kernels compiled one per program took 3.1-3.2 s on 8 or 16 threads and 0.6-0.7 s as 16
//! programs of 10. In a batch, kernel j sits in a namespace of its own with its entry renamed
//! `oxk<j>` (the shared prelude once, at the top). On disk a batch is one CUBIN (`<batch key>.cubin`)
//! and each of its kernels a reference to it (`<kernel key>.ref`: batch key and entry); a kernel
//! compiled alone (at its first launch, when no listing foresaw it) is `<kernel key>.cubin`.

use crate::device::{guarded, Gpu, Kernel};
use crate::render::{ENTRY, PRELUDE};
use cudarc::driver::{CudaFunction, CudaModule};
use cudarc::nvrtc::Ptx;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// Whether NVRTC can be loaded (it needs no GPU: kernels can be compiled on any machine that has the
/// library, which the tests use to check every rendered kernel).
pub fn nvrtc_available() -> bool {
    // SAFETY: only tries to dlopen the library; no library function is called.
    unsafe { cudarc::nvrtc::sys::is_culib_present() }
}

/// The NVRTC options every kernel is compiled with beside its architecture: `-default-device`, the
/// fast-compile level (`OXHLO_NVRTC_FAST` = `0`, `min`, `mid` or `max`; default [`DEFAULT_FAST_COMPILE`])
/// and whatever `OXHLO_NVRTC_OPTS` adds. They are part of every cached kernel's key, so that a cache
/// filled under other options is not taken.
pub fn options_beside_arch() -> &'static [String] {
    static OPTS: OnceLock<Vec<String>> = OnceLock::new();
    OPTS.get_or_init(|| {
        let mut o = vec!["-default-device".to_string()];
        let fast = std::env::var("OXHLO_NVRTC_FAST").ok().map(|v| v.trim().to_string()).filter(|v| ["0", "min", "mid", "max"].contains(&v.as_str()));
        let fast = fast.unwrap_or_else(|| DEFAULT_FAST_COMPILE.to_string());
        if fast != "0" {
            o.push(format!("--Ofast-compile={fast}"));
        }
        if let Ok(extra) = std::env::var("OXHLO_NVRTC_OPTS") {
            o.extend(extra.split_whitespace().map(str::to_string));
        }
        o
    })
}

/// NVRTC's fast-compile level unless `OXHLO_NVRTC_FAST` says otherwise (`0` is NVRTC's own default:
/// every optimization).
pub const DEFAULT_FAST_COMPILE: &str = "0";

/// How hard NVRTC optimizes a kernel: fully (what the caches keep and programs run for good), or
/// quickly, for a program's first runs while the full tier compiles in the background
/// ([`crate::tiers`]): `--Ofast-compile=min` roughly halves NVRTC's time, and the kernels ran ~4% slower
/// on the H200 (crates/oxhlo-cuda/NOTES.md, v12).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tier {
    Full,
    Quick,
}

impl Tier {
    /// The options the quick tier adds to [`options_beside_arch`]: `--Ofast-compile=min` unless
    /// `OXHLO_NVRTC_QUICK_OPTS` names others (a knob for measuring, e.g. `--ptxas-options=-O0` beside
    /// it); none when those options already ask for a fast-compile level.
    fn extra_options(self) -> &'static [String] {
        static QUICK: OnceLock<Vec<String>> = OnceLock::new();
        let fast_already = options_beside_arch().iter().any(|o| o.starts_with("--Ofast-compile"));
        if self != Tier::Quick || fast_already {
            return &[];
        }
        QUICK.get_or_init(|| match std::env::var("OXHLO_NVRTC_QUICK_OPTS") {
            Ok(v) if !v.trim().is_empty() => v.split_whitespace().map(str::to_string).collect(),
            _ => vec!["--Ofast-compile=min".to_string()],
        })
    }

    /// The tier's name as the worker process takes it on its command line.
    pub fn name(self) -> &'static str {
        match self {
            Tier::Full => "full",
            Tier::Quick => "quick",
        }
    }

    pub fn from_name(name: &str) -> Option<Tier> {
        [Tier::Full, Tier::Quick].into_iter().find(|t| t.name() == name)
    }
}

/// Compiles CUDA C `src` with NVRTC for the real architecture `arch` (`sm_90`, ...) to a CUBIN: machine
/// code, so that loading it needs no JIT compilation by the driver. Options: [`options_beside_arch`].
pub fn compile_cubin(src: &str, arch: &str) -> Result<Vec<u8>, String> {
    compile_to(src, arch, false, Tier::Full)
}

/// [`compile_cubin`] at optimization tier `tier`.
pub fn compile_cubin_tier(src: &str, arch: &str, tier: Tier) -> Result<Vec<u8>, String> {
    compile_to(src, arch, false, tier)
}

/// Compiles CUDA C `src` with NVRTC to PTX for the virtual architecture `arch` (`compute_90`, ...): NVVM's
/// part of [`compile_cubin`] without ptxas (the driver compiles PTX to machine code when it loads it).
pub fn compile_ptx(src: &str, arch: &str) -> Result<Vec<u8>, String> {
    compile_to(src, arch, true, Tier::Full)
}

fn compile_to(src: &str, arch: &str, ptx: bool, tier: Tier) -> Result<Vec<u8>, String> {
    use cudarc::nvrtc::{result, sys};
    if !nvrtc_available() {
        return Err("libnvrtc not found".into());
    }
    let src = &with_entry_prologue(src, ENTRY);
    guarded("NVRTC", || {
        let c_src = std::ffi::CString::new(src.as_str()).map_err(|_| "a kernel source holds a NUL byte".to_string())?;
        let prog = result::create_program(&c_src, None).map_err(|e| format!("NVRTC: {e:?}"))?;
        let mut options = vec![format!("--gpu-architecture={arch}")];
        options.extend(options_beside_arch().iter().cloned());
        options.extend(tier.extra_options().iter().cloned());
        // SAFETY: `prog` is a live program created above and destroyed once below; the out-buffers are
        // sized by NVRTC's own size query.
        unsafe {
            let r = result::compile_program(prog, &options).map_err(|e| {
                let log = result::get_program_log(prog).map(|l| std::ffi::CStr::from_ptr(l.as_ptr()).to_string_lossy().into_owned()).unwrap_or_default();
                format!("NVRTC failed: {e:?}\n{log}\n{src}")
            });
            let r = r.and_then(|_| {
                let mut n = 0usize;
                let size = if ptx { sys::nvrtcGetPTXSize(prog, &mut n) } else { sys::nvrtcGetCUBINSize(prog, &mut n) };
                size.result().map_err(|e| format!("NVRTC: {e:?}"))?;
                let mut bin = vec![0u8; n];
                let out = bin.as_mut_ptr() as *mut std::ffi::c_char;
                let got = if ptx { sys::nvrtcGetPTX(prog, out) } else { sys::nvrtcGetCUBIN(prog, out) };
                got.result().map_err(|e| format!("NVRTC: {e:?}"))?;
                Ok(bin)
            });
            let _ = result::destroy_program(prog);
            r
        }
    })
}

/// What every kernel runs first ([`with_entry_prologue`]): on sm_90 and later, wait for the kernels
/// before it in the stream to complete and their writes to be visible (`griddepcontrol.wait`: a no-op
/// unless the kernel was launched as a programmatic dependent, see [`crate::device::pdl_enabled`]), then
/// let the next kernel launch (`griddepcontrol.launch_dependents`): its blocks take free SM slots and
/// wait there while this kernel runs. (On the H200 the training steps did not move with it; the
/// back-to-back passes of a reduction did. crates/oxhlo-cuda/NOTES.md, v12.)
pub const ENTRY_PROLOGUE: &str = "\n#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900\n  asm volatile(\"griddepcontrol.wait;\" ::: \"memory\");\n  asm volatile(\"griddepcontrol.launch_dependents;\");\n#endif\n";

/// [`ENTRY_PROLOGUE`] without the early `launch_dependents`: the next kernel launches when this one
/// completes (its blocks then take no SM slots this kernel's later blocks could use).
pub const ENTRY_PROLOGUE_WAIT_ONLY: &str = "\n#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900\n  asm volatile(\"griddepcontrol.wait;\" ::: \"memory\");\n#endif\n";

/// The prologue every kernel gets: [`ENTRY_PROLOGUE`], or [`ENTRY_PROLOGUE_WAIT_ONLY`] when
/// `OXHLO_CUDA_PDL_TRIGGER=0` (read once; a knob for measuring).
pub fn entry_prologue() -> &'static str {
    static P: OnceLock<&'static str> = OnceLock::new();
    P.get_or_init(|| if crate::env_off("OXHLO_CUDA_PDL_TRIGGER") { ENTRY_PROLOGUE_WAIT_ONLY } else { ENTRY_PROLOGUE })
}

/// A comment in a kernel's source that keeps its dependents from launching before it completes
/// ([`with_entry_prologue`]; `reduce::render_cluster_cols`).
pub const NO_EARLY_DEPENDENTS: &str = "/* oxh: dependents launch at completion */";

/// `src` with [`entry_prologue`] at the start of its entry `entry` (unchanged when it has none); a
/// kernel that carries [`NO_EARLY_DEPENDENTS`] gets [`ENTRY_PROLOGUE_WAIT_ONLY`].
pub fn with_entry_prologue(src: &str, entry: &str) -> String {
    let Some(at) = src.find(&format!(" {entry}(")) else { return src.to_string() };
    let Some(open) = src[at..].find('{') else { return src.to_string() };
    let cut = at + open + 1;
    let prologue = if src.contains(NO_EARLY_DEPENDENTS) { ENTRY_PROLOGUE_WAIT_ONLY } else { entry_prologue() };
    format!("{}{}{}", &src[..cut], prologue, &src[cut..])
}

/// The entry of kernel `j` of a batch.
pub fn batch_entry(j: usize) -> String {
    format!("{ENTRY}{j}")
}

/// One translation unit of `sources` (each a rendered kernel, entry [`ENTRY`]): the prelude once, then
/// kernel j in namespace `k<j>` with its entry renamed [`batch_entry`]`(j)`.
pub fn batch_unit(sources: &[&str]) -> String {
    let mut unit = String::from(PRELUDE);
    for (j, s) in sources.iter().enumerate() {
        let body = s.replacen(PRELUDE, "", 1).replacen(&format!(" {ENTRY}("), &format!(" {}(", batch_entry(j)), 1);
        let body = with_entry_prologue(&body, &batch_entry(j));
        unit.push_str(&format!("namespace k{j} {{\n{body}\n}}\n"));
    }
    unit
}

/// Prints `what` to stderr when `OXHLO_CUDA_COMPILE_LOG=1`: where a program's compilation and first run
/// spend their time (kernels compiled, taken from the disk cache, loaded).
pub fn compile_log(what: &str) {
    static ON: OnceLock<bool> = OnceLock::new();
    if *ON.get_or_init(|| std::env::var("OXHLO_CUDA_COMPILE_LOG").is_ok_and(|v| v.trim() == "1")) {
        eprintln!("oxhlo-cuda compile: {what}");
    }
}

/// A stable 64-bit hash of a kernel source (the disk cache's file names depend on it): FNV-1a over
/// 8-byte words, so that looking up a kernel of a few KB costs well under a microsecond per launch.
pub fn hash(s: &str) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    let bytes = s.as_bytes();
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        let x = u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]);
        h = (h ^ x).wrapping_mul(0x100000001b3);
        h ^= h >> 29;
    }
    for &b in words.remainder() {
        h = (h ^ b as u64).wrapping_mul(0x100000001b3);
    }
    h ^ (bytes.len() as u64).wrapping_mul(0x9e3779b97f4a7c15)
}

fn cache_dir() -> Option<std::path::PathBuf> {
    if let Some(d) = std::env::var_os("OXHLO_CUDA_CACHE") {
        return (!d.is_empty()).then(|| d.into());
    }
    std::env::var_os("HOME").map(|h| std::path::PathBuf::from(h).join(".cache/oxhlo/cuda"))
}

pub(crate) fn disk_path(key: u64, ext: &str) -> Option<std::path::PathBuf> {
    cache_dir().map(|d| d.join(format!("{key:016x}.{ext}")))
}

/// Writes `bytes` to the disk cache as `<key>.<ext>` (best effort: a cache that cannot be written is
/// only slower).
pub(crate) fn store(key: u64, ext: &str, bytes: &[u8]) {
    if let Some(p) = disk_path(key, ext) {
        if let Some(d) = p.parent() {
            let _ = std::fs::create_dir_all(d);
        }
        // Written under another name, then renamed: a concurrent reader never sees half a file.
        let tmp = p.with_extension(format!("{ext}.{}", std::process::id()));
        if std::fs::write(&tmp, bytes).is_ok() {
            let _ = std::fs::rename(&tmp, &p);
        }
    }
}

/// What a kernel's key names on disk: a CUBIN of its own, or an entry of a batch's CUBIN.
enum OnDisk {
    Alone(Vec<u8>),
    InBatch { batch: u64, entry: String },
}

fn on_disk(key: u64) -> Option<OnDisk> {
    if let Some(bin) = disk_path(key, "cubin").and_then(|p| std::fs::read(p).ok()) {
        return Some(OnDisk::Alone(bin));
    }
    let text = std::fs::read_to_string(disk_path(key, "ref")?).ok()?;
    let (batch, entry) = text.trim().split_once(' ')?;
    Some(OnDisk::InBatch { batch: u64::from_str_radix(batch, 16).ok()?, entry: entry.to_string() })
}

impl Gpu {
    /// The key of a kernel source on this device (source hash, architecture, NVRTC options and the
    /// entry prologue).
    fn device_key(&self, source_key: u64) -> u64 {
        static OPTIONS_KEY: OnceLock<u64> = OnceLock::new();
        let options = *OPTIONS_KEY.get_or_init(|| hash(&format!("{}{}", options_beside_arch().join(" "), entry_prologue())));
        source_key ^ hash(self.arch) ^ options.rotate_left(17)
    }

    /// The compiled entry [`ENTRY`] of `k` (cached in the kernel itself, in memory and on disk; compiled
    /// alone when no cache has it).
    pub fn function(&self, k: &Kernel) -> Result<CudaFunction, String> {
        if let Some(f) = k.func.get() {
            return Ok(f.clone());
        }
        let key = self.device_key(k.key);
        // A quickly compiled kernel whose full tier is still compiling: not kept in `k`, so that the
        // launches after the upgrade take the fully optimized one.
        if let Some(f) = self.quick.lock().map_err(|_| "kernel cache poisoned")?.get(&key) {
            return Ok(f.clone());
        }
        if let Some(f) = self.cached(key)? {
            let _ = k.func.set(f.clone());
            return Ok(f);
        }
        let bin = compile_cubin(&k.src, self.arch)?;
        // Not precompiled: a kernel `kernels::module_kernels` did not list.
        compile_log(&format!("compiled at its first launch: {}", k.src.lines().find(|l| l.contains(ENTRY)).unwrap_or("")));
        store(key, "cubin", &bin);
        let f = self.load(key, &bin, ENTRY)?;
        let _ = k.func.set(f.clone());
        Ok(f)
    }

    /// The kernel of `key` from memory or the disk cache (None when neither has it).
    fn cached(&self, key: u64) -> Result<Option<CudaFunction>, String> {
        if let Some(f) = self.kernels.lock().map_err(|_| "kernel cache poisoned")?.get(&key) {
            return Ok(Some(f.clone()));
        }
        match on_disk(key) {
            None => Ok(None),
            Some(OnDisk::Alone(bin)) => self.load(key, &bin, ENTRY).map(Some),
            Some(OnDisk::InBatch { batch, entry }) => {
                let module = {
                    let loaded = self.batch_modules.lock().map_err(|_| "kernel cache poisoned")?.get(&batch).cloned();
                    match loaded {
                        Some(m) => m,
                        None => {
                            let Some(bin) = disk_path(batch, "cubin").and_then(|p| std::fs::read(p).ok()) else { return Ok(None) };
                            let m = self.load_module(&bin)?;
                            self.batch_modules.lock().map_err(|_| "kernel cache poisoned")?.insert(batch, m.clone());
                            m
                        }
                    }
                };
                let f = module.load_function(&entry).map_err(|e| format!("kernel entry {entry}: {e}"))?;
                self.kernels.lock().map_err(|_| "kernel cache poisoned")?.insert(key, f.clone());
                Ok(Some(f))
            }
        }
    }

    fn load_module(&self, bin: &[u8]) -> Result<Arc<CudaModule>, String> {
        self.ctx.load_module(Ptx::from_binary(bin.to_vec())).map_err(|e| format!("loading a kernel module: {e}"))
    }

    /// Loads `bin` and keeps its `entry` in memory as kernel `key`.
    fn load(&self, key: u64, bin: &[u8], entry: &str) -> Result<CudaFunction, String> {
        let f = self.load_module(bin)?.load_function(entry).map_err(|e| format!("kernel entry {entry}: {e}"))?;
        self.kernels.lock().map_err(|_| "kernel cache poisoned")?.insert(key, f.clone());
        Ok(f)
    }

    /// Forgets the compiled kernels kept in memory (not those kept in `Kernel`s), so that the next
    /// lookups read the disk cache: for tests of it.
    pub fn forget_compiled(&self) {
        if let Ok(mut m) = self.kernels.lock() {
            m.clear();
        }
        if let Ok(mut m) = self.batch_modules.lock() {
            m.clear();
        }
    }

    /// Compiles every kernel of `sources` (rendered sources, made canonical as [`Kernel::new`] makes
    /// them) that no cache has, in batches, one NVRTC program per host core at most. A batch that fails is
    /// compiled kernel by kernel; a kernel that fails alone is left for its first launch to report.
    ///
    /// With at least [`crate::tiers::min_kernels`] to compile, they are compiled quickly first and
    /// recompiled fully optimized in the background ([`crate::tiers`]).
    pub fn precompile(self: &Arc<Self>, sources: &[String]) {
        let t0 = std::time::Instant::now();
        let mut seen = std::collections::HashSet::new();
        let mut from_disk = 0;
        let sources: Vec<String> = sources.iter().map(|s| crate::render::canonical_source(s)).collect();
        let mut todo: Vec<(u64, &str)> = Vec::new();
        for s in &sources {
            let key = self.device_key(hash(s));
            if !seen.insert(key) {
                continue;
            }
            let upgrading = self.quick.lock().is_ok_and(|q| q.contains_key(&key));
            match self.cached(key) {
                Ok(Some(_)) => from_disk += 1,
                _ if upgrading => from_disk += 1,
                _ => todo.push((key, s)),
            }
        }
        let t1 = std::time::Instant::now();
        let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
        let tiered = crate::tiers::min_kernels().is_some_and(|m| todo.len() >= m);
        // With the tiers, reductions and row kernels compile fully at once (the quick tier made them
        // 15-60% slower, the other kernels not: crate::tiers); each tier its share of the cores.
        type Keyed<'a> = Vec<(u64, &'a str)>;
        let (full, quick): (Keyed, Keyed) = todo.iter().partition(|(_, s)| !tiered || crate::tiers::full_at_once(s));
        let mut batches = Vec::new();
        let mut tiers = Vec::new();
        // The full tier's batches first (its share of the cores), then the quick tier's (the cores left).
        for (group, tier, bins) in [(&full, Tier::Full, crate::tiers::full_share(&full, &quick, cores)), (&quick, Tier::Quick, cores)] {
            let bins = bins.saturating_sub(batches.len()).max(1);
            for b in balanced_batches(group, bins) {
                batches.push(b);
                tiers.push(tier);
            }
        }
        let served = crate::nvrtc_worker::served();
        let (results, worker) = compile_batches(&batches, self.arch, &tiers, true);
        let served = crate::nvrtc_worker::served() - served;
        let t2 = std::time::Instant::now();
        for ((batch, r), &tier) in batches.iter().zip(results).zip(&tiers) {
            self.install(batch, r, tier);
        }
        let quick_batches: Vec<Vec<(u64, String)>> =
            batches.iter().zip(&tiers).filter(|(_, &t)| t == Tier::Quick).map(|(b, _)| b.iter().map(|(k, s)| (*k, s.to_string())).collect()).collect();
        if !quick_batches.is_empty() {
            crate::tiers::upgrade_in_background(self.clone(), quick_batches);
        }
        compile_log(&format!(
            "{} kernels listed, {} distinct: {} cached ({:.0} ms), {} compiled by NVRTC ({} at the full tier, {} at the quick tier) as {} programs on {} {} in {:.0} ms; loaded in {:.0} ms",
            sources.len(),
            seen.len(),
            from_disk,
            (t1 - t0).as_secs_f64() * 1e3,
            todo.len(),
            full.len(),
            quick.len(),
            batches.len(),
            cores.min(batches.len()),
            if worker { format!("worker processes ({served} started ahead)") } else { "threads".to_string() },
            (t2 - t1).as_secs_f64() * 1e3,
            t2.elapsed().as_secs_f64() * 1e3
        ));
    }

    /// Keeps what [`compile_batches`] made of `batch`: a full tier's CUBINs go to the disk cache and its
    /// kernels replace their quick versions in memory; a quick tier's kernels are kept apart (`quick`)
    /// with their modules (a captured graph may still launch them after the upgrade).
    pub(crate) fn install(&self, batch: &[(u64, &str)], compiled: Option<Compiled>, tier: Tier) {
        let keep = |k: u64, f: CudaFunction| match tier {
            Tier::Full => {
                if let Ok(mut m) = self.kernels.lock() {
                    m.insert(k, f);
                }
                if let Ok(mut q) = self.quick.lock() {
                    q.remove(&k);
                }
            }
            Tier::Quick => {
                if let Ok(mut q) = self.quick.lock() {
                    q.insert(k, f);
                }
            }
        };
        let loaded = |bin: &[u8]| {
            let m = self.load_module(bin).ok()?;
            if tier == Tier::Quick {
                if let Ok(mut kept) = self.quick_modules.lock() {
                    kept.push(m.clone());
                }
            }
            Some(m)
        };
        if tier == Tier::Full {
            if let Some(c) = &compiled {
                store_compiled(batch, c);
            }
        }
        match compiled {
            Some(Compiled::Batch { bin, .. }) => {
                let Some(module) = loaded(&bin) else { return };
                for (j, (k, _)) in batch.iter().enumerate() {
                    if let Ok(f) = module.load_function(&batch_entry(j)) {
                        keep(*k, f);
                    }
                }
            }
            Some(Compiled::Alone(bins)) => {
                for ((k, _), bin) in batch.iter().zip(bins) {
                    if let Some(f) = bin.and_then(|b| loaded(&b)).and_then(|m| m.load_function(ENTRY).ok()) {
                        keep(*k, f);
                    }
                }
            }
            None => {}
        }
    }
}

/// Writes what [`compile_batches`] made of `batch` (fully optimized) to the disk cache: a batch's CUBIN
/// and a reference per kernel, or each kernel's own CUBIN.
pub(crate) fn store_compiled(batch: &[(u64, &str)], compiled: &Compiled) {
    match compiled {
        Compiled::Batch { key, bin } => {
            store(*key, "cubin", bin);
            for (j, (k, _)) in batch.iter().enumerate() {
                store(*k, "ref", format!("{key:016x} {}", batch_entry(j)).as_bytes());
            }
        }
        Compiled::Alone(bins) => {
            for ((k, _), bin) in batch.iter().zip(bins) {
                if let Some(bin) = bin {
                    store(*k, "cubin", bin);
                }
            }
        }
    }
}

/// Compiles `batches`, each at its tier (`tiers[i]`), on up to one thread per host core (each batch in a worker process when
/// there are enough batches for it, [`MIN_WORKER_BATCHES`]; in workers started ahead when
/// `use_started` and the compile is big, [`crate::nvrtc_worker::takes_started`]): each batch's result
/// (None when not compiled), and whether worker processes were used.
pub(crate) fn compile_batches(batches: &[Vec<(u64, &str)>], arch: &'static str, tiers: &[Tier], use_started: bool) -> (Vec<Option<Compiled>>, bool) {
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    // Several batches go to worker processes (10-20% faster than threads of this process on the H200
    // host), one or two stay here (NVRTC's first use costs a fresh worker 0.3-0.6 s on that host).
    let worker = crate::nvrtc_worker::worker().filter(|_| batches.len() >= MIN_WORKER_BATCHES);
    let started = use_started && crate::nvrtc_worker::takes_started(batches.len());
    let next = AtomicUsize::new(0);
    let results: Vec<Mutex<Option<Compiled>>> = batches.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|sc| {
        for _ in 0..cores.min(batches.len()) {
            // (Threads, and the worker processes they start, inherit the calling thread's priority.)
            sc.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(batch) = batches.get(i) else { break };
                let c = compile_batch(batch, arch, worker, started, tiers.get(i).copied().unwrap_or(Tier::Full));
                if let Ok(mut slot) = results[i].lock() {
                    *slot = Some(c);
                }
            });
        }
    });
    (results.into_iter().map(|r| r.into_inner().ok().flatten()).collect(), worker.is_some())
}

/// The fewest batches a precompile sends to worker processes ([`crate::nvrtc_worker`]).
pub const MIN_WORKER_BATCHES: usize = 3;

/// `todo` split into at most `bins` batches of about equal source length (largest kernel first, each to
/// the lightest batch so far): a program's compilation takes time about in proportion to its length,
/// and the slowest program decides when all are done.
pub fn balanced_batches<'a>(todo: &[(u64, &'a str)], bins: usize) -> Vec<Vec<(u64, &'a str)>> {
    let bins = bins.min(todo.len()).max(1);
    let mut order: Vec<&(u64, &str)> = todo.iter().collect();
    order.sort_by_key(|(_, s)| std::cmp::Reverse(s.len()));
    let mut batches: Vec<Vec<(u64, &str)>> = vec![Vec::new(); bins];
    let mut load = vec![0usize; bins];
    for &(k, s) in order {
        let b = (0..bins).min_by_key(|&b| load[b]).unwrap_or(0);
        batches[b].push((k, s));
        load[b] += s.len();
    }
    batches.retain(|b| !b.is_empty());
    batches
}

/// A batch compiled: one CUBIN (key: hash of its unit and architecture), or, when the unit failed, each
/// kernel alone (None where that fails too).
pub(crate) enum Compiled {
    Batch { key: u64, bin: Vec<u8> },
    Alone(Vec<Option<Vec<u8>>>),
}

/// Compiles `batch` as one unit, in a process of `worker` when given (one started ahead when
/// `started`; this process when that fails).
fn compile_batch(batch: &[(u64, &str)], arch: &'static str, worker: Option<&std::path::Path>, started: bool, tier: Tier) -> Compiled {
    let srcs: Vec<&str> = batch.iter().map(|(_, s)| *s).collect();
    let unit = batch_unit(&srcs);
    let in_worker = worker.map(|w| {
        if started {
            crate::nvrtc_worker::compile_in_started_worker(w, &unit, arch, tier)
        } else {
            crate::nvrtc_worker::compile_in_worker(w, &unit, arch, tier)
        }
    });
    let bin = match in_worker {
        Some(Ok(bin)) => Ok(bin),
        Some(Err(e)) => {
            let here = compile_cubin_tier(&unit, arch, tier);
            if here.is_ok() {
                // The worker failed where this process succeeds: the worker, not the unit, is at fault.
                crate::nvrtc_worker::give_up();
                compile_log(&format!("the NVRTC worker failed ({}); compiling in this process from now on", e.lines().next().unwrap_or("")));
            }
            here
        }
        None => compile_cubin_tier(&unit, arch, tier),
    };
    match bin {
        Ok(bin) => Compiled::Batch { key: hash(&unit) ^ hash(arch), bin },
        Err(_) => Compiled::Alone(srcs.iter().map(|s| compile_cubin_tier(s, arch, tier).ok()).collect()),
    }
}
