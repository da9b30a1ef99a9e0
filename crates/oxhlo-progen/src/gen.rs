//! The generator proper: a pool of typed SSA values, op emitters that pick operands from it (or make
//! constants of the needed type), and the text of `@main` with its random inputs.

mod control;

use crate::rng::Rng;
use crate::GenOptions;
use oxhlo_interp::{Data, RtValue, Tensor};
use oxhlo_ir::{ElementType, TensorType};

#[derive(Clone, Copy, Debug, PartialEq)]
enum E {
    F32,
    F64,
    I32,
    Bool,
}

impl E {
    fn name(self) -> &'static str {
        match self {
            E::F32 => "f32",
            E::F64 => "f64",
            E::I32 => "i32",
            E::Bool => "i1",
        }
    }
    fn is_float(self) -> bool {
        matches!(self, E::F32 | E::F64)
    }
}

#[derive(Clone, Debug, PartialEq)]
struct Ty {
    shape: Vec<i64>,
    e: E,
}

impl Ty {
    fn new(shape: Vec<i64>, e: E) -> Ty {
        Ty { shape, e }
    }
    fn s(&self) -> String {
        let mut s = String::from("tensor<");
        for d in &self.shape {
            s.push_str(&format!("{d}x"));
        }
        s.push_str(self.e.name());
        s.push('>');
        s
    }
    fn n(&self) -> i64 {
        self.shape.iter().product()
    }
    fn rank(&self) -> usize {
        self.shape.len()
    }
}

#[derive(Clone, Debug)]
struct Val {
    name: String,
    ty: Ty,
    /// computed from constants only (the constant folder will fold it)
    konst: bool,
}

/// A generated program: `@main` in MLIR text and inputs for it.
pub struct Program {
    pub text: String,
    pub inputs: Vec<RtValue>,
}

struct Gen<'o> {
    rng: Rng,
    opts: &'o GenOptions,
    lines: Vec<String>,
    indent: usize,
    pool: Vec<Val>,
    /// right-hand sides of pure region-free top-level ops, re-emitted to exercise CSE
    repeatable: Vec<(String, Ty)>,
    next: usize,
    /// private functions `@main` calls (text)
    funcs: Vec<String>,
}

const F_UNARY: &[&str] = &[
    "negate", "abs", "exponential", "log", "sqrt", "tanh", "sine", "cosine", "floor", "ceil", "sign", "logistic",
    "rsqrt", "round_nearest_even", "cbrt", "exponential_minus_one", "log_plus_one",
];
const I_UNARY: &[&str] = &["negate", "abs", "not", "popcnt", "count_leading_zeros", "sign"];
const F_BINARY: &[&str] = &["add", "subtract", "multiply", "divide", "maximum", "minimum", "power", "remainder", "atan2"];
const I_BINARY: &[&str] = &[
    "add", "subtract", "multiply", "divide", "remainder", "maximum", "minimum", "and", "or", "xor", "shift_left",
    "shift_right_arithmetic", "shift_right_logical",
];
const B_BINARY: &[&str] = &["and", "or", "xor"];
const FLOATS: &[f64] = &[0.0, -0.0, 1.0, -1.0, 0.5, 2.0, -2.5, 3.0, 0.25, 10.0, -7.0, 0.001, 1.5, -0.75, 100.0];

/// Emits the program of `seed`.
pub fn emit_program(seed: u64, opts: &GenOptions) -> Program {
    let mut g = Gen { rng: Rng::new(seed), opts, lines: Vec::new(), indent: 1, pool: Vec::new(), repeatable: Vec::new(), next: 0, funcs: Vec::new() };
    let n_params = 1 + g.rng.below(3);
    let mut params = Vec::new();
    let mut inputs = Vec::new();
    for k in 0..n_params {
        let ty = Ty::new(g.shape(), g.elem());
        let v = Val { name: format!("%arg{k}"), ty: ty.clone(), konst: false };
        inputs.push(g.input(&ty));
        params.push(v.clone());
        g.pool.push(v);
    }
    for _ in 0..opts.steps.max(1) {
        g.step();
    }
    // results: every value nothing uses (so every op is live), newest first, at most 10
    let mut uses: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for l in &g.lines {
        for tok in tokens(l) {
            *uses.entry(tok).or_default() += 1;
        }
    }
    let defined_once = |v: &Val| {
        let n = uses.get(&v.name).copied().unwrap_or(0);
        if v.name.contains('#') || v.name.starts_with("%arg") { n == 0 } else { n <= 1 }
    };
    let mut results: Vec<Val> = g.pool.iter().rev().filter(|v| defined_once(v)).take(10).cloned().collect();
    if results.is_empty() {
        results.extend(g.pool.last().cloned());
    }
    let sig: Vec<String> = params.iter().map(|p| format!("{}: {}", p.name, p.ty.s())).collect();
    let rtys: Vec<String> = results.iter().map(|r| r.ty.s()).collect();
    let mut text = format!("func.func @main({}) -> ({}) {{\n", sig.join(", "), rtys.join(", "));
    for l in &g.lines {
        text.push_str(l);
        text.push('\n');
    }
    let names: Vec<&str> = results.iter().map(|r| r.name.as_str()).collect();
    text.push_str(&format!("  return {} : {}\n}}\n", names.join(", "), rtys.join(", ")));
    for f in &g.funcs {
        text.push_str(f);
    }
    Program { text, inputs }
}

/// The value names (`%v3`, `%v4#1`, `%arg0`) a line mentions.
fn tokens(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let b = line.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let start = i;
            i += 1;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'#') {
                i += 1;
            }
            out.push(line[start..i].to_string());
        } else {
            i += 1;
        }
    }
    out
}

impl Gen<'_> {
    fn fresh(&mut self) -> String {
        self.next += 1;
        format!("%v{}", self.next)
    }

    fn emit(&mut self, line: String) {
        self.lines.push(format!("{}{}", "  ".repeat(self.indent), line));
    }

    /// Emits `%new = rhs` of type `ty`, adds it to the pool and returns it.
    fn op(&mut self, rhs: String, ty: Ty) -> Val {
        let konst = tokens(&rhs).iter().all(|t| self.pool.iter().any(|p| p.name == *t && p.konst));
        let name = self.fresh();
        self.emit(format!("{name} = {rhs}"));
        if self.indent == 1 {
            self.repeatable.push((rhs, ty.clone()));
        }
        let v = Val { name, ty, konst };
        self.pool.push(v.clone());
        v
    }

    fn shape(&mut self) -> Vec<i64> {
        let rank = self.rng.below(self.opts.max_rank + 1);
        (0..rank).map(|_| self.rng.range(1, self.opts.max_dim.max(1))).collect()
    }

    fn elem(&mut self) -> E {
        match self.rng.below(20) {
            0..=10 => E::F32,
            11..=17 => E::I32,
            _ => E::Bool,
        }
    }

    fn input(&mut self, ty: &Ty) -> RtValue {
        let n = ty.n() as usize;
        let data = match ty.e {
            E::F32 => Data::Float((0..n).map(|_| self.float() as f32 as f64).collect()),
            E::F64 => Data::Float((0..n).map(|_| self.float()).collect()),
            E::I32 => Data::Int((0..n).map(|_| self.int()).collect()),
            E::Bool => Data::Bool((0..n).map(|_| self.rng.chance(0.5)).collect()),
        };
        let elem = match ty.e {
            E::F32 => ElementType::F32,
            E::F64 => ElementType::F64,
            E::I32 => ElementType::I32,
            E::Bool => ElementType::Bool,
        };
        RtValue::Tensor(Tensor { ty: TensorType::new(ty.shape.clone(), elem), data })
    }

    fn float(&mut self) -> f64 {
        if self.rng.chance(0.1) {
            return if self.rng.chance(0.5) { -0.0 } else { 0.0 };
        }
        if self.rng.chance(0.4) {
            *self.rng.pick(FLOATS).unwrap_or(&1.0)
        } else {
            (self.rng.range(-40, 40) as f64) * 0.125
        }
    }

    fn int(&mut self) -> i64 {
        match self.rng.below(20) {
            0 => i32::MAX as i64,
            1 => i32::MIN as i64,
            2 => self.rng.range(-100_000, 100_000),
            _ => self.rng.range(-6, 6),
        }
    }

    fn scalar_text(&mut self, e: E) -> String {
        match e {
            E::F32 | E::F64 => format!("{:?}", self.float()),
            E::I32 => self.int().to_string(),
            E::Bool => self.rng.chance(0.5).to_string(),
        }
    }

    /// A dense literal of `ty` (nested brackets per dimension), or a splat.
    fn literal(&mut self, ty: &Ty) -> String {
        if ty.rank() == 0 || self.rng.chance(0.3) {
            return self.scalar_text(ty.e);
        }
        self.nested(ty, 0)
    }

    fn nested(&mut self, ty: &Ty, d: usize) -> String {
        if d == ty.rank() {
            return self.scalar_text(ty.e);
        }
        let items: Vec<String> = (0..ty.shape[d]).map(|_| self.nested(ty, d + 1)).collect();
        format!("[{}]", items.join(", "))
    }

    fn constant(&mut self, ty: &Ty) -> Val {
        let lit = self.literal(ty);
        self.op(format!("stablehlo.constant dense<{lit}> : {}", ty.s()), ty.clone())
    }

    fn splat(&mut self, ty: &Ty, lit: &str) -> Val {
        if ty.rank() > 0 && self.rng.chance(0.5) {
            // JAX style: a scalar constant broadcast to the shape
            let s = Ty::new(Vec::new(), ty.e);
            let c = self.op(format!("stablehlo.constant dense<{lit}> : {}", s.s()), s);
            return self.op(format!("stablehlo.broadcast_in_dim {}, dims = [] : ({}) -> {}", c.name, c.ty.s(), ty.s()), ty.clone());
        }
        self.op(format!("stablehlo.constant dense<{lit}> : {}", ty.s()), ty.clone())
    }

    fn any(&mut self) -> Val {
        let live: Vec<Val> = self.pool.iter().filter(|v| !v.konst).cloned().collect();
        if self.rng.chance(0.75) {
            if let Some(v) = self.rng.pick(&live) {
                return v.clone();
            }
        }
        match self.rng.pick(&self.pool).cloned() {
            Some(v) if self.rng.chance(0.9) => v,
            _ => {
                let ty = Ty::new(self.shape(), self.elem());
                self.constant(&ty)
            }
        }
    }

    fn any_where(&mut self, ok: &dyn Fn(&Ty) -> bool, make: &dyn Fn(&mut Gen) -> Ty) -> Val {
        let mut cands: Vec<Val> = self.pool.iter().filter(|v| ok(&v.ty) && !v.konst).cloned().collect();
        if cands.is_empty() || self.rng.chance(0.25) {
            cands = self.pool.iter().filter(|v| ok(&v.ty)).cloned().collect();
        }
        match self.rng.pick(&cands).cloned() {
            Some(v) if self.rng.chance(0.85) => v,
            _ => {
                let ty = make(self);
                self.constant(&ty)
            }
        }
    }

    fn same_type(&mut self, ty: &Ty) -> Val {
        let t = ty.clone();
        self.any_where(&|x| *x == t, &|_| t.clone())
    }

    fn step(&mut self) {
        match self.rng.below(34) {
            0..=3 => self.unary(),
            4..=8 => self.binary(),
            9..=10 => self.compare_select(),
            11..=12 => self.convert(),
            13..=14 => self.broadcast(),
            15 => self.reshape(),
            16..=17 => self.transpose(),
            18 => self.slice(),
            19 => self.concat(),
            20 => self.pad(),
            21..=22 => self.reduce(),
            23..=24 if self.opts.dots => self.dot(),
            25 => self.iota(),
            26..=27 if self.opts.loops => self.while_loop(),
            28..=30 => self.identity(),
            31 => self.repeat(),
            32 => {
                if self.rng.chance(0.5) {
                    self.call()
                } else {
                    self.if_op()
                }
            }
            _ => {
                let ty = Ty::new(self.shape(), self.elem());
                self.constant(&ty);
            }
        }
    }

    fn unary_name(&mut self, e: E) -> &'static str {
        match e {
            E::F32 | E::F64 => self.rng.pick(F_UNARY).copied().unwrap_or("negate"),
            E::I32 => self.rng.pick(I_UNARY).copied().unwrap_or("negate"),
            E::Bool => "not",
        }
    }

    fn binary_name(&mut self, e: E) -> &'static str {
        match e {
            E::F32 | E::F64 => self.rng.pick(F_BINARY).copied().unwrap_or("add"),
            E::I32 => self.rng.pick(I_BINARY).copied().unwrap_or("add"),
            E::Bool => self.rng.pick(B_BINARY).copied().unwrap_or("and"),
        }
    }

    fn unary(&mut self) {
        let a = self.any();
        let name = self.unary_name(a.ty.e);
        self.op(format!("stablehlo.{name} {} : {}", a.name, a.ty.s()), a.ty);
    }

    fn binary(&mut self) {
        let a = self.any();
        let b = self.same_type(&a.ty);
        let name = self.binary_name(a.ty.e);
        self.op(format!("stablehlo.{name} {}, {} : {}", a.name, b.name, a.ty.s()), a.ty);
    }

    fn compare_select(&mut self) {
        let a = self.any_where(&|t| t.e != E::Bool, &|g| Ty::new(g.shape(), E::F32));
        let b = self.same_type(&a.ty);
        let dir = *self.rng.pick(&["EQ", "NE", "LT", "LE", "GT", "GE"]).unwrap_or(&"LT");
        let kind = if a.ty.e.is_float() { "FLOAT" } else { "SIGNED" };
        let pty = Ty::new(a.ty.shape.clone(), E::Bool);
        let p = self.op(format!("stablehlo.compare {dir}, {}, {}, {kind} : ({}, {}) -> {}", a.name, b.name, a.ty.s(), b.ty.s(), pty.s()), pty);
        if self.rng.chance(0.8) {
            self.op(format!("stablehlo.select {}, {}, {} : {}, {}", p.name, a.name, b.name, p.ty.s(), a.ty.s()), a.ty);
        }
    }

    fn convert(&mut self) {
        let a = self.any();
        let mut targets = vec![E::F32, E::I32, E::Bool];
        if self.opts.f64 {
            targets.push(E::F64);
        }
        let to = *self.rng.pick(&targets).unwrap_or(&E::F32);
        let ty = Ty::new(a.ty.shape.clone(), to);
        let c = self.op(format!("stablehlo.convert {} : ({}) -> {}", a.name, a.ty.s(), ty.s()), ty);
        if self.rng.chance(0.4) {
            // round trip back (exact for widening: the canonicalizer removes it)
            self.op(format!("stablehlo.convert {} : ({}) -> {}", c.name, c.ty.s(), a.ty.s()), a.ty);
        }
    }

    fn broadcast(&mut self) {
        let a = self.any_where(&|t| t.rank() < 3, &|g| Ty::new(vec![g.rng.range(1, 3)], E::F32));
        let r = a.ty.rank();
        let out_rank = (r + 1 + self.rng.below(2)).min(4);
        // choose r increasing positions among out_rank
        let mut pos: Vec<i64> = self.rng.permutation(out_rank)[..r].to_vec();
        pos.sort();
        let mut shape: Vec<i64> = (0..out_rank).map(|_| self.rng.range(1, 3)).collect();
        for (i, &p) in pos.iter().enumerate() {
            let d = a.ty.shape[i];
            shape[p as usize] = if d == 1 && self.rng.chance(0.5) { self.rng.range(1, 3) } else { d };
        }
        let ty = Ty::new(shape, a.ty.e);
        let dims: Vec<String> = pos.iter().map(|p| p.to_string()).collect();
        let b = self.op(format!("stablehlo.broadcast_in_dim {}, dims = [{}] : ({}) -> {}", a.name, dims.join(", "), a.ty.s(), ty.s()), ty);
        if self.rng.chance(0.3) && b.ty.rank() < 4 {
            // broadcast of a broadcast
            let mut shape2 = vec![2];
            shape2.extend(b.ty.shape.iter().copied());
            let ty2 = Ty::new(shape2, b.ty.e);
            let d2: Vec<String> = (1..=b.ty.rank()).map(|i| i.to_string()).collect();
            self.op(format!("stablehlo.broadcast_in_dim {}, dims = [{}] : ({}) -> {}", b.name, d2.join(", "), b.ty.s(), ty2.s()), ty2);
        }
    }

    fn reshape_shape(&mut self, n: i64) -> Vec<i64> {
        let divisors: Vec<i64> = (1..=n).filter(|d| n % d == 0).collect();
        match self.rng.below(4) {
            0 => vec![n],
            1 => vec![1, n],
            _ => {
                let f = *self.rng.pick(&divisors).unwrap_or(&1);
                vec![f, n / f]
            }
        }
    }

    fn reshape(&mut self) {
        let a = self.any();
        let mut cur = a;
        for _ in 0..1 + self.rng.below(3) {
            let ty = Ty::new(self.reshape_shape(cur.ty.n()), cur.ty.e);
            cur = self.op(format!("stablehlo.reshape {} : ({}) -> {}", cur.name, cur.ty.s(), ty.s()), ty);
        }
    }

    fn transpose_of(&mut self, a: &Val, perm: &[i64]) -> Val {
        let shape: Vec<i64> = perm.iter().map(|&p| a.ty.shape[p as usize]).collect();
        let ty = Ty::new(shape, a.ty.e);
        let ps: Vec<String> = perm.iter().map(|p| p.to_string()).collect();
        self.op(format!("stablehlo.transpose {}, dims = [{}] : ({}) -> {}", a.name, ps.join(", "), a.ty.s(), ty.s()), ty)
    }

    fn transpose(&mut self) {
        let a = self.any_where(&|t| t.rank() >= 2, &|g| Ty::new(vec![g.rng.range(1, 4), g.rng.range(1, 4)], E::F32));
        let p = self.rng.permutation(a.ty.rank());
        let t = self.transpose_of(&a, &p);
        if self.rng.chance(0.5) {
            let q = self.rng.permutation(t.ty.rank());
            self.transpose_of(&t, &q);
        }
    }

    fn slice(&mut self) {
        let a = self.any_where(&|t| t.rank() >= 1, &|g| Ty::new(vec![g.rng.range(2, 4)], E::I32));
        let mut parts = Vec::new();
        let mut shape = Vec::new();
        let full = self.rng.chance(0.2);
        for &d in &a.ty.shape {
            let (s, l, st) = if full { (0, d, 1) } else {
                let s = self.rng.range(0, d - 1);
                (s, self.rng.range(s + 1, d), self.rng.range(1, 2))
            };
            parts.push(if st == 1 { format!("{s}:{l}") } else { format!("{s}:{l}:{st}") });
            shape.push((l - s + st - 1) / st);
        }
        let ty = Ty::new(shape, a.ty.e);
        self.op(format!("stablehlo.slice {} [{}] : ({}) -> {}", a.name, parts.join(", "), a.ty.s(), ty.s()), ty);
    }

    fn concat(&mut self) {
        let a = self.any_where(&|t| t.rank() >= 1, &|g| Ty::new(vec![g.rng.range(1, 3)], E::F32));
        let k = self.rng.below(a.ty.rank());
        let (shape, e) = (a.ty.shape.clone(), a.ty.e);
        let b = self.any_where(
            &|t| t.e == e && t.rank() == shape.len() && t.shape.iter().zip(&shape).enumerate().all(|(i, (x, y))| i == k || x == y),
            &|g| {
                let mut s = shape.clone();
                s[k] = g.rng.range(1, 3);
                Ty::new(s, e)
            },
        );
        let mut out = a.ty.shape.clone();
        out[k] += b.ty.shape[k];
        let ty = Ty::new(out, a.ty.e);
        self.op(format!("stablehlo.concatenate {}, {}, dim = {k} : ({}, {}) -> {}", a.name, b.name, a.ty.s(), b.ty.s(), ty.s()), ty);
    }

    fn pad(&mut self) {
        let a = self.any_where(&|t| t.rank() >= 1, &|g| Ty::new(vec![g.rng.range(1, 3), 2], E::F32));
        let s = Ty::new(Vec::new(), a.ty.e);
        let lit = self.scalar_text(a.ty.e);
        let pv = self.op(format!("stablehlo.constant dense<{lit}> : {}", s.s()), s.clone());
        let (mut lo, mut hi, mut it, mut shape) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for &d in &a.ty.shape {
            let i = self.rng.range(0, 1);
            let l = if d >= 2 && i == 0 && self.rng.chance(0.2) { -1 } else { self.rng.range(0, 2) };
            let h = self.rng.range(0, 2);
            shape.push(l + h + d + (d - 1) * i);
            lo.push(l.to_string());
            hi.push(h.to_string());
            it.push(i.to_string());
        }
        let ty = Ty::new(shape, a.ty.e);
        self.op(
            format!(
                "stablehlo.pad {}, {}, low = [{}], high = [{}], interior = [{}] : ({}, {}) -> {}",
                a.name, pv.name, lo.join(", "), hi.join(", "), it.join(", "), a.ty.s(), s.s(), ty.s()
            ),
            ty,
        );
    }

    fn reduce(&mut self) {
        let a = self.any_where(&|t| t.rank() >= 1 && t.e != E::Bool, &|g| Ty::new(vec![g.rng.range(1, 4), 3], E::F32));
        let r = a.ty.rank();
        let k = 1 + self.rng.below(r);
        let mut dims: Vec<i64> = self.rng.permutation(r)[..k].to_vec();
        dims.sort();
        let max = self.rng.chance(0.4);
        let init = match (max, a.ty.e.is_float()) {
            (false, _) => "0".to_string(),
            (true, true) => if a.ty.e == E::F32 { "0xFF800000".into() } else { "0xFFF0000000000000".into() },
            (true, false) => "-2147483648".to_string(),
        };
        let init = if !max && a.ty.e.is_float() { "0.0".to_string() } else { init };
        let s = Ty::new(Vec::new(), a.ty.e);
        let c = self.op(format!("stablehlo.constant dense<{init}> : {}", s.s()), s.clone());
        let shape: Vec<i64> = (0..r as i64).filter(|d| !dims.contains(d)).map(|d| a.ty.shape[d as usize]).collect();
        let ty = Ty::new(shape, a.ty.e);
        let ds: Vec<String> = dims.iter().map(|d| d.to_string()).collect();
        let f = if max { "maximum" } else { "add" };
        self.op(
            format!("stablehlo.reduce({} init: {}) applies stablehlo.{f} across dimensions = [{}] : ({}, {}) -> {}", a.name, c.name, ds.join(", "), a.ty.s(), s.s(), ty.s()),
            ty,
        );
    }

    fn dot(&mut self) {
        let e = if self.rng.chance(0.8) { E::F32 } else { E::I32 };
        let (m, k, n) = (self.rng.range(1, 4), self.rng.range(1, 4), self.rng.range(1, 4));
        match self.rng.below(3) {
            0 | 1 => {
                // lhs [m,k], possibly made by transposing a [k,m]
                let lhs = if self.rng.chance(0.5) {
                    let src = self.same_type(&Ty::new(vec![k, m], e));
                    self.transpose_of(&src, &[1, 0])
                } else {
                    self.same_type(&Ty::new(vec![m, k], e))
                };
                let rhs = if self.rng.chance(0.4) {
                    let src = self.same_type(&Ty::new(vec![n, k], e));
                    self.transpose_of(&src, &[1, 0])
                } else {
                    self.same_type(&Ty::new(vec![k, n], e))
                };
                let ty = Ty::new(vec![m, n], e);
                self.op(format!("stablehlo.dot_general {}, {}, contracting_dims = [1] x [0] : ({}, {}) -> {}", lhs.name, rhs.name, lhs.ty.s(), rhs.ty.s(), ty.s()), ty);
            }
            _ => {
                let b = self.rng.range(1, 3);
                let lhs = if self.rng.chance(0.5) {
                    let src = self.same_type(&Ty::new(vec![b, k, m], e));
                    self.transpose_of(&src, &[0, 2, 1])
                } else {
                    self.same_type(&Ty::new(vec![b, m, k], e))
                };
                let rhs = self.same_type(&Ty::new(vec![b, k, n], e));
                let ty = Ty::new(vec![b, m, n], e);
                self.op(
                    format!("stablehlo.dot_general {}, {}, batching_dims = [0] x [0], contracting_dims = [2] x [1] : ({}, {}) -> {}", lhs.name, rhs.name, lhs.ty.s(), rhs.ty.s(), ty.s()),
                    ty,
                );
            }
        }
    }

    fn iota(&mut self) {
        let mut shape = self.shape();
        if shape.is_empty() {
            shape.push(self.rng.range(1, 4));
        }
        let d = self.rng.below(shape.len());
        let ty = Ty::new(shape, if self.rng.chance(0.5) { E::F32 } else { E::I32 });
        self.op(format!("stablehlo.iota dim = {d} : {}", ty.s()), ty);
    }

    /// Exact identities and near-identities the simplifier and canonicalizer must get right.
    fn identity(&mut self) {
        let a = self.any();
        let t = a.ty.clone();
        let ts = t.s();
        match (self.rng.below(8), t.e) {
            (0, E::I32) => {
                let z = self.splat(&t, "0");
                self.op(format!("stablehlo.add {}, {} : {ts}", z.name, a.name), t);
            }
            (1, E::I32) => {
                let lit = if self.rng.chance(0.5) { "1" } else { "0" };
                let o = self.splat(&t, lit);
                self.op(format!("stablehlo.multiply {}, {} : {ts}", a.name, o.name), t);
            }
            (0 | 1, E::F32 | E::F64) => {
                let (op, lit) = *self
                    .rng
                    .pick(&[("multiply", "1.0"), ("add", "-0.0"), ("add", "0.0"), ("subtract", "0.0"), ("subtract", "-0.0"), ("divide", "1.0"), ("multiply", "0.0")])
                    .unwrap_or(&("add", "0.0"));
                let c = self.splat(&t, lit);
                self.op(format!("stablehlo.{op} {}, {} : {ts}", a.name, c.name), t);
            }
            (2, _) => {
                let lit = if self.rng.chance(0.5) { "true" } else { "false" };
                let p = self.splat(&Ty::new(Vec::new(), E::Bool), lit);
                let b = self.same_type(&t);
                self.op(format!("stablehlo.select {}, {}, {} : tensor<i1>, {ts}", p.name, a.name, b.name), t);
            }
            (3, E::Bool) | (3, E::I32) => {
                let n = self.op(format!("stablehlo.not {} : {ts}", a.name), t.clone());
                self.op(format!("stablehlo.not {} : {ts}", n.name), t);
            }
            (3, _) => {
                let n = self.op(format!("stablehlo.negate {} : {ts}", a.name), t.clone());
                self.op(format!("stablehlo.negate {} : {ts}", n.name), t);
            }
            (4, _) => {
                self.op(format!("stablehlo.convert {} : ({ts}) -> {ts}", a.name), t);
            }
            (5, _) => {
                self.op(format!("stablehlo.reshape {} : ({ts}) -> {ts}", a.name), t);
            }
            (6, _) => {
                let dims: Vec<String> = (0..t.rank()).map(|i| i.to_string()).collect();
                self.op(format!("stablehlo.broadcast_in_dim {}, dims = [{}] : ({ts}) -> {ts}", a.name, dims.join(", ")), t);
            }
            _ => {
                let b = self.same_type(&t);
                let name = if t.e == E::I32 && self.rng.chance(0.5) { "subtract" } else { *self.rng.pick(&["maximum", "minimum"]).unwrap_or(&"maximum") };
                let name = if t.e == E::Bool && name == "subtract" { "xor" } else { name };
                let b = if self.rng.chance(0.7) { a.clone() } else { b };
                self.op(format!("stablehlo.{name} {}, {} : {ts}", a.name, b.name), t);
            }
        }
    }

    fn repeat(&mut self) {
        if let Some((rhs, ty)) = self.rng.pick(&self.repeatable).cloned() {
            self.op(rhs, ty);
        } else {
            self.unary();
        }
    }

    fn while_loop(&mut self) {
        let x = self.any_where(&|t| t.e != E::Bool, &|g| Ty::new(g.shape(), E::F32));
        let t = x.ty.clone();
        let ts = t.s();
        let cap = self.same_type(&t);
        let trips = self.rng.range(0, 3);
        let n = self.op(format!("stablehlo.constant dense<{trips}> : tensor<i32>"), Ty::new(Vec::new(), E::I32));
        let z = self.op("stablehlo.constant dense<0> : tensor<i32>".to_string(), Ty::new(Vec::new(), E::I32));
        let w = self.fresh();
        let (wi, wx, wc) = (format!("{w}_i"), format!("{w}_x"), format!("{w}_c"));
        let pass_through = self.rng.chance(0.6);
        let (mut args, mut tys) = (vec![format!("{wi} = {}", z.name), format!("{wx} = {}", x.name)], vec!["tensor<i32>".to_string(), ts.clone()]);
        if pass_through {
            args.push(format!("{wc} = {}", cap.name));
            tys.push(ts.clone());
        }
        // sometimes a carried value whose result nobody reads (dead loop state)
        let dead = self.rng.chance(0.4);
        let wd = format!("{w}_d");
        if dead {
            args.push(format!("{wd} = {}", x.name));
            tys.push(ts.clone());
        }
        let nres = args.len();
        self.emit(format!("{w}:{nres} = stablehlo.while({}) : {}", args.join(", "), tys.join(", ")));
        self.emit("cond {".to_string());
        self.indent += 1;
        let p = self.fresh();
        self.emit(format!("{p} = stablehlo.compare LT, {wi}, {}, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>", n.name));
        self.emit(format!("stablehlo.return {p} : tensor<i1>"));
        self.indent -= 1;
        self.emit("} do {".to_string());
        self.indent += 1;
        let saved = self.pool.len();
        let one = self.op("stablehlo.constant dense<1> : tensor<i32>".to_string(), Ty::new(Vec::new(), E::I32));
        let i2 = self.op(format!("stablehlo.add {wi}, {} : tensor<i32>", one.name), Ty::new(Vec::new(), E::I32));
        let c = if pass_through { Val { name: wc.clone(), ty: t.clone(), konst: false } } else { cap.clone() };
        // a loop-invariant computation on the captured value, then the carried update
        let un = if t.e == E::I32 { "negate" } else { *self.rng.pick(&["tanh", "negate", "sine", "abs"]).unwrap_or(&"tanh") };
        let inv = self.op(format!("stablehlo.{un} {} : {ts}", c.name), t.clone());
        let bn = if t.e == E::I32 { *self.rng.pick(&["add", "xor", "maximum", "subtract"]).unwrap_or(&"add") } else { *self.rng.pick(&["add", "multiply", "maximum", "subtract"]).unwrap_or(&"add") };
        let xv = Val { name: wx.clone(), ty: t.clone(), konst: false };
        let y = self.op(format!("stablehlo.{bn} {}, {} : {ts}", xv.name, inv.name), t.clone());
        let y = if self.rng.chance(0.5) {
            let u = self.unary_name(t.e);
            let u = if matches!(u, "log" | "rsqrt" | "sqrt" | "exponential") { "floor" } else { u };
            let u = if t.e == E::I32 && u == "floor" { "negate" } else { u };
            self.op(format!("stablehlo.{u} {} : {ts}", y.name), t.clone())
        } else {
            y
        };
        let mut rets = vec![i2.name.clone(), y.name.clone()];
        if pass_through {
            rets.push(wc.clone());
        }
        if dead {
            let bn = self.binary_name(t.e);
            let d2 = self.op(format!("stablehlo.{bn} {wd}, {wx} : {ts}"), t.clone());
            rets.push(d2.name);
        }
        self.emit(format!("stablehlo.return {} : {}", rets.join(", "), tys.join(", ")));
        self.pool.truncate(saved);
        self.indent -= 1;
        self.emit("}".to_string());
        self.pool.push(Val { name: format!("{w}#1"), ty: t.clone(), konst: false });
        if pass_through && self.rng.chance(0.5) {
            self.pool.push(Val { name: format!("{w}#2"), ty: t, konst: false });
        }
    }
}
