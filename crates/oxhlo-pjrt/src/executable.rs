//! Executables: compiling (`PJRT_Client_Compile`, with a cache keyed by program and options), the
//! `PJRT_Executable` queries (name, outputs, memory kinds, fingerprint, optimized program, serialization)
//! and the `PJRT_LoadedExecutable` ones (devices, device assignment, delete). Execution is in `execute`.

use crate::abi::client::{ClientCompileArgs, ClientLoadArgs};
use crate::abi::exec::{
    CompiledMemoryStatsArgs, CostAnalysisArgs, DeserializeAndLoadArgs, ExecutableArgs, ExecutableI64Args, ExecutableSizeArgs, ExecutableStringArgs,
    LoadedDevicesArgs, LoadedGetExecutableArgs, LoadedIsDeletedArgs, LoadedLogicalIdsArgs, LogicalDeviceIds,
    MemoryKindsArgs, OptimizedProgramArgs, OutputDimensionsArgs, OutputElementTypesArgs, SerializedBytesArgs,
};
use crate::client::{client, ClientInner};
use crate::device::MEMORY_KIND;
use crate::engine::{CompileRequest, Program};
use crate::error::{guard, Error, Result};
use crate::layouts_ext::OwnedLayouts;
use crate::proto::{CompileOptions, DeviceAssignment, Reader, Wire, Writer};
use crate::{log, util};
use std::ffi::{c_char, c_void};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A compiled program with everything the queries hand out (which must live as long as it does).
pub struct Compiled {
    pub program: Arc<dyn Program>,
    pub format: String,
    pub code: Vec<u8>,
    pub options_raw: Vec<u8>,
    pub options: CompileOptions,
    pub fingerprint: String,
    out_types: Vec<i32>,
    out_dims: Vec<i64>,
    out_dim_sizes: Vec<usize>,
    out_kinds: Vec<*const c_char>,
    out_kind_sizes: Vec<usize>,
    in_kinds: Vec<*const c_char>,
    in_kind_sizes: Vec<usize>,
    /// Serialized OpShardings of the inputs and outputs, with pointer/size arrays into them.
    shardings: [OwnedList; 2],
    /// Device layouts of the parameters and outputs (the layouts extension).
    pub parameter_layouts: OwnedLayouts,
    pub output_layouts: OwnedLayouts,
}

/// Byte strings with the pointer and size arrays the C API hands out.
#[derive(Default)]
struct OwnedList {
    items: Vec<Vec<u8>>,
    ptrs: Vec<*const c_char>,
    sizes: Vec<usize>,
}

impl OwnedList {
    fn new(items: Vec<Vec<u8>>) -> OwnedList {
        let ptrs = items.iter().map(|b| b.as_ptr() as *const c_char).collect();
        let sizes = items.iter().map(Vec::len).collect();
        OwnedList { items, ptrs, sizes }
    }
}

// SAFETY: the raw pointers point to a `'static` string; everything else is immutable after creation.
unsafe impl Send for Compiled {}
unsafe impl Sync for Compiled {}

/// Programs the compile cache holds before it starts over.
pub const CACHE_CAPACITY: usize = 512;

/// 64-bit FNV-1a.
pub fn fnv(seed: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(seed, |h, &b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3))
}

fn cache_key(format: &str, code: &[u8], options: &[u8]) -> u64 {
    let mut h = fnv(0xcbf2_9ce4_8422_2325, format.as_bytes());
    h = fnv(h ^ code.len() as u64, code);
    fnv(h ^ options.len() as u64, options)
}

impl Compiled {
    fn new(program: Arc<dyn Program>, format: &str, code: &[u8], options_raw: &[u8], options: CompileOptions) -> Compiled {
        let outs = program.outputs();
        let kind = (MEMORY_KIND.as_ptr() as *const c_char, MEMORY_KIND.len());
        let n_in = program.inputs().len();
        let h1 = cache_key(format, code, options_raw);
        let h2 = fnv(h1 ^ 0x9e37_79b9_7f4a_7c15, env!("CARGO_PKG_VERSION").as_bytes());
        let (ins, outs_sh) = program.shardings();
        Compiled {
            format: format.into(),
            code: code.to_vec(),
            options_raw: options_raw.to_vec(),
            options,
            fingerprint: format!("oxhlo-{h1:016x}{h2:016x}"),
            out_types: outs.iter().map(|s| s.ty.0).collect(),
            out_dims: outs.iter().flat_map(|s| s.dims.iter().copied()).collect(),
            out_dim_sizes: outs.iter().map(|s| s.dims.len()).collect(),
            out_kinds: vec![kind.0; outs.len()],
            out_kind_sizes: vec![kind.1; outs.len()],
            in_kinds: vec![kind.0; n_in],
            in_kind_sizes: vec![kind.1; n_in],
            shardings: [OwnedList::new(ins), OwnedList::new(outs_sh)],
            parameter_layouts: OwnedLayouts::descending(program.inputs().iter().map(|s| s.dims.len())),
            output_layouts: OwnedLayouts::descending(outs.iter().map(|s| s.dims.len())),
            program,
        }
    }

    /// The device assignment (None for a portable executable, which runs where it is told).
    pub fn assignment(&self) -> Option<DeviceAssignment> {
        (!self.options.compile_portable_executable).then(|| self.options.assignment())
    }
}

/// Compiles (or finds in the cache) a program for a client.
pub fn compile(c: &ClientInner, format: &str, code: &[u8], options_raw: &[u8]) -> Result<Arc<Compiled>> {
    let options = CompileOptions::parse(options_raw)?;
    log::debug(|| format!("compile options: {options:?}"));
    let key = cache_key(format, code, options_raw);
    if let Some(hit) = c.cache.lock().unwrap_or_else(|p| p.into_inner()).get(&key) {
        log::info(|| format!("compile cache hit for {}", hit.program.name()));
        return Ok(hit.clone());
    }
    let need = (options.num_replicas * options.num_partitions) as usize;
    if need > c.devices.len() {
        return Err(Error::invalid(format!(
            "the program needs {} replicas x {} partitions = {need} devices, but oxhlo has {} (set OXHLO_NUM_DEVICES={need})",
            options.num_replicas,
            options.num_partitions,
            c.devices.len()
        )));
    }
    if let Some(da) = &options.device_assignment {
        if let Some(bad) = da.devices.iter().flatten().find(|&&d| d < 0 || d as usize >= c.devices.len()) {
            return Err(Error::invalid(format!("the device assignment names device {bad}, but oxhlo has {}", c.devices.len())));
        }
    }
    let t0 = std::time::Instant::now();
    let program = c.backend.compile(&CompileRequest { format, code, options: &options })?;
    log::info(|| {
        format!(
            "compiled {} ({} bytes of {format}) in {:.1} ms: {} inputs, {} outputs",
            program.name(),
            code.len(),
            t0.elapsed().as_secs_f64() * 1e3,
            program.inputs().len(),
            program.outputs().len()
        )
    });
    let compiled = Arc::new(Compiled::new(program, format, code, options_raw, options));
    let mut cache = c.cache.lock().unwrap_or_else(|p| p.into_inner());
    if cache.len() >= CACHE_CAPACITY {
        cache.clear();
    }
    cache.insert(key, compiled.clone());
    Ok(compiled)
}

/// The object behind a `PJRT_LoadedExecutable*`.
pub struct Loaded {
    pub compiled: Arc<Compiled>,
    pub client: Arc<ClientInner>,
    /// Addressable devices as `PJRT_Device*`, in launch order (replica-major).
    pub devices: Vec<*mut c_void>,
    pub device_indices: Vec<usize>,
    pub logical_ids: Vec<LogicalDeviceIds>,
    pub deleted: AtomicBool,
    /// The completion event of the last execution: whether the caller waited for or read its results
    /// says whether it waits for each ([`crate::engine::Launch::caller_waits`]).
    pub last_done: std::sync::Mutex<Option<Arc<crate::event::EventState>>>,
}

impl Loaded {
    pub fn new(compiled: Arc<Compiled>, client: Arc<ClientInner>) -> Result<Loaded> {
        let (mut idx, mut ids) = (Vec::new(), Vec::new());
        match compiled.assignment() {
            Some(da) => {
                for r in 0..da.replica_count.max(0) as usize {
                    for p in 0..da.computation_count.max(0) as usize {
                        let d = da.device(r, p).ok_or_else(|| Error::internal("device assignment is inconsistent"))?;
                        idx.push(d as usize);
                        ids.push(LogicalDeviceIds { replica: r as i32, partition: p as i32 });
                    }
                }
            }
            None => {
                idx.push(compiled.options.device_ordinal.max(0) as usize);
                ids.push(LogicalDeviceIds { replica: 0, partition: 0 });
            }
        }
        if let Some(&bad) = idx.iter().find(|&&d| d >= client.devices.len()) {
            return Err(Error::invalid(format!("the executable runs on device {bad}, but oxhlo has {}", client.devices.len())));
        }
        let devices = idx.iter().map(|&d| client.device_ptrs[d]).collect();
        Ok(Loaded { compiled, client, devices, device_indices: idx, logical_ids: ids, deleted: AtomicBool::new(false), last_done: Default::default() })
    }

    pub fn into_raw(self) -> *mut c_void {
        Box::into_raw(Box::new(self)) as *mut c_void
    }
}

/// The executable behind a `PJRT_Executable*`.
///
/// # Safety
/// `p` must be null or a live `PJRT_Executable*` of this plugin.
pub unsafe fn executable<'a>(p: *mut c_void) -> Result<&'a Arc<Compiled>> {
    (p as *const Arc<Compiled>).as_ref().ok_or_else(|| Error::invalid("the PJRT_Executable pointer is null"))
}

/// The loaded executable behind a `PJRT_LoadedExecutable*`.
///
/// # Safety
/// `p` must be null or a live `PJRT_LoadedExecutable*` of this plugin.
pub unsafe fn loaded<'a>(p: *mut c_void) -> Result<&'a Loaded> {
    (p as *const Loaded).as_ref().ok_or_else(|| Error::invalid("the PJRT_LoadedExecutable pointer is null"))
}

fn executable_raw(c: Arc<Compiled>) -> *mut c_void {
    Box::into_raw(Box::new(c)) as *mut c_void
}

pub unsafe extern "C" fn client_compile(args: *mut ClientCompileArgs) -> *mut c_void {
    guard("PJRT_Client_Compile", args, |a| {
        let c = client(a.client)?;
        let p = a.program.as_ref().ok_or_else(|| Error::invalid("PJRT_Client_Compile: the program is null"))?;
        let format = util::string(p.format, p.format_size);
        let code = util::bytes(p.code as *const u8, p.code_size);
        let opts = util::bytes(a.compile_options as *const u8, a.compile_options_size);
        let compiled = compile(&c.inner, &format, code, opts)?;
        a.executable = Loaded::new(compiled, c.inner.clone())?.into_raw();
        Ok(())
    })
}

pub unsafe extern "C" fn client_load(args: *mut ClientLoadArgs) -> *mut c_void {
    guard("PJRT_Client_Load", args, |a| {
        let c = client(a.client)?;
        let e = executable(a.executable)?;
        let opts = util::bytes(a.compile_options as *const u8, a.compile_options_size);
        let compiled = if opts.is_empty() || opts == e.options_raw.as_slice() {
            e.clone()
        } else {
            compile(&c.inner, &e.format, &e.code, opts)?
        };
        a.loaded_executable = Loaded::new(compiled, c.inner.clone())?.into_raw();
        Ok(())
    })
}

pub unsafe extern "C" fn executable_destroy(args: *mut ExecutableArgs) -> *mut c_void {
    guard("PJRT_Executable_Destroy", args, |a| {
        if !a.executable.is_null() {
            drop(Box::from_raw(a.executable as *mut Arc<Compiled>));
        }
        Ok(())
    })
}

pub unsafe extern "C" fn executable_name(args: *mut ExecutableStringArgs) -> *mut c_void {
    guard("PJRT_Executable_Name", args, |a| {
        let n = executable(a.executable)?.program.name();
        (a.value, a.value_size) = (n.as_ptr() as *const c_char, n.len());
        Ok(())
    })
}

pub unsafe extern "C" fn executable_num_replicas(args: *mut ExecutableSizeArgs) -> *mut c_void {
    guard("PJRT_Executable_NumReplicas", args, |a| {
        a.value = executable(a.executable)?.options.num_replicas as usize;
        Ok(())
    })
}

pub unsafe extern "C" fn executable_num_partitions(args: *mut ExecutableSizeArgs) -> *mut c_void {
    guard("PJRT_Executable_NumPartitions", args, |a| {
        a.value = executable(a.executable)?.options.num_partitions as usize;
        Ok(())
    })
}

pub unsafe extern "C" fn executable_num_outputs(args: *mut ExecutableSizeArgs) -> *mut c_void {
    guard("PJRT_Executable_NumOutputs", args, |a| {
        a.value = executable(a.executable)?.program.outputs().len();
        Ok(())
    })
}

pub unsafe extern "C" fn executable_code_size(args: *mut ExecutableI64Args) -> *mut c_void {
    guard("PJRT_Executable_SizeOfGeneratedCodeInBytes", args, |a| {
        a.value = executable(a.executable)?.code.len() as i64;
        Ok(())
    })
}

pub unsafe extern "C" fn executable_cost_analysis(args: *mut CostAnalysisArgs) -> *mut c_void {
    guard("PJRT_Executable_GetCostAnalysis", args, |a| {
        executable(a.executable)?;
        a.num_properties = 0;
        a.properties = std::ptr::null();
        Ok(())
    })
}

/// `PJRT_Executable_GetCompiledMemoryStats`: argument, output and aliased (donated) bytes; the
/// interpreter allocates its temporaries as it goes, so they are not known ahead.
pub unsafe extern "C" fn executable_compiled_memory_stats(args: *mut CompiledMemoryStatsArgs) -> *mut c_void {
    guard("PJRT_Executable_GetCompiledMemoryStats", args, |a| {
        let p = &executable(a.executable)?.program;
        let args_bytes: usize = p.inputs().iter().map(|s| s.byte_size()).sum();
        let out_bytes: usize = p.outputs().iter().map(|s| s.byte_size()).sum();
        let alias: usize = p.donations().iter().filter_map(|d| p.inputs().get(d.input)).map(|s| s.byte_size()).sum();
        let mut out: CompiledMemoryStatsArgs = std::ptr::read(a);
        out.generated_code_size_in_bytes = executable(a.executable)?.code.len() as i64;
        out.argument_size_in_bytes = args_bytes as i64;
        out.output_size_in_bytes = out_bytes as i64;
        out.alias_size_in_bytes = alias as i64;
        out.temp_size_in_bytes = 0;
        out.host_generated_code_size_in_bytes = 0;
        out.host_argument_size_in_bytes = 0;
        out.host_output_size_in_bytes = 0;
        out.host_alias_size_in_bytes = 0;
        out.host_temp_size_in_bytes = 0;
        out.peak_memory_in_bytes = (args_bytes + out_bytes - alias.min(out_bytes)) as i64;
        out.total_size_in_bytes = out.peak_memory_in_bytes;
        out.total_allocation_bytes = out.peak_memory_in_bytes;
        out.indefinite_allocations = 0;
        out.peak_unpadded_heap_bytes = 0;
        let start = std::mem::offset_of!(CompiledMemoryStatsArgs, generated_code_size_in_bytes);
        let end = a.struct_size.min(std::mem::size_of::<CompiledMemoryStatsArgs>());
        if end > start {
            let src = (&out as *const CompiledMemoryStatsArgs as *const u8).add(start);
            std::ptr::copy_nonoverlapping(src, (a as *mut CompiledMemoryStatsArgs as *mut u8).add(start), end - start);
        }
        Ok(())
    })
}

pub unsafe extern "C" fn executable_output_element_types(args: *mut OutputElementTypesArgs) -> *mut c_void {
    guard("PJRT_Executable_OutputElementTypes", args, |a| {
        let e = executable(a.executable)?;
        a.output_types = e.out_types.as_ptr();
        a.num_output_types = e.out_types.len();
        Ok(())
    })
}

pub unsafe extern "C" fn executable_output_dimensions(args: *mut OutputDimensionsArgs) -> *mut c_void {
    guard("PJRT_Executable_OutputDimensions", args, |a| {
        let e = executable(a.executable)?;
        a.num_outputs = e.out_dim_sizes.len();
        a.dims = e.out_dims.as_ptr();
        a.dim_sizes = e.out_dim_sizes.as_ptr();
        Ok(())
    })
}

pub unsafe extern "C" fn executable_output_memory_kinds(args: *mut MemoryKindsArgs) -> *mut c_void {
    guard("PJRT_Executable_OutputMemoryKinds", args, |a| {
        let e = executable(a.executable)?;
        a.num = e.out_kinds.len();
        a.memory_kinds = e.out_kinds.as_ptr();
        a.memory_kind_sizes = e.out_kind_sizes.as_ptr();
        Ok(())
    })
}

pub unsafe extern "C" fn executable_parameter_memory_kinds(args: *mut MemoryKindsArgs) -> *mut c_void {
    guard("PJRT_Executable_ParameterMemoryKinds", args, |a| {
        let e = executable(a.executable)?;
        a.num = e.in_kinds.len();
        a.memory_kinds = e.in_kinds.as_ptr();
        a.memory_kind_sizes = e.in_kind_sizes.as_ptr();
        Ok(())
    })
}

pub unsafe extern "C" fn executable_fingerprint(args: *mut ExecutableStringArgs) -> *mut c_void {
    guard("PJRT_Executable_Fingerprint", args, |a| {
        let f = &executable(a.executable)?.fingerprint;
        (a.value, a.value_size) = (f.as_ptr() as *const c_char, f.len());
        Ok(())
    })
}

pub unsafe extern "C" fn loaded_fingerprint(args: *mut ExecutableStringArgs) -> *mut c_void {
    guard("PJRT_LoadedExecutable_Fingerprint", args, |a| {
        let f = &loaded(a.executable)?.compiled.fingerprint;
        (a.value, a.value_size) = (f.as_ptr() as *const c_char, f.len());
        Ok(())
    })
}

/// `PJRT_Executable_OptimizedProgram`: the program as compiled, in the "mlir" format (the bytes JAX
/// gave, which XLA's own parser reads back).
pub unsafe extern "C" fn executable_optimized_program(args: *mut OptimizedProgramArgs) -> *mut c_void {
    const FORMAT: &str = "mlir";
    guard("PJRT_Executable_OptimizedProgram", args, |a| {
        let e = executable(a.executable)?;
        let p = a.program.as_mut().ok_or_else(|| Error::invalid("PJRT_Executable_OptimizedProgram: program is null"))?;
        p.format = FORMAT.as_ptr() as *const c_char;
        p.format_size = FORMAT.len();
        if p.code.is_null() {
            p.code_size = e.code.len();
            return Ok(());
        }
        if p.code_size < e.code.len() {
            return Err(Error::invalid("PJRT_Executable_OptimizedProgram: the code buffer is too small"));
        }
        std::ptr::copy_nonoverlapping(e.code.as_ptr(), p.code as *mut u8, e.code.len());
        p.code_size = e.code.len();
        Ok(())
    })
}

unsafe fn shardings(a: &mut crate::abi::ShardingsArgs, which: usize) -> Result<()> {
    let l = &executable(a.executable)?.shardings[which];
    a.num = l.items.len();
    a.shardings = l.ptrs.as_ptr();
    a.sharding_sizes = l.sizes.as_ptr();
    Ok(())
}

/// `PJRT_Shardings_PJRT_Executable_ParameterShardings` (shardings extension).
pub unsafe extern "C" fn executable_parameter_shardings(args: *mut crate::abi::ShardingsArgs) -> *mut c_void {
    guard("PJRT_Shardings_PJRT_Executable_ParameterShardings", args, |a| shardings(a, 0))
}

/// `PJRT_Shardings_PJRT_Executable_OutputShardings` (shardings extension).
pub unsafe extern "C" fn executable_output_shardings(args: *mut crate::abi::ShardingsArgs) -> *mut c_void {
    guard("PJRT_Shardings_PJRT_Executable_OutputShardings", args, |a| shardings(a, 1))
}

unsafe extern "C" fn free_bytes(p: *mut c_void) {
    if !p.is_null() {
        drop(Box::from_raw(p as *mut Vec<u8>));
    }
}

/// Hands out bytes backed by a heap object the caller frees through the deleter.
fn out_bytes(a: &mut SerializedBytesArgs, bytes: Vec<u8>) {
    let b = Box::new(bytes);
    a.bytes = b.as_ptr() as *const c_char;
    a.bytes_size = b.len();
    a.backing = Box::into_raw(b) as *mut c_void;
    a.deleter = Some(free_bytes);
}

/// The serialized-executable magic.
const SERIAL_MAGIC: &[u8] = b"OXHLOEXE\x01";

pub unsafe extern "C" fn executable_serialize(args: *mut SerializedBytesArgs) -> *mut c_void {
    guard("PJRT_Executable_Serialize", args, |a| {
        let e = executable(a.executable)?;
        let mut w = Writer { buf: SERIAL_MAGIC.to_vec() };
        w.bytes(1, e.format.as_bytes());
        w.bytes(2, &e.code);
        w.bytes(3, &e.options_raw);
        w.bytes(4, env!("CARGO_PKG_VERSION").as_bytes());
        out_bytes(a, w.buf);
        Ok(())
    })
}

/// Reads a serialized executable: (format, code, compile options).
pub fn deserialize(b: &[u8]) -> Result<(String, Vec<u8>, Vec<u8>)> {
    let body = b.strip_prefix(SERIAL_MAGIC).ok_or_else(|| {
        Error::invalid("not a serialized oxhlo executable (it was made by another PJRT plugin or another oxhlo version)")
    })?;
    let (mut format, mut code, mut opts) = (String::new(), Vec::new(), Vec::new());
    let mut r = Reader::new(body, "serialized oxhlo executable");
    while let Some((f, w)) = r.next_field()? {
        match (f, w) {
            (1, Wire::Bytes(v)) => format = String::from_utf8_lossy(v).into_owned(),
            (2, Wire::Bytes(v)) => code = v.to_vec(),
            (3, Wire::Bytes(v)) => opts = v.to_vec(),
            _ => {}
        }
    }
    if format.is_empty() {
        return Err(Error::invalid("the serialized oxhlo executable has no program"));
    }
    Ok((format, code, opts))
}

pub unsafe extern "C" fn executable_deserialize_and_load(args: *mut DeserializeAndLoadArgs) -> *mut c_void {
    guard("PJRT_Executable_DeserializeAndLoad", args, |a| {
        let c = client(a.client)?;
        let (format, code, opts) = deserialize(util::bytes(a.serialized_executable as *const u8, a.serialized_executable_size))?;
        let has_override = crate::abi::has_field(
            a.struct_size,
            std::mem::offset_of!(DeserializeAndLoadArgs, overridden_serialized_compile_options_size),
            8,
        );
        let over = if has_override {
            util::bytes(a.overridden_serialized_compile_options as *const u8, a.overridden_serialized_compile_options_size)
        } else {
            &[]
        };
        let compiled = compile(&c.inner, &format, &code, if over.is_empty() { &opts } else { over })?;
        a.loaded_executable = Loaded::new(compiled, c.inner.clone())?.into_raw();
        Ok(())
    })
}

pub unsafe extern "C" fn executable_get_compile_options(args: *mut SerializedBytesArgs) -> *mut c_void {
    guard("PJRT_Executable_GetCompileOptions", args, |a| {
        let e = executable(a.executable)?;
        out_bytes(a, e.options_raw.clone());
        Ok(())
    })
}

pub unsafe extern "C" fn loaded_destroy(args: *mut ExecutableArgs) -> *mut c_void {
    guard("PJRT_LoadedExecutable_Destroy", args, |a| {
        if !a.executable.is_null() {
            drop(Box::from_raw(a.executable as *mut Loaded));
        }
        Ok(())
    })
}

pub unsafe extern "C" fn loaded_get_executable(args: *mut LoadedGetExecutableArgs) -> *mut c_void {
    guard("PJRT_LoadedExecutable_GetExecutable", args, |a| {
        a.executable = executable_raw(loaded(a.loaded_executable)?.compiled.clone());
        Ok(())
    })
}

pub unsafe extern "C" fn loaded_addressable_devices(args: *mut LoadedDevicesArgs) -> *mut c_void {
    guard("PJRT_LoadedExecutable_AddressableDevices", args, |a| {
        let l = loaded(a.executable)?;
        a.items = l.devices.as_ptr();
        a.num_items = l.devices.len();
        Ok(())
    })
}

pub unsafe extern "C" fn loaded_logical_ids(args: *mut LoadedLogicalIdsArgs) -> *mut c_void {
    guard("PJRT_LoadedExecutable_AddressableDeviceLogicalIds", args, |a| {
        let l = loaded(a.executable)?;
        a.ids = l.logical_ids.as_ptr() as *mut LogicalDeviceIds;
        a.num_ids = l.logical_ids.len();
        Ok(())
    })
}

/// `PJRT_LoadedExecutable_GetDeviceAssignment`: empty bytes for a portable executable.
pub unsafe extern "C" fn loaded_device_assignment(args: *mut SerializedBytesArgs) -> *mut c_void {
    guard("PJRT_LoadedExecutable_GetDeviceAssignment", args, |a| {
        let l = loaded(a.executable)?;
        out_bytes(a, l.compiled.assignment().map(|d| d.serialize()).unwrap_or_default());
        Ok(())
    })
}

pub unsafe extern "C" fn loaded_delete(args: *mut ExecutableArgs) -> *mut c_void {
    guard("PJRT_LoadedExecutable_Delete", args, |a| {
        loaded(a.executable)?.deleted.store(true, Ordering::SeqCst);
        Ok(())
    })
}

pub unsafe extern "C" fn loaded_is_deleted(args: *mut LoadedIsDeletedArgs) -> *mut c_void {
    guard("PJRT_LoadedExecutable_IsDeleted", args, |a| {
        a.is_deleted = loaded(a.executable)?.deleted.load(Ordering::SeqCst);
        Ok(())
    })
}
