//! Builds an op with attributes, result types and (optionally) a region, and runs an `eval_*` on it with
//! a mock [`RegionEval`] whose regions are Rust closures.

use oxhlo_interp::collectives::Rendezvous;
use oxhlo_interp::ops::{OpCtx, ProcessInfo, RegionEval};
use oxhlo_interp::{Data, RtValue, Tensor};
use oxhlo_ir::{Attr, Block, ElementType, Func, FunctionType, Op, OpKind, Region, TensorType, Type};

pub type Body = Box<dyn FnMut(&[RtValue]) -> Result<Vec<RtValue>, String> + Send>;

pub struct Mock<'r> {
    pub bodies: Vec<Body>,
    pub calls: usize,
    pub process: ProcessInfo,
    pub rendezvous: Option<&'r Rendezvous>,
}

impl RegionEval for Mock<'_> {
    fn call_region(&mut self, region: &Region, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
        self.calls += 1;
        // Regions are tagged by their block's first argument id (1_000_000 + body index).
        let i = region.blocks.first().and_then(|b| b.args.first()).map(|v| v.0 as usize).unwrap_or(0);
        let body = self.bodies.get_mut(i.wrapping_sub(1_000_000)).ok_or("no such mock body")?;
        body(args)
    }
    fn call_func(&mut self, name: &str, _args: &[RtValue]) -> Result<Vec<RtValue>, String> {
        Err(format!("no function {name}"))
    }
    fn process(&self) -> ProcessInfo {
        self.process
    }
    fn collectives(&self) -> Option<&Rendezvous> {
        self.rendezvous
    }
}

pub type EvalFn = fn(&mut OpCtx, &[RtValue]) -> Result<Vec<RtValue>, String>;

/// Runs `f` on an op of `kind` with `attrs`, result types `results` and one mock region per body.
pub fn run_op(
    f: EvalFn,
    kind: OpKind,
    attrs: Vec<(&str, Attr)>,
    args: Vec<RtValue>,
    results: Vec<Type>,
    bodies: Vec<Body>,
) -> Result<Vec<RtValue>, String> {
    run_op_in(ProcessInfo::default(), None, f, kind, attrs, args, results, bodies)
}

/// [`run_op`] as process `process` of a parallel run meeting at `rendezvous`.
#[allow(clippy::too_many_arguments)]
pub fn run_op_in(
    process: ProcessInfo,
    rendezvous: Option<&Rendezvous>,
    f: EvalFn,
    kind: OpKind,
    attrs: Vec<(&str, Attr)>,
    args: Vec<RtValue>,
    results: Vec<Type>,
    bodies: Vec<Body>,
) -> Result<Vec<RtValue>, String> {
    let mut func = Func::new("t", FunctionType { inputs: vec![], results: vec![] });
    let mut op = Op::new(kind, vec![], vec![]);
    for (n, a) in attrs {
        op.set_attr(n, a);
    }
    for r in &results {
        let v = func.new_value(r.clone());
        op.results.push(v);
    }
    for i in 0..bodies.len() {
        // The mock finds its closure by the first block argument's id (never a real value here).
        op.regions.push(Region::single(Block { args: vec![oxhlo_ir::Value(i as u32 + 1_000_000)], ops: vec![] }));
    }
    let result_types: Vec<&Type> = results.iter().collect();
    let mut mock = Mock { bodies, calls: 0, process, rendezvous };
    let mut ctx = OpCtx { op: &op, func: &func, result_types, regions: &mut mock };
    f(&mut ctx, &args)
}

pub fn tt(shape: &[i64], elem: ElementType) -> Type {
    Type::Tensor(TensorType::new(shape.to_vec(), elem))
}

pub fn f32s(shape: &[i64], v: &[f64]) -> RtValue {
    RtValue::Tensor(Tensor { ty: TensorType::new(shape.to_vec(), ElementType::F32), data: Data::Float(v.to_vec()) })
}

pub fn f64s(shape: &[i64], v: &[f64]) -> RtValue {
    RtValue::Tensor(Tensor { ty: TensorType::new(shape.to_vec(), ElementType::F64), data: Data::Float(v.to_vec()) })
}

pub fn i32s(shape: &[i64], v: &[i64]) -> RtValue {
    RtValue::Tensor(Tensor { ty: TensorType::new(shape.to_vec(), ElementType::I32), data: Data::Int(v.to_vec()) })
}

pub fn i64s(shape: &[i64], v: &[i64]) -> RtValue {
    RtValue::Tensor(Tensor { ty: TensorType::new(shape.to_vec(), ElementType::I64), data: Data::Int(v.to_vec()) })
}

pub fn u64s(shape: &[i64], v: &[u64]) -> RtValue {
    RtValue::Tensor(Tensor { ty: TensorType::new(shape.to_vec(), ElementType::uint(64)), data: Data::UInt(v.to_vec()) })
}

pub fn c64s(shape: &[i64], v: &[(f64, f64)]) -> RtValue {
    let e = ElementType::Complex(oxhlo_ir::FloatType::F64);
    RtValue::Tensor(Tensor { ty: TensorType::new(shape.to_vec(), e), data: Data::Complex(v.to_vec()) })
}

pub fn arr(v: &[i64]) -> Attr {
    Attr::DenseArray(oxhlo_ir::attr::DenseArray::I64(v.to_vec()))
}

pub fn int(v: i64) -> Attr {
    Attr::Int(v, ElementType::I64)
}

pub fn tensor(v: &RtValue) -> &Tensor {
    match v {
        RtValue::Tensor(t) => t,
        _ => panic!("not a tensor"),
    }
}

pub fn ints(v: &RtValue) -> Vec<i64> {
    match &tensor(v).data {
        Data::Int(x) => x.clone(),
        Data::UInt(x) => x.iter().map(|&u| u as i64).collect(),
        d => panic!("not ints: {d:?}"),
    }
}

pub fn floats(v: &RtValue) -> Vec<f64> {
    match &tensor(v).data {
        Data::Float(x) => x.clone(),
        d => panic!("not floats: {d:?}"),
    }
}

pub fn complexes(v: &RtValue) -> Vec<(f64, f64)> {
    match &tensor(v).data {
        Data::Complex(x) => x.clone(),
        d => panic!("not complex: {d:?}"),
    }
}

/// A region body that adds two scalars of the same kind.
pub fn add_body() -> Body {
    Box::new(|a: &[RtValue]| {
        let (x, y) = (tensor(&a[0]), tensor(&a[1]));
        let data = match (&x.data, &y.data) {
            (Data::Int(p), Data::Int(q)) => Data::Int(vec![p[0].wrapping_add(q[0])]),
            (Data::Float(p), Data::Float(q)) => Data::Float(vec![p[0] + q[0]]),
            _ => return Err("add_body: unsupported".into()),
        };
        Ok(vec![RtValue::Tensor(Tensor { ty: x.ty.clone(), data })])
    })
}

/// A comparator body: `a < b` on the first operand pair.
pub fn less_body() -> Body {
    Box::new(|a: &[RtValue]| {
        let (x, y) = (tensor(&a[0]), tensor(&a[1]));
        let lt = match (&x.data, &y.data) {
            (Data::Int(p), Data::Int(q)) => p[0] < q[0],
            (Data::Float(p), Data::Float(q)) => p[0] < q[0],
            _ => return Err("less_body: unsupported".into()),
        };
        Ok(vec![RtValue::Tensor(Tensor { ty: TensorType::new(vec![], ElementType::Bool), data: Data::Bool(vec![lt]) })])
    })
}

pub fn assert_close(got: &[f64], want: &[f64], tol: f64) {
    assert_eq!(got.len(), want.len(), "length");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!((g - w).abs() <= tol * (1.0 + w.abs()), "index {i}: got {g}, want {w}");
    }
}
