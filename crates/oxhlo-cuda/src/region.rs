//! A region's body (a sort's comparator, a reduce's reducer, select_and_scatter's select and scatter)
//! as a CUDA device function: its block arguments as parameters `p0, p1, ...`, its constants inlined as
//! literals (also those it reads from outside the region: MLIR's canonicalizer hoists them there, as in
//! every JAX export), its ops rendered by the elementwise renderer.

use crate::render::{kind_of, reg_type, render_body_with, Body};
use oxhlo_cpu::Kind;
use oxhlo_ir::{Block, Func, Op, OpKind, Value};
use std::collections::HashMap;
use std::fmt::Write;

/// Reducer region block `block` as `__device__ void {name}(acc..., x..., results...)` on register
/// values of `kinds` (the accumulators, then the elements; results through pointers), or None when an
/// op of it does not render or it does not return one value of each kind.
pub fn reducer(func: &Func, block: &Block, kinds: &[Kind], name: &str) -> Option<String> {
    let last = block.ops.last()?;
    if last.kind != OpKind::Return || last.operands.len() != kinds.len() {
        return None;
    }
    let arg_kinds: Vec<Kind> = kinds.iter().chain(kinds).copied().collect();
    let (mut params, body) = region_body(func, block, &arg_kinds)?;
    for (j, k) in kinds.iter().enumerate() {
        params.push(format!("{}* r{j}", reg_type(*k)));
    }
    let mut out = format!("__device__ __forceinline__ void {name}({}) {{\n{}", params.join(", "), body.body);
    for (j, v) in last.operands.iter().enumerate() {
        let (reg, k) = body.regs.get(v)?;
        if *k != kinds[j] {
            return None;
        }
        let _ = writeln!(out, "    *r{j} = {reg};");
    }
    out.push_str("}\n");
    Some(out)
}

/// Predicate region block `block` (a comparator, a select) as `__device__ bool {name}(params...)` on
/// register values of `arg_kinds`, or None when an op of it does not render or it does not return one
/// bool.
pub fn predicate(func: &Func, block: &Block, arg_kinds: &[Kind], name: &str) -> Option<String> {
    let last = block.ops.last()?;
    if last.kind != OpKind::Return || last.operands.len() != 1 {
        return None;
    }
    let (params, body) = region_body(func, block, arg_kinds)?;
    let (ret, rk) = body.regs.get(&last.operands[0])?;
    if *rk != Kind::Bool {
        return None;
    }
    Some(format!("__device__ __forceinline__ bool {name}({}) {{\n{}    return {ret};\n}}\n", params.join(", "), body.body))
}

/// The parameters (`p<i>` of `arg_kinds[i]`, which the block's arguments must have) and the rendered
/// body of region block `block` (its terminator aside; its values in `Body::regs`), or None when an op
/// of it does not render or a value from outside is not a splat constant.
pub fn region_body(func: &Func, block: &Block, arg_kinds: &[Kind]) -> Option<(Vec<String>, Body)> {
    if block.args.len() != arg_kinds.len() {
        return None;
    }
    let mut seeded: HashMap<Value, (String, Kind)> = HashMap::new();
    let mut params = Vec::new();
    for (i, (&a, &k)) in block.args.iter().zip(arg_kinds).enumerate() {
        if kind_of(func, a)?.0 != k {
            return None;
        }
        let name = format!("p{i}");
        params.push(format!("{} {name}", reg_type(k)));
        seeded.insert(a, (name, k));
    }
    let ops = region_constants(func, block, &mut seeded)?;
    // Complex values only where the caller asked for complex kinds (a reduce of complex numbers).
    let complex = arg_kinds.iter().any(|&k| crate::render::is_complex(k));
    let body = render_body_with(func, block, &ops, &[], &[], &[], &seeded, false, complex)?;
    Some((params, body))
}

/// The ops of region block `block` (its terminator aside) to render, with its constants put in `seeded`
/// as literals: its own, and those it reads from outside the region (MLIR's canonicalizer hoists them
/// there: JAX's exported comparators read 0.0 and NaN so). None when a value from outside is not a
/// splat constant.
fn region_constants(func: &Func, block: &Block, seeded: &mut HashMap<Value, (String, Kind)>) -> Option<Vec<usize>> {
    let (_, body_ops) = block.ops.split_last()?;
    let constant = |o: &Op| -> Option<(String, Kind)> {
        let d = oxhlo_opt::util::const_value(o)?;
        let (k, _) = kind_of(func, o.results[0])?;
        Some((literal(k, oxhlo_opt::util::splat_bits(d)?)?, k))
    };
    let mut ops = Vec::new();
    for (i, o) in body_ops.iter().enumerate() {
        if o.kind == OpKind::Constant {
            seeded.insert(o.results[0], constant(o)?);
        } else {
            ops.push(i);
        }
    }
    let inner: std::collections::HashSet<Value> = block.ops.iter().flat_map(|o| o.results.iter().copied()).chain(block.args.iter().copied()).collect();
    let outer: Vec<Value> = block.ops.iter().flat_map(|o| o.operands.iter().copied()).filter(|v| !inner.contains(v)).collect();
    if !outer.is_empty() {
        let defs = constants_of(func);
        for v in outer {
            seeded.insert(v, constant(defs.get(&v)?)?);
        }
    }
    Some(ops)
}

/// The constant ops of `func` (in any block, nested ones too), by the value they define.
fn constants_of(func: &Func) -> HashMap<Value, &Op> {
    fn walk<'f>(region: &'f oxhlo_ir::Region, out: &mut HashMap<Value, &'f Op>) {
        for b in &region.blocks {
            for o in &b.ops {
                if o.kind == OpKind::Constant {
                    if let Some(&r) = o.results.first() {
                        out.insert(r, o);
                    }
                }
                for r in &o.regions {
                    walk(r, out);
                }
            }
        }
    }
    let mut out = HashMap::new();
    walk(&func.body, &mut out);
    out
}

/// A C expression of register kind `k` for an element whose raw bits are `bits`.
fn literal(k: Kind, bits: u64) -> Option<String> {
    let w = 8 * k.size() as u32;
    let sext = |b: u64| if w >= 64 { b as i64 } else { ((b << (64 - w)) as i64) >> (64 - w) };
    Some(match k {
        Kind::Bool => (if bits & 1 == 1 { "true" } else { "false" }).to_string(),
        Kind::F32 => format!("__int_as_float((int)0x{:08x}U)", bits as u32),
        Kind::F64 => format!("__longlong_as_double((long long)0x{bits:016x}ULL)"),
        Kind::F16 => format!("((double)oxh_f16_to_f((unsigned short)0x{:04x}U))", bits as u16),
        Kind::BF16 => format!("((double)oxh_bf16_to_f((unsigned short)0x{:04x}U))", bits as u16),
        Kind::I8 | Kind::I16 | Kind::I32 | Kind::I64 => format!("((long long)0x{:016x}ULL)", sext(bits) as u64),
        Kind::U8 | Kind::U16 | Kind::U32 | Kind::U64 => format!("0x{bits:x}ULL"),
        _ => return None,
    })
}
