//! Differential tests of the native data-movement kernels (movement, gather/scatter, window, sort):
//! each case is a one-op StableHLO module run natively through `kernels::run_native` (which must
//! handle it) and on the reference interpreter (the oracle); results must match bit for bit (NaNs
//! compare equal to NaNs). Inputs are random over many shapes and attribute configurations, including
//! empty tensors, rank 0, out-of-range indices and NaN / signed zeros.

use oxhlo_cpu::kernels::{run_native, KernelCtx};
use oxhlo_cpu::{CpuOptions, CpuProgram, NTensor, Val};
use oxhlo_interp::{Data, RtValue, Tensor};
use oxhlo_ir::{ElementType, FloatType, OpKind, TensorType, Type};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn int(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % ((hi - lo + 1) as u64)) as i64
    }
    fn float(&mut self, specials: bool) -> f64 {
        if specials && self.next().is_multiple_of(6) {
            return [f64::NAN, -0.0, 0.0, f64::INFINITY, f64::NEG_INFINITY, -f64::NAN][(self.next() % 6) as usize];
        }
        // Quarter steps: plenty of ties for stability checks.
        self.int(-16, 16) as f64 / 4.0
    }
}

fn elem_of(name: &str) -> ElementType {
    match name {
        "i1" => ElementType::Bool,
        "f16" => ElementType::Float(FloatType::F16),
        "bf16" => ElementType::Float(FloatType::BF16),
        "f32" => ElementType::Float(FloatType::F32),
        "f64" => ElementType::Float(FloatType::F64),
        "complex<f32>" => ElementType::Complex(FloatType::F32),
        "complex<f64>" => ElementType::Complex(FloatType::F64),
        s if s.starts_with("ui") => ElementType::uint(s[2..].parse().unwrap()),
        s if s.starts_with('i') => ElementType::int(s[1..].parse().unwrap()),
        s => panic!("unknown element type {s}"),
    }
}

/// `tensor<3x4xf32>` text.
fn tt(shape: &[usize], elem: &str) -> String {
    let mut s = String::from("tensor<");
    for d in shape {
        s.push_str(&format!("{d}x"));
    }
    format!("{s}{elem}>")
}

/// A random tensor; integers in `[lo, hi]` (also used for index tensors).
fn rand_t(rng: &mut Rng, shape: &[usize], elem: &str, lo: i64, hi: i64, specials: bool) -> NTensor {
    let et = elem_of(elem);
    let n: usize = shape.iter().product();
    let data = match &et {
        ElementType::Bool => Data::Bool((0..n).map(|_| rng.next().is_multiple_of(2)).collect()),
        ElementType::Float(_) => Data::Float((0..n).map(|_| rng.float(specials)).collect()),
        ElementType::Complex(_) => Data::Complex((0..n).map(|_| (rng.float(false), rng.float(false))).collect()),
        e if e.is_unsigned_integer() => Data::UInt((0..n).map(|_| rng.int(lo.max(0), hi.max(0)) as u64).collect()),
        _ => Data::Int((0..n).map(|_| rng.int(lo, hi)).collect()),
    };
    let ty = TensorType::new(shape.iter().map(|&d| d as i64).collect(), et);
    NTensor::from_interp(&Tensor { ty, data }).expect("native kind")
}

fn same_data(a: &Data, b: &Data) -> bool {
    let f = |x: f64, y: f64| x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan());
    match (a, b) {
        (Data::Float(x), Data::Float(y)) => x.len() == y.len() && x.iter().zip(y).all(|(&p, &q)| f(p, q)),
        (Data::Complex(x), Data::Complex(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| f(p.0, q.0) && f(p.1, q.1)),
        _ => a == b,
    }
}

/// Runs the single op of `@main` natively and on the interpreter and compares the results.
fn case(src: &str, inputs: &[NTensor]) {
    let module = oxhlo_text::parse_module(src, "case.mlir").unwrap_or_else(|e| panic!("{e}\n{src}"));
    oxhlo_ir::verify_module(&module).unwrap_or_else(|e| panic!("{e}\n{src}"));
    let func = module.entry().expect("main");
    let block = func.body.entry().expect("body");
    let op = block.ops.iter().find(|o| !matches!(o.kind, OpKind::Return | OpKind::FuncReturn)).expect("an op");
    let args: Vec<&NTensor> = op
        .operands
        .iter()
        .map(|v| &inputs[block.args.iter().position(|a| a == v).expect("op operands are the arguments")])
        .collect();
    let result_types: Vec<&TensorType> = op
        .results
        .iter()
        .map(|v| match func.ty(*v) {
            Type::Tensor(t) => t,
            t => panic!("result type {t:?}"),
        })
        .collect();
    let want = oxhlo_interp::run_main(&module, inputs.iter().map(|t| RtValue::Tensor(t.to_interp())).collect())
        .unwrap_or_else(|e| panic!("interpreter failed: {e}\n{src}"));
    for threads in [1, 3] {
        let ctx = KernelCtx { op, func, result_types: result_types.clone(), threads };
        let got = run_native(&ctx, &args)
            .unwrap_or_else(|| panic!("no native kernel handled:\n{src}"))
            .unwrap_or_else(|e| panic!("native kernel failed: {e}\n{src}"));
        assert_eq!(got.len(), want.len(), "result count\n{src}");
        for (g, w) in got.iter().zip(&want) {
            let RtValue::Tensor(w) = w else { panic!("non-tensor result") };
            let g = g.to_interp();
            assert_eq!(g.ty.shape, w.ty.shape, "shape\n{src}");
            assert_eq!(g.ty.elem, w.ty.elem, "element type\n{src}");
            assert!(same_data(&g.data, &w.data), "values differ ({threads} threads)\nnative: {:?}\ninterp: {:?}\n{src}", g.data, w.data);
        }
    }
}

/// `func.func @main(args) -> results { body; return }` with `%r` the op's result(s).
fn module(args: &[String], body: &str, results: &[String]) -> String {
    let params: Vec<String> = args.iter().enumerate().map(|(i, t)| format!("%a{i}: {t}")).collect();
    let rets: Vec<String> = (0..results.len()).map(|i| if results.len() == 1 { "%r".to_string() } else { format!("%r#{i}") }).collect();
    format!(
        "func.func @main({}) -> ({}) {{\n  {body}\n  return {} : {}\n}}\n",
        params.join(", "),
        results.join(", "),
        rets.join(", "),
        results.join(", ")
    )
}

const KINDS: [&str; 14] =
    ["i1", "i8", "i16", "i32", "i64", "ui8", "ui16", "ui32", "ui64", "f16", "bf16", "f32", "f64", "complex<f32>"];

fn list(v: &[i64]) -> String {
    v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ")
}

/// `array<i64: ...>` text (`array<i64>` when empty).
fn arr(v: &[i64]) -> String {
    if v.is_empty() {
        "array<i64>".to_string()
    } else {
        format!("array<i64: {}>", list(v))
    }
}

fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![vec![]];
    }
    let mut out = Vec::new();
    for p in permutations(n - 1) {
        for i in 0..=p.len() {
            let mut q = p.clone();
            q.insert(i, n - 1);
            out.push(q);
        }
    }
    out
}

#[test]
fn transpose_matches_interpreter() {
    let mut rng = Rng(1);
    let shapes: &[&[usize]] = &[&[], &[5], &[3, 4], &[37, 65], &[2, 3, 4], &[4, 1, 5, 6], &[0, 3], &[6, 40, 33]];
    for (si, shape) in shapes.iter().enumerate() {
        for (pi, perm) in permutations(shape.len()).iter().enumerate() {
            let elem = KINDS[(si + pi) % KINDS.len()];
            let out: Vec<usize> = perm.iter().map(|&p| shape[p]).collect();
            let p: Vec<i64> = perm.iter().map(|&p| p as i64).collect();
            let body = format!(
                "%r = stablehlo.transpose %a0, dims = [{}] : ({}) -> {}",
                list(&p),
                tt(shape, elem),
                tt(&out, elem)
            );
            let src = module(&[tt(shape, elem)], &body, &[tt(&out, elem)]);
            case(&src, &[rand_t(&mut rng, shape, elem, -9, 9, true)]);
        }
    }
}

#[test]
fn broadcast_in_dim_matches_interpreter() {
    let mut rng = Rng(2);
    let cases: &[(&[usize], &[usize], &[i64])] = &[
        (&[], &[3, 4], &[]),
        (&[4], &[3, 4], &[1]),
        (&[3], &[3, 4], &[0]),
        (&[3, 1], &[3, 4], &[0, 1]),
        (&[2, 1, 3], &[2, 5, 3, 4], &[0, 1, 2]),
        (&[3, 2], &[2, 7, 3], &[2, 0]),
        (&[0], &[2, 0], &[1]),
        (&[1], &[6], &[0]),
        (&[], &[], &[]),
    ];
    for (i, (from, to, dims)) in cases.iter().enumerate() {
        for elem in [KINDS[i % KINDS.len()], "f32", "i64"] {
            let body = format!(
                "%r = stablehlo.broadcast_in_dim %a0, dims = [{}] : ({}) -> {}",
                list(dims),
                tt(from, elem),
                tt(to, elem)
            );
            let src = module(&[tt(from, elem)], &body, &[tt(to, elem)]);
            case(&src, &[rand_t(&mut rng, from, elem, -9, 9, true)]);
        }
    }
}

#[test]
fn slice_concat_pad_reverse_match_interpreter() {
    let mut rng = Rng(3);
    let shape = [7usize, 9, 5];
    for i in 0..24 {
        let elem = KINDS[i % KINDS.len()];
        let (mut start, mut limit, mut step, mut out) = (vec![], vec![], vec![], vec![]);
        for &n in &shape {
            let s = rng.int(0, n as i64);
            let l = rng.int(s, n as i64);
            let k = rng.int(1, 3);
            start.push(s);
            limit.push(l);
            step.push(k);
            out.push(((l - s + k - 1) / k) as usize);
        }
        let body = format!(
            "%r = \"stablehlo.slice\"(%a0) <{{start_indices = array<i64: {}>, limit_indices = array<i64: {}>, strides = array<i64: {}>}}> : ({}) -> {}",
            list(&start), list(&limit), list(&step), tt(&shape, elem), tt(&out, elem)
        );
        case(&module(&[tt(&shape, elem)], &body, &[tt(&out, elem)]), &[rand_t(&mut rng, &shape, elem, -9, 9, true)]);
        // reverse over a random subset of dimensions
        let dims: Vec<i64> = (0..3).filter(|_| rng.next().is_multiple_of(2)).collect();
        let body = format!("%r = stablehlo.reverse %a0, dims = [{}] : {}", list(&dims), tt(&shape, elem));
        case(&module(&[tt(&shape, elem)], &body, &[tt(&shape, elem)]), &[rand_t(&mut rng, &shape, elem, -9, 9, true)]);
    }
    // concatenate along each dimension, with an empty part
    for (i, d) in [0usize, 1, 2].iter().enumerate() {
        let elem = ["bf16", "i32", "complex<f64>"][i];
        let sizes = [3usize, 0, 2];
        let shapes: Vec<Vec<usize>> = sizes
            .iter()
            .map(|&s| {
                let mut sh = vec![2usize, 3, 4];
                sh[*d] = s;
                sh
            })
            .collect();
        let mut out = vec![2usize, 3, 4];
        out[*d] = 5;
        let tys: Vec<String> = shapes.iter().map(|s| tt(s, elem)).collect();
        let body = format!("%r = stablehlo.concatenate %a0, %a1, %a2, dim = {d} : ({}) -> {}", tys.join(", "), tt(&out, elem));
        let inputs: Vec<NTensor> = shapes.iter().map(|s| rand_t(&mut rng, s, elem, -9, 9, true)).collect();
        case(&module(&tys, &body, &[tt(&out, elem)]), &inputs);
    }
    // pad: negative edges, interior padding, empty operand, rank 0
    type Pad<'a> = (&'a [usize], &'a [i64], &'a [i64], &'a [i64]);
    let pads: &[Pad] = &[
        (&[3, 4], &[-1, 2], &[2, -1], &[1, 2]),
        (&[3, 4], &[0, 0], &[0, 0], &[0, 0]),
        (&[5], &[-2], &[-3], &[0]),
        (&[2, 3, 4], &[1, 0, -1], &[0, 2, 1], &[0, 1, 0]),
        (&[0, 3], &[1, 1], &[1, 0], &[2, 0]),
        (&[], &[], &[], &[]),
        (&[4, 6], &[-2, -3], &[1, 2], &[1, 1]),
    ];
    for (i, (shape, lo, hi, int)) in pads.iter().enumerate() {
        let elem = KINDS[(i * 3) % KINDS.len()];
        let out: Vec<usize> = (0..shape.len())
            .map(|d| {
                let n = shape[d] as i64;
                (lo[d] + hi[d] + n + (n - 1).max(0) * int[d]) as usize
            })
            .collect();
        let body = format!(
            "%r = stablehlo.pad %a0, %a1, low = [{}], high = [{}], interior = [{}] : ({}, {}) -> {}",
            list(lo), list(hi), list(int), tt(shape, elem), tt(&[], elem), tt(&out, elem)
        );
        let inputs = [rand_t(&mut rng, shape, elem, -9, 9, false), rand_t(&mut rng, &[], elem, -9, 9, false)];
        case(&module(&[tt(shape, elem), tt(&[], elem)], &body, &[tt(&out, elem)]), &inputs);
    }
}

#[test]
fn iota_and_dimension_size_match_interpreter() {
    for (i, elem) in KINDS.iter().chain(&["complex<f64>"]).filter(|e| **e != "i1").enumerate() {
        for (shape, dim) in [(vec![3usize, 4, 2], i % 3), (vec![300], 0), (vec![2, 0], 1), (vec![1], 0), (vec![70000], 0)] {
            let body = format!("%r = stablehlo.iota dim = {dim} : {}", tt(&shape, elem));
            case(&module(&[], &body, &[tt(&shape, elem)]), &[]);
        }
    }
    let mut rng = Rng(4);
    let body = format!("%r = stablehlo.get_dimension_size %a0, dim = 1 : ({}) -> {}", tt(&[3, 7], "f32"), tt(&[], "i32"));
    case(&module(&[tt(&[3, 7], "f32")], &body, &[tt(&[], "i32")]), &[rand_t(&mut rng, &[3, 7], "f32", 0, 0, false)]);
}

#[test]
fn bitcast_convert_matches_interpreter() {
    let mut rng = Rng(21);
    // (from shape, from type, to shape, to type): same width, narrower (a trailing byte dimension) and wider.
    let cases: [(&[usize], &str, &[usize], &str); 6] = [
        (&[3, 5], "f32", &[3, 5], "i32"),
        (&[7], "ui32", &[7], "f32"),
        (&[4], "f64", &[4], "ui64"),
        (&[2, 3], "f32", &[2, 3, 4], "ui8"),
        (&[5, 2], "ui16", &[5], "f32"),
        (&[6], "bf16", &[6], "i16"),
    ];
    for (fs, ft, ts, tty) in cases {
        let body = format!("%r = stablehlo.bitcast_convert %a0 : ({}) -> {}", tt(fs, ft), tt(ts, tty));
        let x = rand_t(&mut rng, fs, ft, -1000, 1000, true);
        case(&module(&[tt(fs, ft)], &body, &[tt(ts, tty)]), &[x]);
    }
}

#[test]
fn dynamic_slice_and_update_match_interpreter() {
    let mut rng = Rng(5);
    for i in 0..40 {
        let elem = KINDS[i % KINDS.len()];
        let idx = ["i32", "i64", "ui32", "i8"][i % 4];
        let shape = [6usize, 8, 3];
        let sizes: Vec<usize> = shape.iter().map(|&n| rng.int(0, n as i64) as usize).collect();
        let starts: Vec<NTensor> = (0..3).map(|_| rand_t(&mut rng, &[], idx, -4, 10, false)).collect();
        let mut tys = vec![tt(&shape, elem)];
        tys.extend((0..3).map(|_| tt(&[], idx)));
        let sz: Vec<i64> = sizes.iter().map(|&s| s as i64).collect();
        let body = format!(
            "%r = stablehlo.dynamic_slice %a0, %a1, %a2, %a3, sizes = [{}] : ({}) -> {}",
            list(&sz), tys.join(", "), tt(&sizes, elem)
        );
        let mut inputs = vec![rand_t(&mut rng, &shape, elem, -9, 9, true)];
        inputs.extend(starts.iter().cloned());
        case(&module(&tys, &body, &[tt(&sizes, elem)]), &inputs);
        // dynamic_update_slice with an update of `sizes`
        let mut tys = vec![tt(&shape, elem), tt(&sizes, elem)];
        tys.extend((0..3).map(|_| tt(&[], idx)));
        let body = format!("%r = stablehlo.dynamic_update_slice %a0, %a1, %a2, %a3, %a4 : ({}) -> {}", tys.join(", "), tt(&shape, elem));
        let mut inputs = vec![rand_t(&mut rng, &shape, elem, -9, 9, true), rand_t(&mut rng, &sizes, elem, -9, 9, true)];
        inputs.extend(starts);
        case(&module(&tys, &body, &[tt(&shape, elem)]), &inputs);
    }
    // rank 0
    let body = format!("%r = stablehlo.dynamic_slice %a0, sizes = [] : ({}) -> {}", tt(&[], "f32"), tt(&[], "f32"));
    case(&module(&[tt(&[], "f32")], &body, &[tt(&[], "f32")]), &[rand_t(&mut rng, &[], "f32", 0, 0, false)]);
}

/// `#stablehlo.gather<...>` text.
fn gather_dims(offset: &[i64], collapsed: &[i64], obatch: &[i64], ibatch: &[i64], smap: &[i64], ivd: i64) -> String {
    format!(
        "#stablehlo.gather<offset_dims = [{}], collapsed_slice_dims = [{}], operand_batching_dims = [{}], start_indices_batching_dims = [{}], start_index_map = [{}], index_vector_dim = {ivd}>",
        list(offset), list(collapsed), list(obatch), list(ibatch), list(smap)
    )
}

struct GatherCase {
    operand: Vec<usize>,
    indices: Vec<usize>,
    dims: String,
    sizes: Vec<i64>,
    out: Vec<usize>,
    hi: i64,
}

fn gather_cases() -> Vec<GatherCase> {
    let g = |operand: &[usize], indices: &[usize], dims: String, sizes: &[i64], out: &[usize], hi: i64| GatherCase {
        operand: operand.to_vec(),
        indices: indices.to_vec(),
        dims,
        sizes: sizes.to_vec(),
        out: out.to_vec(),
        hi,
    };
    vec![
        // embedding lookup: rows of a [10, 4] table, index vectors of one component
        g(&[10, 4], &[5, 1], gather_dims(&[1], &[0], &[], &[], &[0], 1), &[1, 4], &[5, 4], 12),
        // the same with index_vector_dim = rank (implicit trailing 1) and a 2-D index batch
        g(&[10, 4], &[2, 3], gather_dims(&[2], &[0], &[], &[], &[0], 2), &[1, 4], &[2, 3, 4], 12),
        // point gather of 2-D coordinates
        g(&[3, 4], &[3, 2], gather_dims(&[], &[0, 1], &[], &[], &[0, 1], 1), &[1, 1], &[3], 5),
        // windows with offset dims before the batch dim (interleaved)
        g(&[2, 5, 3], &[2, 1], gather_dims(&[0, 2, 3], &[], &[], &[], &[1], 1), &[2, 2, 3], &[2, 2, 2, 3], 6),
        // take_along_axis: batching dims
        g(&[3, 5], &[3, 4, 1], gather_dims(&[], &[1], &[0], &[0], &[1], 2), &[1, 1], &[3, 4], 6),
        // batched embedding: batching dim 0, window along the last dim
        g(&[2, 6, 3], &[2, 4, 1], gather_dims(&[2], &[1], &[0], &[0], &[1], 2), &[1, 1, 3], &[2, 4, 3], 7),
        // empty indices
        g(&[10, 4], &[0, 1], gather_dims(&[1], &[0], &[], &[], &[0], 1), &[1, 4], &[0, 4], 9),
        // non-collapsed size-1 dims and a partial window
        g(&[6, 7], &[4, 2], gather_dims(&[1, 2], &[], &[], &[], &[1, 0], 1), &[2, 3], &[4, 2, 3], 8),
    ]
}

#[test]
fn gather_matches_interpreter() {
    let mut rng = Rng(6);
    for (i, c) in gather_cases().iter().enumerate() {
        for (j, idx) in ["i32", "i64", "ui32", "ui8"].iter().enumerate() {
            let elem = KINDS[(i * 4 + j) % KINDS.len()];
            let body = format!(
                "%r = \"stablehlo.gather\"(%a0, %a1) <{{dimension_numbers = {}, indices_are_sorted = false, slice_sizes = array<i64: {}>}}> : ({}, {}) -> {}",
                c.dims, list(&c.sizes), tt(&c.operand, elem), tt(&c.indices, idx), tt(&c.out, elem)
            );
            let inputs = [rand_t(&mut rng, &c.operand, elem, -9, 9, true), rand_t(&mut rng, &c.indices, idx, -3, c.hi, false)];
            case(&module(&[tt(&c.operand, elem), tt(&c.indices, idx)], &body, &[tt(&c.out, elem)]), &inputs);
        }
    }
}

/// A binary region body over scalars of `elem`.
fn binary_region(elem: &str, body: &str) -> String {
    let t = tt(&[], elem);
    let ret = match body {
        "lhs" => "%x".to_string(),
        "rhs" => "%y".to_string(),
        _ => "%s".to_string(),
    };
    let op = match body {
        "lhs" | "rhs" => String::new(),
        "add_swapped" => format!("%s = stablehlo.add %y, %x : {t}\n    "),
        "max_swapped" => format!("%s = stablehlo.maximum %y, %x : {t}\n    "),
        b => format!("%s = stablehlo.{b} %x, %y : {t}\n    "),
    };
    format!("({{\n  ^bb0(%x: {t}, %y: {t}):\n    {op}stablehlo.return {ret} : {t}\n  }})")
}

#[test]
fn scatter_matches_interpreter() {
    let mut rng = Rng(7);
    let s = |uwin: &[i64], inserted: &[i64], ib: &[i64], sb: &[i64], smap: &[i64], ivd: i64| {
        format!(
            "#stablehlo.scatter<update_window_dims = [{}], inserted_window_dims = [{}], input_batching_dims = [{}], scatter_indices_batching_dims = [{}], scatter_dims_to_operand_dims = [{}], index_vector_dim = {ivd}>",
            list(uwin), list(inserted), list(ib), list(sb), list(smap)
        )
    };
    // (input, indices, updates, dims, index range)
    type Case = (Vec<usize>, Vec<usize>, Vec<usize>, String, i64);
    let cases: Vec<Case> = vec![
        // embedding gradient: rows added at (duplicated, out-of-range) indices
        (vec![6, 4], vec![9, 1], vec![9, 4], s(&[1], &[0], &[], &[], &[0], 1), 7),
        // scalar updates at 2-D points
        (vec![4, 5], vec![7, 2], vec![7], s(&[], &[0, 1], &[], &[], &[0, 1], 1), 5),
        // windows straddling the edge (elementwise skip)
        (vec![5, 6], vec![3, 2], vec![3, 2, 3], s(&[1, 2], &[], &[], &[], &[0, 1], 1), 6),
        // update scatter dims after the window dims (general path)
        (vec![6, 4], vec![5], vec![4, 5], s(&[0], &[0], &[], &[], &[0], 1), 6),
        // batching dims (the gradient of take_along_axis)
        (vec![3, 5], vec![3, 4, 1], vec![3, 4], s(&[], &[1], &[0], &[0], &[1], 2), 6),
        // empty updates
        (vec![6, 4], vec![0, 1], vec![0, 4], s(&[1], &[0], &[], &[], &[0], 1), 5),
        // window along a non-last input dim
        (vec![5, 3], vec![4, 1], vec![4, 5], s(&[1], &[1], &[], &[], &[1], 1), 3),
    ];
    let bodies = ["add", "rhs", "lhs", "multiply", "maximum", "minimum", "add_swapped", "max_swapped"];
    for (i, (input, indices, updates, dims, hi)) in cases.iter().enumerate() {
        for (j, body) in bodies.iter().enumerate() {
            let mut elem = KINDS[(i * 8 + j) % KINDS.len()];
            if elem.starts_with("complex") && (body.contains("max") || body.contains("min")) {
                elem = "f64";
            }
            let idx = ["i32", "i64", "ui16"][j % 3];
            let src = module(
                &[tt(input, elem), tt(indices, idx), tt(updates, elem)],
                &format!(
                    "%r = \"stablehlo.scatter\"(%a0, %a1, %a2) <{{indices_are_sorted = false, scatter_dimension_numbers = {dims}, unique_indices = false}}> {} : ({}, {}, {}) -> {}",
                    binary_region(elem, body), tt(input, elem), tt(indices, idx), tt(updates, elem), tt(input, elem)
                ),
                &[tt(input, elem)],
            );
            let inputs = [
                rand_t(&mut rng, input, elem, -9, 9, true),
                rand_t(&mut rng, indices, idx, -2, *hi, false),
                rand_t(&mut rng, updates, elem, -9, 9, true),
            ];
            case(&src, &inputs);
        }
    }
}

#[test]
fn reduce_window_matches_interpreter() {
    let mut rng = Rng(8);
    // (shape, window, strides, base dilations, window dilations, padding pairs)
    type W = (Vec<usize>, Vec<i64>, Vec<i64>, Vec<i64>, Vec<i64>, Vec<i64>);
    let cases: Vec<W> = vec![
        // NHWC 3x3 stride 2 pad 1 max pool (the row path)
        (vec![2, 7, 7, 3], vec![1, 3, 3, 1], vec![1, 2, 2, 1], vec![1; 4], vec![1; 4], vec![0, 0, 1, 1, 1, 1, 0, 0]),
        // NCHW 2x2 average pool
        (vec![1, 2, 6, 5], vec![1, 1, 2, 2], vec![1, 1, 2, 2], vec![1; 4], vec![1; 4], vec![0; 8]),
        // base and window dilations with padding on a 1-D input
        (vec![9], vec![3], vec![2], vec![2], vec![2], vec![2, 1]),
        // negative padding and a 2-D window
        (vec![6, 5], vec![2, 3], vec![1, 2], vec![1, 1], vec![1, 2], vec![-1, 2, 1, 0]),
        // rank 0
        (vec![], vec![], vec![], vec![], vec![], vec![]),
        // large enough to be split over threads (row path and general path)
        (vec![2, 34, 34, 16], vec![1, 3, 3, 1], vec![1, 1, 1, 1], vec![1; 4], vec![1; 4], vec![0, 0, 1, 1, 1, 1, 0, 0]),
        (vec![2, 16, 34, 34], vec![1, 1, 3, 3], vec![1, 1, 1, 1], vec![1; 4], vec![1; 4], vec![0, 0, 0, 0, 1, 1, 1, 1]),
        // empty output
        (vec![2, 3], vec![3, 1], vec![1, 1], vec![1, 1], vec![1, 1], vec![0, 0, 0, 0]),
    ];
    for (i, (shape, win, st, bd, wd, pad)) in cases.iter().enumerate() {
        for (j, body) in ["add", "maximum", "minimum", "multiply", "max_swapped"].iter().enumerate() {
            let elem = ["f32", "f64", "bf16", "i32", "f16", "ui8"][(i + j) % 6];
            let rank = shape.len();
            let out: Vec<usize> = (0..rank)
                .map(|d| {
                    let n = shape[d] as i64;
                    let dil = if n == 0 { 0 } else { (n - 1) * bd[d] + 1 };
                    let padded = dil + pad[2 * d] + pad[2 * d + 1];
                    let dw = (win[d] - 1) * wd[d] + 1;
                    if padded < dw { 0 } else { ((padded - dw) / st[d] + 1) as usize }
                })
                .collect();
            let padding = if rank == 0 {
                "dense<> : tensor<0x2xi64>".to_string()
            } else {
                let rows: Vec<String> = (0..rank).map(|d| format!("[{}, {}]", pad[2 * d], pad[2 * d + 1])).collect();
                format!("dense<[{}]> : tensor<{rank}x2xi64>", rows.join(", "))
            };
            let src = module(
                &[tt(shape, elem), tt(&[], elem)],
                &format!(
                    "%r = \"stablehlo.reduce_window\"(%a0, %a1) <{{window_dimensions = {}, window_strides = {}, base_dilations = {}, window_dilations = {}, padding = {padding}}}> {} : ({}, {}) -> {}",
                    arr(win), arr(st), arr(bd), arr(wd), binary_region(elem, body), tt(shape, elem), tt(&[], elem), tt(&out, elem)
                ),
                &[tt(&out, elem)],
            );
            let inputs = [rand_t(&mut rng, shape, elem, 0, 9, true), rand_t(&mut rng, &[], elem, 0, 3, false)];
            case(&src, &inputs);
        }
    }
}

/// A comparator region over `n` operands of the given element types comparing the first two arguments.
fn comparator(elems: &[&str], dir: &str, ty: &str, swapped: bool) -> String {
    let mut params = Vec::new();
    for (k, e) in elems.iter().enumerate() {
        params.push(format!("%p{}: {}", 2 * k, tt(&[], e)));
        params.push(format!("%p{}: {}", 2 * k + 1, tt(&[], e)));
    }
    let (x, y) = if swapped { ("%p1", "%p0") } else { ("%p0", "%p1") };
    let ty = if ty.is_empty() { String::new() } else { format!(", {ty}") };
    format!(
        "({{\n  ^bb0({}):\n    %c = stablehlo.compare {dir}, {x}, {y}{ty} : ({t}, {t}) -> tensor<i1>\n    stablehlo.return %c : tensor<i1>\n  }})",
        params.join(", "),
        t = tt(&[], elems[0])
    )
}

/// A region text without its surrounding parentheses.
fn inner(region: &str) -> &str {
    &region[1..region.len() - 1]
}

#[test]
fn select_and_scatter_matches_interpreter() {
    let mut rng = Rng(9);
    for (i, elem) in ["f32", "f64", "i32", "bf16"].iter().enumerate() {
        for dir in ["GE", "GT", "LE"] {
            // The large shape is split over threads along the batch dimension.
            let (shape, out) = if dir == "GT" { ([4usize, 34, 34, 8], [4usize, 17, 17, 8]) } else { ([2usize, 6, 7, 3], [2usize, 3, 4, 3]) };
            let ty = if elem.starts_with('i') { "SIGNED" } else { "FLOAT" };
            let src = module(
                &[tt(&shape, elem), tt(&out, elem), tt(&[], elem)],
                &format!(
                    "%r = \"stablehlo.select_and_scatter\"(%a0, %a1, %a2) <{{window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>, padding = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>}}> ({}, {}) : ({}, {}, {}) -> {}",
                    inner(&comparator(&[elem], dir, ty, i % 2 == 1)), inner(&binary_region(elem, "add")), tt(&shape, elem), tt(&out, elem), tt(&[], elem), tt(&shape, elem)
                ),
                &[tt(&shape, elem)],
            );
            let inputs = [
                rand_t(&mut rng, &shape, elem, -3, 3, true),
                rand_t(&mut rng, &out, elem, -9, 9, false),
                rand_t(&mut rng, &[], elem, 0, 0, false),
            ];
            case(&src, &inputs);
        }
    }
}

#[test]
fn sort_matches_interpreter() {
    let mut rng = Rng(10);
    let shapes: &[&[usize]] = &[&[9], &[4, 6], &[3, 5, 4], &[0, 3], &[33]];
    for (i, shape) in shapes.iter().enumerate() {
        for (j, (elem, ty)) in [("f32", "FLOAT"), ("f32", "TOTALORDER"), ("f64", ""), ("bf16", "TOTALORDER"), ("i32", "SIGNED"), ("i8", "SIGNED"), ("ui16", ""), ("i1", ""), ("f16", "WEAKORDER")].iter().enumerate() {
            for dir in ["LT", "GT", "LE"] {
                let rank = shape.len() as i64;
                let dim = if rank == 0 { 0 } else { (i as i64 + j as i64) % rank - if j % 2 == 0 { 0 } else { rank } };
                let two = j % 3 == 0;
                let elems: Vec<&str> = if two { vec![elem, "i32"] } else { vec![elem] };
                let tys: Vec<String> = elems.iter().map(|e| tt(shape, e)).collect();
                let body = format!(
                    "%r{} = \"stablehlo.sort\"({}) <{{dimension = {dim} : i64, is_stable = true}}> {} : ({}) -> ({})",
                    if two { ":2" } else { "" },
                    if two { "%a0, %a1" } else { "%a0" },
                    comparator(&elems, dir, ty, dir == "LE"),
                    tys.join(", "),
                    tys.join(", ")
                );
                let inputs: Vec<NTensor> = elems.iter().map(|e| rand_t(&mut rng, shape, e, -4, 4, true)).collect();
                case(&module(&tys, &body, &tys), &inputs);
            }
        }
    }
}

#[test]
fn jax_float_sort_comparator_matches_interpreter() {
    let mut rng = Rng(11);
    for elem in ["f32", "f64", "bf16"] {
        let t = tt(&[], elem);
        let shape = [5usize, 17];
        let ct = tt(&shape, elem);
        let it = tt(&shape, "i32");
        let nan = match elem {
            "f32" => "0x7FC00000",
            "bf16" => "0x7FC0",
            _ => "0x7FF8000000000000",
        };
        let mut b = String::new();
        for (a, n) in [("%p0", "0"), ("%p1", "1")] {
            b.push_str(&format!(
                "%z{n} = stablehlo.constant dense<0.0> : {t}\n    %e{n} = stablehlo.compare EQ, {a}, %z{n}, FLOAT : ({t}, {t}) -> tensor<i1>\n    %s{n} = stablehlo.select %e{n}, %z{n}, {a} : tensor<i1>, {t}\n    %q{n} = stablehlo.compare NE, {a}, {a}, FLOAT : ({t}, {t}) -> tensor<i1>\n    %n{n} = stablehlo.constant dense<{nan}> : {t}\n    %c{n} = stablehlo.select %q{n}, %n{n}, %s{n} : tensor<i1>, {t}\n    "
            ));
        }
        let region = format!(
            "({{\n  ^bb0(%p0: {t}, %p1: {t}, %p2: tensor<i32>, %p3: tensor<i32>):\n    {b}%r0 = stablehlo.compare LT, %c0, %c1, TOTALORDER : ({t}, {t}) -> tensor<i1>\n    stablehlo.return %r0 : tensor<i1>\n  }})"
        );
        let body = format!("%r:2 = \"stablehlo.sort\"(%a0, %a1) <{{dimension = 1 : i64, is_stable = true}}> {region} : ({ct}, {it}) -> ({ct}, {it})");
        let inputs = [rand_t(&mut rng, &shape, elem, 0, 0, true), rand_t(&mut rng, &shape, "i32", -99, 99, false)];
        case(&module(&[ct.clone(), it.clone()], &body, &[ct, it]), &inputs);
    }
}

#[test]
fn top_k_matches_interpreter() {
    let mut rng = Rng(12);
    for elem in ["f32", "bf16", "i32", "ui8", "f64"] {
        for (shape, k) in [(vec![3usize, 10], 4usize), (vec![7], 7), (vec![2, 5], 0), (vec![2, 3, 40], 5)] {
            let mut out = shape.clone();
            *out.last_mut().unwrap() = k;
            let it = "i32";
            let body = format!("%r:2 = chlo.top_k(%a0, k = {k}) : {} -> ({}, {})", tt(&shape, elem), tt(&out, elem), tt(&out, it));
            case(&module(&[tt(&shape, elem)], &body, &[tt(&out, elem), tt(&out, it)]), &[rand_t(&mut rng, &shape, elem, -5, 5, true)]);
        }
    }
}

#[test]
fn executor_runs_movement_ops_natively() {
    // A small program through the executor (reshape, transpose, gather, scatter-add), against the interpreter.
    let src = "func.func @main(%t: tensor<6x4xf32>, %i: tensor<5x1xi32>) -> tensor<6x4xf32> {
  %g = \"stablehlo.gather\"(%t, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>}> : (tensor<6x4xf32>, tensor<5x1xi32>) -> tensor<5x4xf32>
  %z = stablehlo.constant dense<0.0> : tensor<6x4xf32>
  %s = \"stablehlo.scatter\"(%z, %i, %g) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %a = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %a : tensor<f32>
  }) : (tensor<6x4xf32>, tensor<5x1xi32>, tensor<5x4xf32>) -> tensor<6x4xf32>
  %tr = stablehlo.transpose %s, dims = [1, 0] : (tensor<6x4xf32>) -> tensor<4x6xf32>
  %r = stablehlo.reshape %tr : (tensor<4x6xf32>) -> tensor<6x4xf32>
  return %r : tensor<6x4xf32>
}";
    let module = oxhlo_text::parse_module(src, "prog.mlir").unwrap();
    let mut rng = Rng(13);
    let inputs = [rand_t(&mut rng, &[6, 4], "f32", 0, 0, false), rand_t(&mut rng, &[5, 1], "i32", -1, 7, false)];
    let want = oxhlo_interp::run_main(&module, inputs.iter().map(|t| RtValue::Tensor(t.to_interp())).collect()).unwrap();
    let prog = CpuProgram::compile(module, &CpuOptions::default()).unwrap();
    let got = prog.run(inputs.iter().cloned().map(Val::Native).collect()).unwrap();
    let (Val::Native(g), RtValue::Tensor(w)) = (&got[0], &want[0]) else { panic!("non-native result") };
    assert!(same_data(&g.to_interp().data, &w.data));
}

fn i64s(v: &[i64]) -> NTensor {
    let t = Tensor { ty: TensorType::new(vec![v.len() as i64], ElementType::int(64)), data: Data::Int(v.to_vec()) };
    NTensor::from_interp(&t).expect("native")
}

#[test]
fn dynamic_shape_forms_match_interpreter() {
    let mut rng = Rng(14);
    let x = rand_t(&mut rng, &[3], "f32", 0, 0, true);
    let src = module(
        &[tt(&[3], "f32"), tt(&[2], "i64")],
        "%r = \"stablehlo.dynamic_broadcast_in_dim\"(%a0, %a1) {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>, tensor<2xi64>) -> tensor<4x3xf32>",
        &[tt(&[4, 3], "f32")],
    );
    case(&src, &[x, i64s(&[4, 3])]);
    let src = module(&[tt(&[2], "i64")], "%r = \"stablehlo.dynamic_iota\"(%a0) {iota_dimension = 1 : i64} : (tensor<2xi64>) -> tensor<3x5xbf16>", &[tt(&[3, 5], "bf16")]);
    case(&src, &[i64s(&[3, 5])]);
    let x = rand_t(&mut rng, &[2, 6], "i32", -9, 9, false);
    let src = module(
        &[tt(&[2, 6], "i32"), tt(&[3], "i64")],
        "%r = \"stablehlo.dynamic_reshape\"(%a0, %a1) : (tensor<2x6xi32>, tensor<3xi64>) -> tensor<3x2x2xi32>",
        &[tt(&[3, 2, 2], "i32")],
    );
    case(&src, &[x, i64s(&[3, 2, 2])]);
    let x = rand_t(&mut rng, &[5, 6], "f64", 0, 0, true);
    let src = module(
        &[tt(&[5, 6], "f64"), tt(&[2], "i64"), tt(&[2], "i64"), tt(&[2], "i64")],
        "%r = \"stablehlo.real_dynamic_slice\"(%a0, %a1, %a2, %a3) : (tensor<5x6xf64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<2x2xf64>",
        &[tt(&[2, 2], "f64")],
    );
    case(&src, &[x, i64s(&[1, 0]), i64s(&[5, 4]), i64s(&[2, 3])]);
    let x = rand_t(&mut rng, &[2, 3], "i64", -9, 9, false);
    let pv = rand_t(&mut rng, &[], "i64", -9, 9, false);
    let src = module(
        &[tt(&[2, 3], "i64"), tt(&[], "i64"), tt(&[2], "i64"), tt(&[2], "i64"), tt(&[2], "i64")],
        "%r = \"stablehlo.dynamic_pad\"(%a0, %a1, %a2, %a3, %a4) : (tensor<2x3xi64>, tensor<i64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<4x5xi64>",
        &[tt(&[4, 5], "i64")],
    );
    case(&src, &[x, pv, i64s(&[1, -1]), i64s(&[0, 1]), i64s(&[1, 1])]);
    let x = rand_t(&mut rng, &[3, 4], "i32", -9, 9, false);
    let src = module(
        &[tt(&[3, 4], "i32"), tt(&[2, 1], "i32"), tt(&[2], "i64")],
        "%r = \"stablehlo.dynamic_gather\"(%a0, %a1, %a2) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>} : (tensor<3x4xi32>, tensor<2x1xi32>, tensor<2xi64>) -> tensor<2x2xi32>",
        &[tt(&[2, 2], "i32")],
    );
    case(&src, &[x, rand_t(&mut rng, &[2, 1], "i32", -1, 4, false), i64s(&[1, 2])]);
}

#[test]
fn large_sorts_split_over_threads_match_interpreter() {
    let mut rng = Rng(15);
    let shape = [40usize, 500];
    for (elem, ty, dim) in [("f32", "TOTALORDER", 1), ("f32", "FLOAT", 1), ("i32", "SIGNED", 0)] {
        let tys = vec![tt(&shape, elem), tt(&shape, "i32")];
        let body = format!(
            "%r:2 = \"stablehlo.sort\"(%a0, %a1) <{{dimension = {dim} : i64, is_stable = true}}> {} : ({}) -> ({})",
            comparator(&[elem, "i32"], "LT", ty, false),
            tys.join(", "),
            tys.join(", ")
        );
        let inputs = [rand_t(&mut rng, &shape, elem, -50, 50, true), rand_t(&mut rng, &shape, "i32", -99, 99, false)];
        case(&module(&tys, &body, &tys), &inputs);
    }
}

/// Runs the single op of `@main` natively without verifying the module first; returns whether a native
/// kernel produced results (None: fallback). Used to show that odd attributes never panic.
fn native_only(src: &str, inputs: &[NTensor]) -> Option<Result<Vec<NTensor>, String>> {
    let module = oxhlo_text::parse_module(src, "odd.mlir").unwrap_or_else(|e| panic!("{e}\n{src}"));
    let func = module.entry().expect("main");
    let block = func.body.entry().expect("body");
    let op = block.ops.iter().find(|o| !matches!(o.kind, OpKind::Return | OpKind::FuncReturn)).expect("an op");
    let args: Vec<&NTensor> = op.operands.iter().map(|v| &inputs[block.args.iter().position(|a| a == v).unwrap()]).collect();
    let result_types: Vec<&TensorType> = op
        .results
        .iter()
        .map(|v| match func.ty(*v) {
            Type::Tensor(t) => t,
            t => panic!("result type {t:?}"),
        })
        .collect();
    run_native(&KernelCtx { op, func, result_types, threads: 2 }, &args)
}

#[test]
fn extreme_indices_and_attributes_never_panic() {
    let mut rng = Rng(16);
    // Scatter at the ends of the i64 range: every update is out of bounds and skipped.
    let x = rand_t(&mut rng, &[4, 3], "f32", 0, 0, false);
    let idx = NTensor::from_interp(&Tensor {
        ty: TensorType::new(vec![3, 1], ElementType::int(64)),
        data: Data::Int(vec![i64::MAX, i64::MIN, i64::MAX - 1]),
    })
    .unwrap();
    let upd = rand_t(&mut rng, &[3, 3], "f32", 0, 0, false);
    let src = module(
        &[tt(&[4, 3], "f32"), tt(&[3, 1], "i64"), tt(&[3, 3], "f32")],
        &format!(
            "%r = \"stablehlo.scatter\"(%a0, %a1, %a2) <{{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}}> {} : (tensor<4x3xf32>, tensor<3x1xi64>, tensor<3x3xf32>) -> tensor<4x3xf32>",
            binary_region("f32", "add")
        ),
        &[tt(&[4, 3], "f32")],
    );
    let got = native_only(&src, &[x.clone(), idx.clone(), upd]).expect("native").expect("runs");
    assert_eq!(got[0].buf, x.buf, "out-of-bounds updates must be skipped");
    // Gather clamps the same indices into range (compared with the interpreter).
    let src = module(
        &[tt(&[4, 3], "f32"), tt(&[3, 1], "i64")],
        "%r = \"stablehlo.gather\"(%a0, %a1) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>}> : (tensor<4x3xf32>, tensor<3x1xi64>) -> tensor<3x3xf32>",
        &[tt(&[3, 3], "f32")],
    );
    case(&src, &[x.clone(), idx]);
    // Unverified programs with absurd attributes: any outcome but a panic.
    let odd = [
        "%r = stablehlo.pad %a0, %a1, low = [0, 0], high = [0, 0], interior = [9223372036854775807, 0] : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xf32>",
        "%r = stablehlo.pad %a0, %a1, low = [-9223372036854775807, 0], high = [9223372036854775807, 0] , interior = [0, 0] : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xf32>",
        "%r = \"stablehlo.slice\"(%a0) <{start_indices = array<i64: 0, 0>, limit_indices = array<i64: 4, 3>, strides = array<i64: 9223372036854775807, 1>}> : (tensor<4x3xf32>) -> tensor<1x3xf32>",
        "%r = stablehlo.transpose %a0, dims = [0, 0] : (tensor<4x3xf32>) -> tensor<4x4xf32>",
        "%r = stablehlo.broadcast_in_dim %a0, dims = [0, 0] : (tensor<4x3xf32>) -> tensor<4x3xf32>",
    ];
    let pv = rand_t(&mut rng, &[], "f32", 0, 0, false);
    for body in odd {
        let res_ty = body.rsplit("-> ").next().unwrap().to_string();
        let src = module(&[tt(&[4, 3], "f32"), tt(&[], "f32")], body, &[res_ty]);
        let _ = native_only(&src, &[x.clone(), pv.clone()]);
    }
}

/// Iotas big enough to be written by several threads (at least 2^20 elements) hold each element's index
/// along the iota dimension, for every dimension and a few element types; the parts' boundaries fall
/// inside rows.
#[test]
fn big_iotas_hold_their_indices() {
    let shape = [3i64, 701, 503];
    for (elem, dims) in [("ui32", [0, 1, 2]), ("i64", [0, 1, 2]), ("f32", [0, 1, 2])] {
        for d in dims {
            let src = format!("func.func @main() -> tensor<3x701x503x{elem}> {{\n  %r = stablehlo.iota dim = {d} : tensor<3x701x503x{elem}>\n  return %r : tensor<3x701x503x{elem}>\n}}");
            let module = oxhlo_text::parse_module(&src, "iota.mlir").unwrap();
            let prog = CpuProgram::compile(module, &CpuOptions { threads: 2, ..CpuOptions::default() }).unwrap();
            let got = prog.run(Vec::new()).unwrap();
            let Val::Native(g) = &got[0] else { panic!("non-native result") };
            let values: Vec<f64> = match &g.to_interp().data {
                Data::Int(v) => v.iter().map(|&x| x as f64).collect(),
                Data::UInt(v) => v.iter().map(|&x| x as f64).collect(),
                Data::Float(v) => v.clone(),
                other => panic!("{other:?}"),
            };
            let inner: i64 = shape[d + 1..].iter().product();
            assert_eq!(values.len() as i64, shape.iter().product::<i64>());
            for (i, &v) in values.iter().enumerate() {
                let want = ((i as i64 / inner) % shape[d]) as f64;
                assert_eq!(v, want, "{elem} iota dim {d}, element {i}");
            }
        }
    }
}
