//! Unit tests of the verifier on modules built by hand with a tiny builder: valid programs pass, each
//! generic rule fires on its violation, malformed IR (bad value ids, missing or mistyped attributes,
//! mutated programs) gives diagnostics and never a panic, and the shape functions compute spec examples.

use super::{all_rules, check_module, shape, verify_module};
use crate::attr::{Attr, ConvDims, DenseArray, DotDims, GatherDims};
use crate::body::{Block, Op, Region, Value};
use crate::dense::DenseElements;
use crate::location::Location;
use crate::module::{Func, Module, Visibility};
use crate::ops::OpKind;
use crate::types::{ElementType, FunctionType, TensorType, Type, DYN};

const F32: ElementType = ElementType::F32;
const I32: ElementType = ElementType::I32;

fn t(shape: &[i64], e: ElementType) -> Type {
    Type::tensor(shape, e)
}

fn i64s(v: &[i64]) -> Attr {
    Attr::DenseArray(DenseArray::I64(v.to_vec()))
}

/// Builds one function `@main`; nested regions share its value arena.
struct B {
    f: Func,
    stack: Vec<Vec<Op>>,
    line: u32,
}

impl B {
    fn new(inputs: &[Type]) -> (B, Vec<Value>) {
        let mut f = Func::new("main", FunctionType { inputs: inputs.to_vec(), results: Vec::new() });
        let args: Vec<Value> = inputs.iter().map(|t| f.new_value(t.clone())).collect();
        f.body = Region::single(Block { args: args.clone(), ops: Vec::new() });
        (B { f, stack: vec![Vec::new()], line: 1 }, args)
    }

    fn push(&mut self, mut op: Op) {
        self.line += 1;
        op.loc = Location::file("t.mlir", self.line, 3);
        if let Some(top) = self.stack.last_mut() {
            top.push(op);
        }
    }

    fn op(&mut self, kind: OpKind, operands: &[Value], results: &[Type], attrs: Vec<(&str, Attr)>) -> Vec<Value> {
        self.op_r(kind, operands, results, attrs, Vec::new())
    }

    fn op1(&mut self, kind: OpKind, operands: &[Value], result: Type, attrs: Vec<(&str, Attr)>) -> Value {
        self.op(kind, operands, &[result], attrs)[0]
    }

    fn op_r(&mut self, kind: OpKind, operands: &[Value], results: &[Type], attrs: Vec<(&str, Attr)>, regions: Vec<Region>) -> Vec<Value> {
        let res: Vec<Value> = results.iter().map(|t| self.f.new_value(t.clone())).collect();
        let mut op = Op::new(kind, operands.to_vec(), res.clone());
        op.attrs = attrs.into_iter().map(|(n, a)| (n.to_string(), a)).collect();
        op.regions = regions;
        self.push(op);
        res
    }

    /// A one-block region with arguments of `args`, ending in `stablehlo.return` of what `body` returns.
    fn region(&mut self, args: &[Type], body: impl FnOnce(&mut B, &[Value]) -> Vec<Value>) -> Region {
        let vals: Vec<Value> = args.iter().map(|t| self.f.new_value(t.clone())).collect();
        self.stack.push(Vec::new());
        let rets = body(self, &vals);
        self.push(Op::new(OpKind::Return, rets, Vec::new()));
        let ops = self.stack.pop().unwrap_or_default();
        Region::single(Block { args: vals, ops })
    }

    /// A scalar add body `(tensor<E>, tensor<E>) -> tensor<E>`.
    fn add_body(&mut self, e: ElementType) -> Region {
        let s = t(&[], e);
        self.region(&[s.clone(), s.clone()], |b, a| vec![b.op1(OpKind::Add, &[a[0], a[1]], s.clone(), vec![])])
    }

    fn finish(mut self, rets: &[Value]) -> Module {
        let tys: Vec<Type> = rets.iter().map(|v| self.f.ty(*v).clone()).collect();
        self.f.ty.results = tys;
        self.f.res_attrs = vec![Vec::new(); rets.len()];
        self.push(Op::new(OpKind::FuncReturn, rets.to_vec(), Vec::new()));
        let ops = self.stack.pop().unwrap_or_default();
        self.f.body.blocks[0].ops = ops;
        Module { funcs: vec![self.f], ..Default::default() }
    }
}

fn rules_of(m: &Module) -> Vec<&'static str> {
    check_module(m).into_iter().map(|f| f.rule).collect()
}

fn messages(m: &Module) -> Vec<String> {
    check_module(m).into_iter().map(|f| f.diag.message).collect()
}

fn dot_dims(lb: &[i64], rb: &[i64], lc: &[i64], rc: &[i64]) -> Attr {
    Attr::DotDims(DotDims {
        lhs_batching_dimensions: lb.to_vec(),
        rhs_batching_dimensions: rb.to_vec(),
        lhs_contracting_dimensions: lc.to_vec(),
        rhs_contracting_dimensions: rc.to_vec(),
    })
}

#[test]
fn rule_ids_are_unique_and_described() {
    let rules = all_rules();
    let mut seen = std::collections::HashSet::new();
    for r in &rules {
        assert!(seen.insert(r.id), "duplicate rule id {}", r.id);
        assert!(!r.what.is_empty() && r.id.contains('.'), "badly declared rule {}", r.id);
    }
    assert!(rules.len() > 200, "only {} rules", rules.len());
}

#[test]
fn valid_mlp_verifies() {
    let (mut b, a) = B::new(&[t(&[8, 16], F32), t(&[16, 4], F32), t(&[4], F32)]);
    let mm = b.op1(OpKind::DotGeneral, &[a[0], a[1]], t(&[8, 4], F32), vec![("dot_dimension_numbers", dot_dims(&[], &[], &[1], &[0]))]);
    let bias = b.op1(OpKind::BroadcastInDim, &[a[2]], t(&[8, 4], F32), vec![("broadcast_dimensions", i64s(&[1]))]);
    let s = b.op1(OpKind::Add, &[mm, bias], t(&[8, 4], F32), vec![]);
    let zero = b.op1(
        OpKind::Constant,
        &[],
        t(&[], F32),
        vec![("value", Attr::Dense(DenseElements::from_f64s(TensorType::new(vec![], F32), &[0.0]).unwrap()))],
    );
    let body = b.add_body(F32);
    let red = b.op_r(OpKind::Reduce, &[s, zero], &[t(&[8], F32)], vec![("dimensions", i64s(&[1]))], vec![body]);
    let m = b.finish(&red);
    assert_eq!(verify_module(&m), Ok(()));
}

#[test]
fn dot_general_contracting_mismatch_is_reported_with_values() {
    let (mut b, a) = B::new(&[t(&[8, 16], F32), t(&[8, 4], F32)]);
    let mm = b.op1(OpKind::DotGeneral, &[a[0], a[1]], t(&[8, 4], F32), vec![("dot_dimension_numbers", dot_dims(&[], &[], &[1], &[0]))]);
    let m = b.finish(&[mm]);
    let err = verify_module(&m).unwrap_err();
    assert_eq!(err.0.len(), 1);
    assert_eq!(
        err.0[0].to_string(),
        "t.mlir:2:3: error: stablehlo.dot_general: contracting dimension sizes differ (16 vs 8) for lhs dimension 1 and rhs dimension 0"
    );
}

#[test]
fn all_violations_are_reported() {
    let (mut b, a) = B::new(&[t(&[2], F32), t(&[3], F32), t(&[2], I32)]);
    let x = b.op1(OpKind::Add, &[a[0], a[1]], t(&[2], F32), vec![]);
    let y = b.op1(OpKind::Exponential, &[a[2]], t(&[2], I32), vec![]);
    let m = b.finish(&[x, y]);
    assert_eq!(rules_of(&m), vec!["elementwise.same_type", "op.element_type"]);
}

#[test]
fn dynamic_dims_are_compatible() {
    let (mut b, a) = B::new(&[t(&[DYN, 16], F32), t(&[16, DYN], F32)]);
    let mm = b.op1(OpKind::DotGeneral, &[a[0], a[1]], t(&[4, 7], F32), vec![("dot_dimension_numbers", dot_dims(&[], &[], &[1], &[0]))]);
    let s = b.op1(OpKind::Add, &[mm, mm], t(&[DYN, 7], F32), vec![]);
    let m = b.finish(&[s]);
    assert_eq!(verify_module(&m), Ok(()));
}

#[test]
fn generic_rules_fire() {
    // use before definition, unknown value, arity
    let (mut b, a) = B::new(&[t(&[2], F32)]);
    let later = Value(a[0].0 + 2);
    b.op1(OpKind::Negate, &[later], t(&[2], F32), vec![]);
    b.op1(OpKind::Negate, &[a[0]], t(&[2], F32), vec![]);
    b.op1(OpKind::Negate, &[Value(999)], t(&[2], F32), vec![]);
    b.op(OpKind::Add, &[a[0]], &[t(&[2], F32)], vec![]);
    let m = b.finish(&[a[0]]);
    let r = rules_of(&m);
    assert!(r.contains(&"value.use_before_def"), "{r:?}");
    assert!(r.contains(&"value.unknown"), "{r:?}");
    assert!(r.contains(&"op.operand_count"), "{r:?}");

    // values of a region used outside it; missing terminator; wrong parent for func.return
    let (mut b, a) = B::new(&[t(&[], F32)]);
    let mut inner = None;
    let body = b.region(&[], |b, _| {
        let v = b.op1(OpKind::Negate, &[a[0]], t(&[], F32), vec![]);
        inner = Some(v);
        vec![v]
    });
    let pred = b.op1(OpKind::Constant, &[], t(&[], ElementType::Bool), vec![("value", Attr::Dense(DenseElements::from_i64s(TensorType::new(vec![], ElementType::Bool), &[1]).unwrap()))]);
    let other = b.region(&[], |_, _| vec![a[0]]);
    b.op_r(OpKind::If, &[pred], &[t(&[], F32)], vec![], vec![body, other]);
    let leak = b.op1(OpKind::Negate, &[inner.unwrap()], t(&[], F32), vec![]);
    let m = b.finish(&[leak]);
    assert_eq!(rules_of(&m), vec!["value.scope"]);

    let mut m2 = m.clone();
    m2.funcs[0].body.blocks[0].ops.pop();
    assert_eq!(rules_of(&m2), vec!["value.scope", "region.terminator"]);

    let mut m3 = m.clone();
    m3.funcs[0].visibility = Visibility::Public;
    m3.funcs[0].body = Region::default();
    assert_eq!(rules_of(&m3), vec!["func.declaration_private"]);

    let mut m4 = m.clone();
    m4.funcs.push(m.funcs[0].clone());
    assert!(rules_of(&m4).contains(&"module.duplicate_symbol"));
}

#[test]
fn calls_are_checked_against_the_callee() {
    let (mut b, a) = B::new(&[t(&[2], F32)]);
    let r = b.op1(OpKind::Call, &[a[0]], t(&[2], F32), vec![("callee", Attr::SymbolRef("main".into()))]);
    let m = b.finish(&[r]);
    assert_eq!(verify_module(&m), Ok(()));
    let (mut b, a) = B::new(&[t(&[2], F32)]);
    b.op1(OpKind::Call, &[a[0]], t(&[3], F32), vec![("callee", Attr::SymbolRef("main".into()))]);
    b.op1(OpKind::Call, &[a[0]], t(&[2], F32), vec![("callee", Attr::SymbolRef("nope".into()))]);
    let m = b.finish(&[a[0]]);
    assert_eq!(rules_of(&m), vec!["func.call.signature", "func.call.callee"]);
}

#[test]
fn missing_and_mistyped_attributes_are_diagnostics() {
    let (mut b, a) = B::new(&[t(&[2, 3], F32)]);
    b.op1(OpKind::Transpose, &[a[0]], t(&[3, 2], F32), vec![]);
    b.op1(OpKind::Transpose, &[a[0]], t(&[3, 2], F32), vec![("permutation", Attr::Str("x".into()))]);
    b.op1(OpKind::DotGeneral, &[a[0], a[0]], t(&[2, 2], F32), vec![("dot_dimension_numbers", Attr::Int(3, I32))]);
    b.op1(OpKind::Convolution, &[a[0], a[0]], t(&[2, 3], F32), vec![("dimension_numbers", Attr::Unit)]);
    b.op1(OpKind::Gather, &[a[0], a[0]], t(&[2, 3], F32), vec![]);
    let m = b.finish(&[a[0]]);
    let r = rules_of(&m);
    assert_eq!(r.iter().filter(|r| **r == "attr.missing").count(), 3, "{r:?}");
    assert_eq!(r.iter().filter(|r| **r == "attr.kind").count(), 3, "{r:?}");
}

/// A small deterministic generator (xorshift) for the mutation test.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn conv_module() -> Module {
    let (mut b, a) = B::new(&[t(&[1, 8, 8, 3], F32), t(&[3, 3, 3, 16], F32), t(&[5, 4], F32), t(&[3, 1], I32)]);
    let dims = ConvDims {
        input_batch_dimension: 0,
        input_feature_dimension: 3,
        input_spatial_dimensions: vec![1, 2],
        kernel_input_feature_dimension: 2,
        kernel_output_feature_dimension: 3,
        kernel_spatial_dimensions: vec![0, 1],
        output_batch_dimension: 0,
        output_feature_dimension: 3,
        output_spatial_dimensions: vec![1, 2],
    };
    let c = b.op1(OpKind::Convolution, &[a[0], a[1]], t(&[1, 6, 6, 16], F32), vec![("dimension_numbers", Attr::ConvDims(dims)), ("window_strides", i64s(&[1, 1]))]);
    let g = b.op1(
        OpKind::Gather,
        &[a[2], a[3]],
        t(&[3, 4], F32),
        vec![
            (
                "dimension_numbers",
                Attr::GatherDims(GatherDims { offset_dims: vec![1], collapsed_slice_dims: vec![0], start_index_map: vec![0], index_vector_dim: 1, ..Default::default() }),
            ),
            ("slice_sizes", i64s(&[1, 4])),
        ],
    );
    let z = b.op1(OpKind::Constant, &[], t(&[], F32), vec![("value", Attr::Dense(DenseElements::from_f64s(TensorType::new(vec![], F32), &[0.0]).unwrap()))]);
    let body = b.add_body(F32);
    let rw = b.op_r(
        OpKind::ReduceWindow,
        &[c, z],
        &[t(&[1, 3, 3, 16], F32)],
        vec![("window_dimensions", i64s(&[1, 2, 2, 1])), ("window_strides", i64s(&[1, 2, 2, 1]))],
        vec![body],
    );
    let m = b.finish(&[rw[0], g]);
    assert_eq!(verify_module(&m), Ok(()), "the base of the mutation test must verify");
    m
}

fn mutate_op(op: &mut Op, rng: &mut Rng, nvalues: u32) {
    match rng.below(6) {
        0 if !op.operands.is_empty() => {
            let i = rng.below(op.operands.len());
            op.operands[i] = Value(rng.below(nvalues as usize + 3) as u32);
        }
        1 if !op.attrs.is_empty() => {
            let i = rng.below(op.attrs.len());
            op.attrs.remove(i);
        }
        2 if !op.attrs.is_empty() => {
            let i = rng.below(op.attrs.len());
            op.attrs[i].1 = match rng.below(4) {
                0 => Attr::Int(rng.below(7) as i64 - 3, I32),
                1 => i64s(&[rng.below(5) as i64 - 1, rng.below(5) as i64 - 1]),
                2 => Attr::Unit,
                _ => Attr::Array(vec![]),
            };
        }
        3 if !op.operands.is_empty() => {
            op.operands.pop();
        }
        4 => op.results.push(Value(rng.below(nvalues as usize + 3) as u32)),
        _ => op.regions.clear(),
    }
}

#[test]
fn mutated_programs_never_panic() {
    let base = conv_module();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut failures = 0;
    for _ in 0..3000 {
        let mut m = base.clone();
        let f = &mut m.funcs[0];
        let n = f.values.len() as u32;
        for _ in 0..1 + rng.below(3) {
            match rng.below(4) {
                0 if !f.values.is_empty() => {
                    let i = rng.below(f.values.len());
                    f.values[i] = match rng.below(4) {
                        0 => t(&[rng.below(4) as i64, 3], F32),
                        1 => Type::Token,
                        2 => t(&[-7], I32),
                        _ => Type::Tuple(vec![]),
                    };
                }
                1 => {
                    let len = f.values.len();
                    f.values.truncate(rng.below(len));
                }
                _ => {
                    let ops = &mut f.body.blocks[0].ops;
                    let i = rng.below(ops.len());
                    if let Some(op) = ops.get_mut(i) {
                        mutate_op(op, &mut rng, n);
                    }
                }
            }
        }
        if verify_module(&m).is_err() {
            failures += 1;
        }
    }
    assert!(failures > 2000, "mutations should mostly be caught, got {failures}");
}

#[test]
fn shape_functions_follow_the_spec_examples() {
    // dot_general (spec example): batch 2, 2x2 by 2x2.
    let d = DotDims {
        lhs_batching_dimensions: vec![0],
        rhs_batching_dimensions: vec![0],
        lhs_contracting_dimensions: vec![2],
        rhs_contracting_dimensions: vec![1],
    };
    assert_eq!(shape::infer_dot_general_shape(&[2, 2, 2], &[2, 2, 2], &d), Ok(vec![2, 2, 2]));
    // convolution (spec example): 1x4x4x1 by 3x3x1x1, stride 4, lhs_dilation 2 -> 1x2x2x1.
    let dims = ConvDims {
        input_batch_dimension: 0,
        input_feature_dimension: 3,
        input_spatial_dimensions: vec![1, 2],
        kernel_input_feature_dimension: 2,
        kernel_output_feature_dimension: 3,
        kernel_spatial_dimensions: vec![0, 1],
        output_batch_dimension: 0,
        output_feature_dimension: 3,
        output_spatial_dimensions: vec![1, 2],
    };
    let cfg = shape::ConvConfig {
        window_strides: Some(&[4, 4]),
        padding: Some(&[(0, 0), (0, 0)]),
        lhs_dilation: Some(&[2, 2]),
        rhs_dilation: Some(&[1, 1]),
        window_reversal: None,
        dims: &dims,
        feature_group_count: 1,
        batch_group_count: 1,
    };
    assert_eq!(shape::infer_conv_shape(&[1, 4, 4, 1], &[3, 3, 1, 1], &cfg), Ok(vec![1, 2, 2, 1]));
    // gather (spec example).
    let g = GatherDims {
        offset_dims: vec![2, 3],
        collapsed_slice_dims: vec![0],
        start_index_map: vec![1, 0],
        index_vector_dim: 2,
        ..Default::default()
    };
    assert_eq!(shape::infer_gather_shape(&[3, 4, 2], &[2, 3, 2], &g, Some(&[1, 2, 2])), Ok(vec![2, 3, 2, 2]));
    // gather with batching dims: operand [B=2, 5, 3], indices [2, 4, 1] -> [2, 4, 3].
    let g = GatherDims {
        offset_dims: vec![2],
        collapsed_slice_dims: vec![1],
        operand_batching_dims: vec![0],
        start_indices_batching_dims: vec![0],
        start_index_map: vec![1],
        index_vector_dim: 2,
    };
    assert_eq!(shape::infer_gather_shape(&[2, 5, 3], &[2, 4, 1], &g, Some(&[1, 1, 3])), Ok(vec![2, 4, 3]));
    // reduce_window (spec example): 3x2, window [2, 1], strides [4, 1], base dil [2, 1], win dil [3, 1],
    // padding [[2, 1], [0, 0]] -> 2x2.
    let w = shape::WindowConfig {
        dimensions: &[2, 1],
        strides: Some(&[4, 1]),
        base_dilations: Some(&[2, 1]),
        window_dilations: Some(&[3, 1]),
        padding: Some(&[(2, 1), (0, 0)]),
    };
    assert_eq!(shape::infer_window_shape(&[3, 2], &w), Ok(vec![2, 2]));
    // select_and_scatter (spec example): 4x2, window [3, 1], strides [2, 1], padding [[0, 1], [0, 0]] -> 2x2.
    assert_eq!(shape::infer_select_and_scatter_source_shape(&[4, 2], &[3, 1], Some(&[2, 1]), Some(&[(0, 1), (0, 0)])), Ok(vec![2, 2]));
    // pad (spec example): 2x3, low [0, 1], high [2, 1], interior [1, 2] -> 5x9.
    assert_eq!(shape::infer_pad_shape(&[2, 3], &[0, 1], &[2, 1], &[1, 2]), Ok(vec![5, 9]));
    assert_eq!(shape::infer_slice_shape(&[3, 4], &[1, 2], &[3, 4], &[1, 1]), Ok(vec![2, 2]));
    assert_eq!(shape::infer_slice_shape(&[10], &[1], &[10], &[4]), Ok(vec![3]));
    assert_eq!(shape::infer_concatenate_shape(&[&[3, 2], &[1, 2]], 0), Ok(vec![4, 2]));
    assert_eq!(shape::infer_transpose_shape(&[2, 3, 4], &[2, 0, 1]), Ok(vec![4, 2, 3]));
    assert_eq!(shape::infer_reduce_shape(&[1, 6], &[1]), Ok(vec![1]));
    assert_eq!(shape::broadcast_shapes(&[3, 1], &[4]), Ok(vec![3, 4]));
    assert!(shape::broadcast_shapes(&[3], &[4]).is_err());
    assert_eq!(shape::check_broadcast_in_dim(&[1, 3], &[2, 1], &[2, 3, 2]), Ok(()));
    assert_eq!(shape::num_windows(DYN, 3, 1, 1, 1, (0, 0)), DYN);
}

#[test]
fn shape_errors_name_their_rule() {
    let e = shape::infer_slice_shape(&[3], &[2], &[1], &[1]).unwrap_err();
    assert_eq!(e.rule.id, "slice.bounds");
    assert_eq!(e.to_string(), "dimension 0: need 0 <= start (2) <= limit (1) <= dimension size (3)");
    let e = shape::infer_transpose_shape(&[2, 3], &[0, 0]).unwrap_err();
    assert_eq!(e.rule.id, "transpose.permutation");
}

#[test]
fn quantized_types_are_checked() {
    use crate::types::QuantType;
    let q = |scales: Vec<f64>, zps: Vec<i64>, axis: Option<i64>| {
        ElementType::Quant(Box::new(QuantType {
            storage: ElementType::int(8),
            storage_min: None,
            storage_max: None,
            expressed: F32,
            quantized_dimension: axis,
            scales,
            zero_points: zps,
        }))
    };
    let (b, a) = B::new(&[
        t(&[2], q(vec![0.5], vec![0], None)),
        t(&[2], q(vec![-1.0], vec![0], None)),
        t(&[2], q(vec![0.5], vec![300], None)),
        t(&[3], q(vec![0.5, 0.5], vec![0, 0], Some(0))),
    ]);
    let m = b.finish(&[a[0]]);
    assert_eq!(rules_of(&m), vec!["type.quant_scale", "type.quant_zero_point", "type.quant_axis_size"]);
    assert!(messages(&m)[0].contains("scale -1 must be positive and finite"));
}

/// The rules the text syntax cannot express (the parser rejects such input first) are proven here.
#[test]
fn rules_the_parser_preempts_fire_on_built_ir() {
    // value.redefined: an op result reuses an argument's id.
    let (mut b, a) = B::new(&[t(&[2], F32)]);
    let v = b.op1(OpKind::Negate, &[a[0]], t(&[2], F32), vec![]);
    let mut m = b.finish(&[v]);
    m.funcs[0].body.blocks[0].ops[0].results[0] = a[0];
    assert!(rules_of(&m).contains(&"value.redefined"), "{:?}", rules_of(&m));

    // type.dimension: a negative (non-dynamic) dimension size.
    let (b, a) = B::new(&[t(&[-3], F32)]);
    let m = b.finish(&[a[0]]);
    assert_eq!(rules_of(&m), vec!["type.dimension"]);

    // func.entry_args: the entry block's arguments disagree with the signature.
    let (b, a) = B::new(&[t(&[2], F32)]);
    let mut m = b.finish(&[a[0]]);
    m.funcs[0].ty.inputs = vec![t(&[3], F32)];
    assert_eq!(rules_of(&m), vec!["func.entry_args"]);
    assert!(messages(&m)[0].contains("entry block arguments (tensor<2xf32>) do not match the signature's inputs (tensor<3xf32>)"));

    // type.quant_param_count and type.quant_per_tensor.
    use crate::types::QuantType;
    let q = |scales: Vec<f64>, zps: Vec<i64>| {
        ElementType::Quant(Box::new(QuantType {
            storage: ElementType::int(8),
            storage_min: None,
            storage_max: None,
            expressed: F32,
            quantized_dimension: Some(0),
            scales,
            zero_points: zps,
        }))
    };
    let (b, a) = B::new(&[t(&[2], q(vec![0.5, 0.5], vec![0]))]);
    let m = b.finish(&[a[0]]);
    assert_eq!(rules_of(&m), vec!["type.quant_param_count"]);
    let mut per_tensor = q(vec![0.5, 0.25], vec![0, 0]);
    if let ElementType::Quant(qt) = &mut per_tensor {
        qt.quantized_dimension = None;
    }
    let (b, a) = B::new(&[t(&[2], per_tensor)]);
    let m = b.finish(&[a[0]]);
    assert_eq!(rules_of(&m), vec!["type.quant_per_tensor"]);
}

#[test]
fn storage_widths_out_of_range_do_not_panic() {
    use crate::types::{QuantType, Signedness};
    for bits in [0, 1, 65, 200] {
        let e = ElementType::Quant(Box::new(QuantType {
            storage: ElementType::Int { bits, signedness: Signedness::Signless },
            storage_min: None,
            storage_max: None,
            expressed: F32,
            quantized_dimension: None,
            scales: vec![1.0],
            zero_points: vec![0],
        }));
        let (b, a) = B::new(&[t(&[2], e)]);
        let m = b.finish(&[a[0]]);
        assert_eq!(rules_of(&m), vec!["type.quant_kinds"], "storage width {bits}");
    }
}

#[test]
fn huge_attribute_values_do_not_overflow() {
    let (mut b, a) = B::new(&[t(&[4, 4], F32)]);
    let big = i64::MAX;
    b.op1(OpKind::Slice, &[a[0]], t(&[1, 1], F32), vec![("start_indices", i64s(&[0, 0])), ("limit_indices", i64s(&[1, 1])), ("strides", i64s(&[big, big]))]);
    b.op1(OpKind::Pad, &[a[0], a[0]], t(&[4, 4], F32), vec![("edge_padding_low", i64s(&[big, big])), ("edge_padding_high", i64s(&[big, big])), ("interior_padding", i64s(&[big, big]))]);
    let z = b.op1(OpKind::Constant, &[], t(&[], F32), vec![("value", Attr::Dense(DenseElements::from_f64s(TensorType::new(vec![], F32), &[0.0]).unwrap()))]);
    let body = b.add_body(F32);
    b.op_r(
        OpKind::ReduceWindow,
        &[a[0], z],
        &[t(&[1, 1], F32)],
        vec![("window_dimensions", i64s(&[big, 1])), ("window_strides", i64s(&[big, big])), ("base_dilations", i64s(&[big, big])), ("window_dilations", i64s(&[big, big]))],
        vec![body],
    );
    b.op1(OpKind::AllGather, &[a[0]], t(&[4, 4], F32), vec![("all_gather_dim", Attr::Int(0, I32)), ("replica_groups", Attr::Array(vec![i64s(&[0, big])]))]);
    let m = b.finish(&[a[0]]);
    assert!(verify_module(&m).is_err());
}
