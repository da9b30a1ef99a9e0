//! GEMM epilogues: an f32 `dot_general` whose result only the step after it reads, when that step
//! computes exactly `gelu(dot)` (the tanh approximation JAX's `jax.nn.gelu` lowers to) or `dot + r` (a
//! residual connection; the add alone or as a kernel), runs as one cuBLASLt matmul with a GELU epilogue,
//! or with `r` as its `C` operand (`D = A B + C`), instead of a GEMM and a pass over its result
//! ([`crate::gemm_lt`]). The executor then skips that step.
//!
//! The step is matched by its structure, not guessed: its one output's expression over the dot's
//! result (multiplications and additions flattened and sorted, constants folded, constants compared to 6
//! significant digits) must be the pattern's and read no other value but constants (or, for the residual,
//! be the one add), and no op outside it may read the dot's result.

use oxhlo_ir::{Block, Func, Op, OpKind, Type, Value};
use oxhlo_plan::fusion::Step;
use std::collections::HashMap;

/// Whether dots take their epilogues (`OXHLO_CUDA_GEMM_EPILOGUES=0` runs them apart; `gelu` or `add`
/// takes that kind only).
pub fn enabled() -> bool {
    kinds() != (false, false)
}

/// (GELU epilogues on, residual epilogues on), from `OXHLO_CUDA_GEMM_EPILOGUES`.
fn kinds() -> (bool, bool) {
    static ON: std::sync::OnceLock<(bool, bool)> = std::sync::OnceLock::new();
    *ON.get_or_init(|| match std::env::var("OXHLO_CUDA_GEMM_EPILOGUES").ok().as_deref().map(str::trim) {
        Some("0") => (false, false),
        Some("gelu") => (true, false),
        Some("add") => (false, true),
        _ => (true, true),
    })
}

/// Says once on stderr that a cuBLASLt call failed (the dot and its epilogue then run apart).
pub fn log_failure(e: &str) {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| eprintln!("oxhlo-cuda: a GEMM epilogue on cuBLASLt failed ({e}); running the dot and the epilogue apart"));
}

/// What the epilogue applies to the GEMM's result.
#[derive(Clone, Debug, PartialEq)]
pub enum Epilogue {
    /// `0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))`.
    GeluTanh,
    /// `x + residual` (the residual a value of the dot's shape and type).
    Residual(Value),
}

/// A dot step and the kernel after it, run as one GEMM with an epilogue producing `result` (the
/// kernel's one output).
#[derive(Clone, Debug, PartialEq)]
pub struct GemmEpilogue {
    pub epilogue: Epilogue,
    pub result: Value,
}

/// `steps` with each dot step that has an epilogue ([`detect`]) moved down to just before the step
/// that reads its result (JAX's constants of a GELU come between them); every step it moves past reads
/// neither its result nor anything it defines, so the order stays valid.
pub fn sink_dots(func: &Func, block: &Block, mut steps: Vec<Step>) -> Vec<Step> {
    let mut i = 0;
    while i < steps.len() {
        let Step::Op(di) = steps[i] else {
            i += 1;
            continue;
        };
        let op = &block.ops[di];
        let moved = matches!(op.kind, OpKind::Dot | OpKind::DotGeneral) && op.results.len() == 1 && {
            let d = op.results[0];
            let reader = (i + 1..steps.len()).find(|&j| step_reads(block, &steps[j], d));
            match reader {
                Some(j) if j > i + 1 && detect(func, block, &steps[i], &steps[j]).is_some() => {
                    let s = steps.remove(i);
                    steps.insert(j - 1, s);
                    true
                }
                _ => false,
            }
        };
        // A moved step's place now holds the next one: look at it before going on.
        if !moved {
            i += 1;
        }
    }
    steps
}

/// Whether step `s` reads value `v`.
fn step_reads(block: &Block, s: &Step, v: Value) -> bool {
    match s {
        Step::Op(i) => reads(&block.ops[*i], v),
        Step::Kernel(k) => k.inputs.contains(&v),
    }
}

fn reads(op: &Op, v: Value) -> bool {
    op.operands.contains(&v) || op.regions.iter().any(|r| r.blocks.iter().any(|b| b.ops.iter().any(|o| reads(o, v))))
}

/// The epilogue `next` is of the dot step `dot`, if it is one (see the module doc): `next` a fused
/// kernel computing the GELU of the dot's result or adding another value to it, or a lone add.
pub fn detect(func: &Func, block: &Block, dot: &Step, next: &Step) -> Option<GemmEpilogue> {
    let Step::Op(i) = dot else { return None };
    let op = &block.ops[*i];
    if !matches!(op.kind, OpKind::Dot | OpKind::DotGeneral) || op.results.len() != 1 || op.operands.len() != 2 {
        return None;
    }
    let d = op.results[0];
    let f32_of = |v: Value| matches!(func.try_ty(v), Some(Type::Tensor(t)) if t.is_static() && t.elem == oxhlo_ir::ElementType::Float(oxhlo_ir::FloatType::F32));
    if !f32_of(d) || !op.operands.iter().all(|&v| f32_of(v)) {
        return None;
    }
    let (ops, result): (Vec<usize>, Value) = match next {
        Step::Op(j) => (vec![*j], *block.ops[*j].results.first()?),
        Step::Kernel(k) if k.reduce.is_empty() && k.rows.is_none() && k.outputs.len() == 1 && k.inputs.contains(&d) => (k.ops.clone(), k.outputs[0]),
        Step::Kernel(_) => return None,
    };
    if read_outside(block, d, &ops) || func.try_ty(result) != func.try_ty(d) {
        return None;
    }
    // `d + r`: the step is the one add.
    if let [only] = ops.as_slice() {
        let add = &block.ops[*only];
        if add.kind == OpKind::Add && add.results == [result] {
            let r = match add.operands.as_slice() {
                [a, b] if *a == d && *b != d => *b,
                [a, b] if *b == d && *a != d => *a,
                _ => return None,
            };
            return (kinds().1 && func.try_ty(r) == func.try_ty(d)).then_some(GemmEpilogue { epilogue: Epilogue::Residual(r), result });
        }
    }
    // The GELU: its expression reads no value but `d` and constants (`Expr::of`).
    let expr = Expr::of(block, &ops, d, result)?;
    (kinds().0 && expr == gelu_tanh()).then_some(GemmEpilogue { epilogue: Epilogue::GeluTanh, result })
}

/// Whether an op of `block` other than those at `inside` reads `v` (as an operand or in a region).
fn read_outside(block: &Block, v: Value, inside: &[usize]) -> bool {
    block.ops.iter().enumerate().any(|(i, op)| !inside.contains(&i) && reads(op, v))
}

/// An elementwise expression of one variable, in a canonical form: products and sums flattened, their
/// terms sorted, their constants folded into one.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Expr {
    X,
    /// A constant, written with 6 significant digits.
    C(String),
    Tanh(Box<Expr>),
    Mul(Vec<Expr>),
    Add(Vec<Expr>),
}

fn constant(c: f64) -> Expr {
    Expr::C(format!("{c:.5e}"))
}

/// `0.5 x (1 + tanh(0.797885 (x + 0.044715 x x x)))`, as [`Expr::of`] writes it.
fn gelu_tanh() -> Expr {
    let cube = product(vec![constant(0.044715), Expr::X, Expr::X, Expr::X]);
    let inner = product(vec![constant((2.0 / std::f64::consts::PI).sqrt()), sum(vec![Expr::X, cube])]);
    product(vec![constant(0.5), Expr::X, sum(vec![constant(1.0), Expr::Tanh(Box::new(inner))])])
}

/// The canonical product of `terms` (nested products flattened, constants multiplied into one).
fn product(terms: Vec<Expr>) -> Expr {
    fold(terms, 1.0, |a, b| a * b, |e| matches!(e, Expr::Mul(_)), Expr::Mul)
}

/// The canonical sum of `terms`.
fn sum(terms: Vec<Expr>) -> Expr {
    fold(terms, 0.0, |a, b| a + b, |e| matches!(e, Expr::Add(_)), Expr::Add)
}

fn fold(terms: Vec<Expr>, unit: f64, combine: fn(f64, f64) -> f64, same: fn(&Expr) -> bool, make: fn(Vec<Expr>) -> Expr) -> Expr {
    let mut flat = Vec::new();
    let mut c = unit;
    let mut consts = 0;
    let mut stack = terms;
    while let Some(t) = stack.pop() {
        match t {
            Expr::C(s) => {
                c = combine(c, s.parse().unwrap_or(f64::NAN));
                consts += 1;
            }
            e if same(&e) => match e {
                Expr::Mul(v) | Expr::Add(v) => stack.extend(v),
                _ => {}
            },
            e => flat.push(e),
        }
    }
    if consts > 0 && c != unit {
        flat.push(constant(c));
    }
    if flat.len() == 1 {
        return flat.pop().unwrap_or(Expr::X);
    }
    flat.sort();
    make(flat)
}

impl Expr {
    /// The expression the ops of `block` at `ops` compute for `v` over `x` (the dot's result); None
    /// when an op is not a multiply, add or tanh, or `v` reads a value that is neither `x`, a constant
    /// nor defined by those ops.
    fn of(block: &Block, ops: &[usize], x: Value, v: Value) -> Option<Expr> {
        let mut defs: HashMap<Value, &Op> = HashMap::new();
        for op in &block.ops {
            for &r in &op.results {
                defs.insert(r, op);
            }
        }
        let inside: Vec<&Op> = ops.iter().map(|&i| &block.ops[i]).collect();
        Self::walk(&defs, &inside, x, v, 0)
    }

    fn walk(defs: &HashMap<Value, &Op>, inside: &[&Op], x: Value, v: Value, depth: usize) -> Option<Expr> {
        if depth > 32 {
            return None;
        }
        if v == x {
            return Some(Expr::X);
        }
        if let Some(c) = splat_constant(defs, v) {
            return Some(constant(c));
        }
        let op = *defs.get(&v)?;
        if !inside.iter().any(|o| std::ptr::eq(*o, op)) {
            return None;
        }
        let arg = |i: usize| op.operands.get(i).and_then(|&a| Self::walk(defs, inside, x, a, depth + 1));
        match (op.kind, op.operands.len()) {
            (OpKind::Multiply, 2) => Some(product(vec![arg(0)?, arg(1)?])),
            (OpKind::Add, 2) => Some(sum(vec![arg(0)?, arg(1)?])),
            (OpKind::Tanh, 1) => Some(Expr::Tanh(Box::new(arg(0)?))),
            _ => None,
        }
    }
}

/// The value every element of `v` has when it is an f32 splat constant or a broadcast of one.
fn splat_constant(defs: &HashMap<Value, &Op>, v: Value) -> Option<f64> {
    let op = *defs.get(&v)?;
    match op.kind {
        OpKind::Constant => {
            let d = oxhlo_opt::util::const_value(op)?;
            if d.ty.elem != oxhlo_ir::ElementType::Float(oxhlo_ir::FloatType::F32) {
                return None;
            }
            Some(f32::from_bits(oxhlo_opt::util::splat_bits(d)? as u32) as f64)
        }
        OpKind::BroadcastInDim | OpKind::Reshape => splat_constant(defs, *op.operands.first()?),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn products_and_sums_are_canonical() {
        let a = product(vec![Expr::X, product(vec![constant(2.0), constant(0.25)]), Expr::Tanh(Box::new(Expr::X))]);
        let b = product(vec![Expr::Tanh(Box::new(Expr::X)), constant(0.5), Expr::X]);
        assert_eq!(a, b);
        assert_eq!(sum(vec![constant(1.0), constant(-1.0), Expr::X]), Expr::X);
        assert_ne!(product(vec![constant(0.5), Expr::X]), product(vec![constant(0.25), Expr::X]));
    }
}
