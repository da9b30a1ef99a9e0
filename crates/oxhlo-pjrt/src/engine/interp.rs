//! The reference-interpreter backend: program bytes are read into an `oxhlo_ir::Module` (MLIR bytecode,
//! e.g. JAX's VHLO portable artifact, through `oxhlo-bytecode`; MLIR text through `oxhlo-text`), checked
//! by the spec verifier, and run by `oxhlo-interp`: one process per device, several devices through the
//! interpreter's replicas x partitions runner (collectives meet in its rendezvous). Host arrays convert to
//! interpreter tensors through the IR's dense storage, which has the same bytes as PJRT host buffers.

use super::{host_transfer, ArraySpec, Shardings, Backend, CompileRequest, Donation, HostArray, HostChannels, Launch, Program};
use crate::dtype::BufferType;
use crate::error::{Error, Result};
use oxhlo_interp::custom_call::CustomCallRegistry;
use oxhlo_interp::{Interpreter, RtValue, Tensor};
use oxhlo_ir::{DenseElements, Module, TensorType, Type};
use std::sync::Arc;

/// The MLIR bytecode magic.
pub const BYTECODE_MAGIC: &[u8] = b"ML\xefR";

/// The file name diagnostics of a program without locations use.
const PROGRAM_NAME: &str = "<program>";

/// Compiles with the reference interpreter.
pub struct InterpBackend;

impl Backend for InterpBackend {
    /// Says which backend runs programs, as `OXHLO_BACKEND` asks (the GPU is not probed here); an op a
    /// fast backend cannot run falls back to the interpreter either way.
    fn describe(&self) -> String {
        let runs = if super::cpu::interpreter_requested() {
            "the reference interpreter"
        } else if super::cuda::cuda_requested() {
            "the CUDA backend"
        } else if super::cuda::backend_unset() {
            "the CUDA backend where a GPU is usable, else the CPU backend"
        } else {
            "the CPU backend"
        };
        format!("oxhlo {} (programs run on {runs})", env!("CARGO_PKG_VERSION"))
    }

    fn compile(&self, req: &CompileRequest) -> Result<Arc<dyn Program>> {
        if req.format != "mlir" {
            return Err(Error::invalid(format!(
                "oxhlo compiles programs in the \"mlir\" format (MLIR bytecode or text); got \"{}\"",
                req.format
            )));
        }
        let t0 = std::time::Instant::now();
        let mut module = read_module(req.code)?;
        let read = t0.elapsed();
        dump(&module, req.code);
        super::spmd::resolve_mesh_axes(&mut module)?;
        oxhlo_ir::verify::verify_module(&module)
            .map_err(|d| Error::invalid(format!("the program breaks the StableHLO spec:\n{d}")))?;
        crate::log::info(|| {
            format!(
                "read {} bytes in {:.1} ms, verified in {:.1} ms",
                req.code.len(),
                read.as_secs_f64() * 1e3,
                (t0.elapsed() - read).as_secs_f64() * 1e3
            )
        });
        Ok(Arc::new(InterpProgram::new(module, req.options.num_replicas, req.options.num_partitions)?))
    }
}

/// With `OXHLO_DUMP=DIR`, writes each program compiled (the bytes received and oxhlo's reading of them
/// as MLIR text) into DIR, named by the module name and a hash.
fn dump(module: &Module, code: &[u8]) {
    let Some(dir) = std::env::var_os("OXHLO_DUMP") else { return };
    let dir = std::path::PathBuf::from(dir);
    let name = module.name.clone().unwrap_or_else(|| "module".into());
    let stem = format!("{name}.{:016x}", crate::executable::fnv(0xcbf2_9ce4_8422_2325, code));
    let text = oxhlo_text::print_module(module, &oxhlo_text::PrintOptions::default());
    let ext = if code.starts_with(BYTECODE_MAGIC) { "mlirbc" } else { "input.mlir" };
    let res = std::fs::create_dir_all(&dir)
        .and_then(|_| std::fs::write(dir.join(format!("{stem}.{ext}")), code))
        .and_then(|_| std::fs::write(dir.join(format!("{stem}.mlir")), text));
    if let Err(e) = res {
        crate::log::info(|| format!("OXHLO_DUMP: cannot write to {}: {e}", dir.display()));
    }
}

/// Reads program bytes (MLIR bytecode or text) into a module.
pub fn read_module(code: &[u8]) -> Result<Module> {
    if code.starts_with(BYTECODE_MAGIC) {
        return oxhlo_bytecode::read_module(code)
            .map_err(|e| Error::invalid(format!("oxhlo could not read the program (MLIR bytecode): {e}")));
    }
    let src = std::str::from_utf8(code).map_err(|e| {
        Error::invalid(format!(
            "the program is neither MLIR bytecode (it does not start with ML\\xefR) nor UTF-8 MLIR text ({e})"
        ))
    })?;
    oxhlo_text::parse_module(src, PROGRAM_NAME).map_err(|d| Error::invalid(format!("oxhlo could not parse the program:\n{d}")))
}

/// A verified module ready to run.
pub struct InterpProgram {
    module: Arc<Module>,
    entry: String,
    name: String,
    inputs: Vec<ArraySpec>,
    outputs: Vec<ArraySpec>,
    donations: Vec<Donation>,
    grid: (u32, u32),
    /// Whether the program talks to the host (then each execution binds its own callbacks).
    host_transfers: bool,
    /// Serialized OpShardings of the inputs and outputs of a partitioned program.
    shardings: Option<Shardings>,
    registry: Arc<CustomCallRegistry>,
    /// The CPU backend's compilation, for single-device runs without host callbacks.
    cpu: Option<super::cpu::CpuRunner>,
}

/// The array spec of a static tensor type.
pub fn spec_of(t: &Type, what: &str) -> Result<ArraySpec> {
    let tt = t.as_tensor().ok_or_else(|| Error::unimplemented(format!("oxhlo: {what} has type {t:?}, not a tensor")))?;
    if !tt.is_static() {
        return Err(Error::unimplemented(format!("oxhlo: {what} has a dynamic shape {:?}", tt.shape)));
    }
    let ty = BufferType::from_ir(&tt.elem)
        .ok_or_else(|| Error::unimplemented(format!("oxhlo: {what} has element type {:?}, which PJRT cannot hold", tt.elem)))?;
    Ok(ArraySpec { ty, dims: tt.shape.clone() })
}

impl InterpProgram {
    /// Prepares `module` for a `replicas x partitions` grid (from the compile options).
    pub fn new(mut module: Module, replicas: i64, partitions: i64) -> Result<InterpProgram> {
        let host_transfers = host_transfer::rewrite(&mut module) > 0;
        let shardings = if partitions > 1 {
            let p = super::spmd::partition(&mut module)?.ok_or_else(|| {
                Error::unimplemented(
                    "oxhlo runs multi-partition programs only from shard_map with Shardy annotations \
                     (jax_use_shardy_partitioner, the default)",
                )
            })?;
            let ser = |v: &[super::spmd::Sharding]| v.iter().map(|s| p.op_sharding(s)).collect::<Result<Vec<_>>>();
            let mut outs = ser(&p.results)?;
            if outs.is_empty() {
                outs.push(vec![8, 0]);
            }
            Some((ser(&p.args)?, outs))
        } else {
            None
        };
        let main = module.entry().ok_or_else(|| Error::invalid("the program has no entry function (@main)"))?;
        let inputs =
            main.ty.inputs.iter().enumerate().map(|(i, t)| spec_of(t, &format!("argument {i}"))).collect::<Result<Vec<_>>>()?;
        let outputs =
            main.ty.results.iter().enumerate().map(|(i, t)| spec_of(t, &format!("result {i}"))).collect::<Result<Vec<_>>>()?;
        let mut donations = Vec::new();
        for (i, attrs) in main.arg_attrs.iter().enumerate() {
            for (name, a) in attrs {
                match name.as_str() {
                    "tf.aliasing_output" => donations.push(Donation { input: i, output: a.as_int().map(|o| o as usize) }),
                    "jax.buffer_donor" => donations.push(Donation { input: i, output: None }),
                    _ => {}
                }
            }
        }
        let entry = main.name.clone();
        let name = module.name.clone().unwrap_or_else(|| entry.clone());
        let grid = (replicas.max(1) as u32, partitions.max(1) as u32);
        let registry = Arc::new(registry(None));
        let cpu = if grid == (1, 1) && !host_transfers && module.num_replicas() * module.num_partitions() == 1 {
            super::cpu::CpuRunner::build(&module, registry.clone())?
        } else {
            None
        };
        Ok(InterpProgram {
            module: Arc::new(module),
            entry,
            name,
            inputs,
            outputs,
            donations,
            grid,
            host_transfers,
            shardings,
            registry,
            cpu,
        })
    }

    /// The custom calls of one execution (host transfers bound to its callbacks).
    fn registry_for(&self, host: Option<Arc<dyn HostChannels>>) -> Arc<CustomCallRegistry> {
        if self.host_transfers {
            Arc::new(registry(host))
        } else {
            self.registry.clone()
        }
    }

    fn run_one(&self, inputs: Vec<RtValue>, host: Option<Arc<dyn HostChannels>>) -> Result<Vec<RtValue>> {
        let module = &*self.module;
        let registry = self.registry_for(host);
        let res = oxhlo_interp::eval::on_big_stack(|| {
            let mut it = Interpreter::new(module);
            it.registry = registry;
            it.run_func(&self.entry, inputs)
        });
        res.and_then(|r| r).map_err(run_error)
    }

    /// Runs every process of the grid; `inputs[d]` belongs to the process `launch.logical_ids[d]`.
    fn run_grid(&self, inputs: Vec<Vec<RtValue>>, launch: &Launch) -> Result<Vec<Vec<RtValue>>> {
        let (nr, np) = (launch.num_replicas as usize, launch.num_partitions as usize);
        if launch.logical_ids.len() != nr * np {
            return Err(Error::unimplemented(format!(
                "oxhlo runs a {nr} x {np} program only on all of its devices at once (launched on {})",
                launch.logical_ids.len()
            )));
        }
        // Process k of the grid is (k / np, k % np); find which argument list it gets.
        let mut order = vec![usize::MAX; nr * np];
        for (d, &(r, p)) in launch.logical_ids.iter().enumerate() {
            let k = r as usize * np + p as usize;
            if k >= order.len() || order[k] != usize::MAX {
                return Err(Error::invalid(format!("bad logical device ids {:?}", launch.logical_ids)));
            }
            order[k] = d;
        }
        let mut slots: Vec<Option<Vec<RtValue>>> = inputs.into_iter().map(Some).collect();
        let mut flat = Vec::new();
        for &d in &order {
            flat.extend(slots[d].take().unwrap_or_default());
        }
        let programs = vec![vec![self.entry.clone(); np]; nr];
        // Host callbacks are bound per device, which one shared registry cannot do: transfers fail.
        let out = oxhlo_interp::parallel::run_grid(&self.module, &programs, flat, Some(self.registry_for(None)))
            .map_err(run_error)?;
        let n_out = self.outputs.len();
        if out.results.len() != n_out * nr * np {
            return Err(Error::internal(format!("the grid returned {} results, expected {}", out.results.len(), n_out * nr * np)));
        }
        let mut per_device: Vec<Vec<RtValue>> = vec![Vec::new(); nr * np];
        let mut it = out.results.into_iter();
        for &d in &order {
            per_device[d] = it.by_ref().take(n_out).collect();
        }
        Ok(per_device)
    }
}

/// The custom-call targets programs from JAX may use; host transfers go to `host`.
pub fn registry(host: Option<Arc<dyn HostChannels>>) -> CustomCallRegistry {
    let mut r = CustomCallRegistry::with_builtins();
    super::linalg::register(&mut r);
    host_transfer::register(&mut r, host);
    r
}

fn run_error(e: oxhlo_interp::InterpError) -> Error {
    Error::invalid(format!("oxhlo: the program failed: {e}"))
}

impl Program for InterpProgram {
    fn name(&self) -> &str {
        &self.name
    }
    fn inputs(&self) -> &[ArraySpec] {
        &self.inputs
    }
    fn outputs(&self) -> &[ArraySpec] {
        &self.outputs
    }
    fn donations(&self) -> &[Donation] {
        &self.donations
    }
    fn text(&self) -> String {
        oxhlo_text::print_module(&self.module, &oxhlo_text::PrintOptions::default())
    }
    fn shardings(&self) -> Shardings {
        match &self.shardings {
            Some(s) => s.clone(),
            None => super::replicated_shardings(self.inputs.len(), self.outputs.len()),
        }
    }
    fn execute_async(&self, args: Vec<Vec<HostArray>>, launch: &Launch) -> Result<(Vec<Vec<HostArray>>, Option<super::InFlight>)> {
        if let (Some(cpu), [one]) = (&self.cpu, args.as_slice()) {
            if launch.logical_ids.len() == 1 {
                let (outs, in_flight) = cpu.run_async(one, launch.caller_waits)?;
                return Ok((vec![outs], in_flight));
            }
        }
        self.execute(args, launch).map(|o| (o, None))
    }
    fn execute(&self, args: Vec<Vec<HostArray>>, launch: &Launch) -> Result<Vec<Vec<HostArray>>> {
        if let (Some(cpu), [one]) = (&self.cpu, args.as_slice()) {
            if launch.logical_ids.len() == 1 {
                return Ok(vec![cpu.run(one)?]);
            }
        }
        let inputs: Vec<Vec<RtValue>> = args
            .iter()
            .map(|dev| dev.iter().map(|a| to_tensor(a).map(RtValue::Tensor)).collect::<Result<Vec<_>>>())
            .collect::<Result<_>>()?;
        let results = if launch.logical_ids.len() == 1 && self.grid == (1, 1) {
            let one = inputs.into_iter().next().unwrap_or_default();
            let host = launch.host.first().cloned().flatten();
            vec![self.run_one(one, host)?]
        } else {
            self.run_grid(inputs, launch)?
        };
        results
            .iter()
            .map(|dev| {
                dev.iter()
                    .enumerate()
                    .map(|(k, v)| match v {
                        RtValue::Tensor(t) => from_tensor(t),
                        other => Err(Error::unimplemented(format!("result {k} is {other:?}, not a tensor"))),
                    })
                    .collect::<Result<Vec<_>>>()
            })
            .collect()
    }
}

/// A host array as an interpreter tensor.
pub fn to_tensor(a: &HostArray) -> Result<Tensor> {
    let elem = a.spec.ty.to_ir().ok_or_else(|| Error::invalid(format!("no IR element type for {}", a.spec.ty.name())))?;
    let d = DenseElements::from_raw(TensorType::new(a.spec.dims.clone(), elem), a.bytes.to_vec()).map_err(Error::invalid)?;
    Tensor::from_dense(&d).map_err(Error::invalid)
}

/// An interpreter tensor as a host array.
pub fn from_tensor(t: &Tensor) -> Result<HostArray> {
    let ty = BufferType::from_ir(&t.ty.elem)
        .ok_or_else(|| Error::unimplemented(format!("a result of element type {:?} cannot be returned through PJRT", t.ty.elem)))?;
    let d = t.to_dense();
    let mut bytes = d.data;
    if d.splat {
        bytes = bytes.repeat(t.len());
    }
    Ok(HostArray { spec: ArraySpec { ty, dims: t.ty.shape.clone() }, bytes: crate::host_bytes::HostBytes::from(bytes) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proto::CompileOptions;

    #[test]
    fn host_arrays_round_trip_through_tensors() {
        let cases: Vec<(BufferType, Vec<u8>)> = vec![
            (BufferType::F32, [1.5f32, -2.0, 0.0, 3.25].iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>()),
            (BufferType::S8, vec![0x80, 0x7f, 0, 1]),
            (BufferType::U16, [1u16, 65535, 7, 9].iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>()),
            (BufferType::PRED, vec![1, 0, 0, 1]),
            (BufferType::BF16, [0x3f80u16, 0xc000, 0, 0x7f80].iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>()),
            (BufferType::F16, [0x3c00u16, 0xc000, 0x8000, 0x7c00].iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>()),
            (BufferType::S64, [i64::MIN, -1, 0, i64::MAX].iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>()),
            (BufferType::U64, [u64::MAX, 1, 0, 5].iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>()),
            (BufferType::F64, [1e300f64, -0.0, 2.5, f64::INFINITY].iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>()),
        ];
        for (ty, bytes) in cases {
            let a = HostArray { spec: ArraySpec::new(ty, &[2, 2]), bytes: crate::host_bytes::HostBytes::from(bytes) };
            let t = to_tensor(&a).unwrap();
            assert_eq!(from_tensor(&t).unwrap(), a, "{}", ty.name());
        }
        let c = HostArray {
            spec: ArraySpec::new(BufferType::C64, &[2]),
            bytes: crate::host_bytes::HostBytes::from([1.0f32, 2.0, -3.0, 4.5].iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>()),
        };
        assert_eq!(from_tensor(&to_tensor(&c).unwrap()).unwrap(), c);
    }

    fn f32s(v: &[f32]) -> HostArray {
        HostArray { spec: ArraySpec::new(BufferType::F32, &[v.len() as i64]), bytes: crate::host_bytes::HostBytes::from(v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>()) }
    }

    #[test]
    fn text_programs_compile_and_run() {
        let src = "func.func @main(%a: tensor<2xf32> {tf.aliasing_output = 0 : i32}, %b: tensor<2xf32>) -> tensor<2xf32> {\n\
                   %0 = stablehlo.add %a, %b : tensor<2xf32>\n  return %0 : tensor<2xf32>\n}\n";
        let opts = CompileOptions::default();
        let p = InterpBackend.compile(&CompileRequest { format: "mlir", code: src.as_bytes(), options: &opts }).unwrap();
        assert_eq!(p.donations(), &[Donation { input: 0, output: Some(0) }]);
        let launch = Launch { logical_ids: vec![(0, 0)], num_replicas: 1, num_partitions: 1, host: vec![], caller_waits: true };
        let out = p.execute(vec![vec![f32s(&[1.0, 2.0]), f32s(&[0.5, 0.25])]], &launch).unwrap();
        assert_eq!(out[0][0], f32s(&[1.5, 2.25]));
    }

    #[test]
    fn bad_programs_give_located_errors() {
        let opts = CompileOptions::default();
        let compile = |s: &str| InterpBackend.compile(&CompileRequest { format: "mlir", code: s.as_bytes(), options: &opts });
        let e = compile("func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n  %0 = stablehlo.bogus %a : tensor<2xf32>\n}\n").err().unwrap();
        assert!(e.message.contains("<program>:2:"), "{}", e.message);
        let e = InterpBackend.compile(&CompileRequest { format: "hlo", code: b"x", options: &opts }).err().unwrap();
        assert!(e.message.contains("\"mlir\" format"), "{}", e.message);
        let e = InterpBackend.compile(&CompileRequest { format: "mlir", code: b"ML\xefR\x06garbage", options: &opts }).err().unwrap();
        assert!(e.message.contains("MLIR bytecode"), "{}", e.message);
    }

    #[test]
    fn grids_run_every_process() {
        let src = "module attributes {mhlo.num_replicas = 2 : i32} {\n\
                   func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n\
                   %0 = \"stablehlo.all_reduce\"(%a) ({\n\
                   ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n\
                   %s = stablehlo.add %x, %y : tensor<f32>\n\
                   stablehlo.return %s : tensor<f32>\n\
                   }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>\n\
                   return %0 : tensor<2xf32>\n}\n}\n";
        let opts = CompileOptions { num_replicas: 2, ..CompileOptions::default() };
        let p = InterpBackend.compile(&CompileRequest { format: "mlir", code: src.as_bytes(), options: &opts }).unwrap();
        // Device 0 runs replica 1 and device 1 replica 0: results come back in device order.
        let launch = Launch { logical_ids: vec![(1, 0), (0, 0)], num_replicas: 2, num_partitions: 1, host: vec![], caller_waits: true };
        let out = p.execute(vec![vec![f32s(&[1.0, 2.0])], vec![f32s(&[10.0, 20.0])]], &launch).unwrap();
        assert_eq!(out, vec![vec![f32s(&[11.0, 22.0])], vec![f32s(&[11.0, 22.0])]]);
    }

    #[test]
    fn shard_map_programs_run_partitioned() {
        // What jax.jit(shard_map(psum, in_specs=P("x"), out_specs=P())) gives on 2 devices.
        let src = r#"module @jit_f attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  "sdy.mesh"() {mesh = #sdy.mesh<["x"=2]>, sym_name = "mesh"} : () -> ()
  func.func @main(%arg0: tensor<8xf32>) -> tensor<4xf32> {
    %0 = "sdy.manual_computation"(%arg0) ({
    ^bb0(%arg1: tensor<4xf32>):
      %1 = "stablehlo.all_reduce"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %2 = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %2 : tensor<f32>
      }) : (tensor<4xf32>) -> tensor<4xf32>
      "sdy.return"(%1) : (tensor<4xf32>) -> ()
    }) {in_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>, manual_axes = #sdy<manual_axes{"x"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<8xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}"#;
        let opts = CompileOptions { num_partitions: 2, ..CompileOptions::default() };
        let p = InterpBackend.compile(&CompileRequest { format: "mlir", code: src.as_bytes(), options: &opts }).unwrap();
        assert_eq!(p.inputs(), &[ArraySpec::new(BufferType::F32, &[4])]);
        let (ins, outs) = p.shardings();
        assert_eq!(outs, vec![vec![8, 0]]);
        assert_eq!(ins[0][..2], [8, 3]);
        let launch = Launch { logical_ids: vec![(0, 0), (0, 1)], num_replicas: 1, num_partitions: 2, host: vec![], caller_waits: true };
        let out = p.execute(vec![vec![f32s(&[1.0, 2.0, 3.0, 4.0])], vec![f32s(&[10.0, 20.0, 30.0, 40.0])]], &launch).unwrap();
        assert_eq!(out[0][0], f32s(&[11.0, 22.0, 33.0, 44.0]));
        assert_eq!(out[1][0], out[0][0]);
        // Work on a split value outside shard_map is refused with a clear message.
        let bad = src.replace("return %0 : tensor<4xf32>", "%9 = stablehlo.negate %arg0 : tensor<8xf32>\n    return %0 : tensor<4xf32>");
        let e = InterpBackend.compile(&CompileRequest { format: "mlir", code: bad.as_bytes(), options: &opts }).err().unwrap();
        assert!(e.message.contains("outside shard_map"), "{}", e.message);
    }
}
