//! The checking context every op rule works through: it resolves operand and result types without
//! panicking on bad value ids, reads attributes (reporting missing ones and ones of the wrong kind),
//! classifies element types, and records findings. Rules shared by many ops (operands must be tensors,
//! element type classes, "same type") live here.

use crate::attr::Attr;
use crate::body::{Op, Value};
use crate::diag::Diagnostic;
use crate::location::Location;
use crate::module::{Func, Module};
use crate::types::{ElementType, TensorType, Type};
use crate::verify::fmt;
use crate::verify::shape::{shapes_compatible, ShapeError};
use crate::verify::{Finding, Rule};

rules! {
    OPERAND_TENSOR = "op.operand_tensor": "an operand that must be a tensor is a tensor (unranked ones skip the op's checks)";
    RESULT_TENSOR = "op.result_tensor": "a result that must be a tensor is a tensor (unranked ones skip the op's checks)";
    OPERAND_TOKEN = "op.operand_token": "an operand that must be a token is a token";
    RESULT_TOKEN = "op.result_token": "a result that must be a token is a token";
    ATTR_MISSING = "attr.missing": "a required attribute is present";
    ATTR_KIND = "attr.kind": "an attribute has the kind the op expects (integer, array, dense, enum, ...)";
    ELEM_CLASS = "op.element_type": "an operand or result element type is one the op accepts";
    PRECISION_CONFIG = "op.precision_config": "precision_config has 0 or 2 entries";
}

/// Element type classes an op accepts, combined with `|`.
pub(crate) mod class {
    pub const BOOL: u8 = 1;
    /// Signless or signed integers (StableHLO reads `iN` as signed).
    pub const SINT: u8 = 2;
    pub const UINT: u8 = 4;
    pub const FLOAT: u8 = 8;
    pub const COMPLEX: u8 = 16;
    pub const QUANT: u8 = 32;
    pub const INT: u8 = SINT | UINT;
    pub const ANY: u8 = BOOL | INT | FLOAT | COMPLEX | QUANT;
}

/// Whether `e` is in one of the classes of `mask`.
pub(crate) fn elem_in(e: &ElementType, mask: u8) -> bool {
    let c = match e {
        ElementType::Bool => class::BOOL,
        ElementType::Int { .. } if e.is_unsigned_integer() => class::UINT,
        ElementType::Int { .. } => class::SINT,
        ElementType::Float(_) => class::FLOAT,
        ElementType::Complex(_) => class::COMPLEX,
        ElementType::Quant(_) => class::QUANT,
        ElementType::Index => class::SINT,
    };
    c & mask != 0
}

/// `boolean, integer or float` for a class mask.
pub(crate) fn describe(mask: u8) -> String {
    let mut names = Vec::new();
    if mask & class::BOOL != 0 {
        names.push("boolean");
    }
    match mask & class::INT {
        class::INT => names.push("integer"),
        class::SINT => names.push("signed integer"),
        class::UINT => names.push("unsigned integer"),
        _ => {}
    }
    if mask & class::FLOAT != 0 {
        names.push("float");
    }
    if mask & class::COMPLEX != 0 {
        names.push("complex");
    }
    if mask & class::QUANT != 0 {
        names.push("quantized");
    }
    match names.len() {
        0 => "nothing".into(),
        1 => names[0].into(),
        n => format!("{} or {}", names[..n - 1].join(", "), names[n - 1]),
    }
}

/// Element types that may stand for each other: equal, or both quantized with the same storage and
/// expressed types (quantization parameters may differ between an op's operands and results).
pub(crate) fn elem_compatible(a: &ElementType, b: &ElementType) -> bool {
    match (a, b) {
        (ElementType::Quant(x), ElementType::Quant(y)) => x.storage == y.storage && x.expressed == y.expressed,
        _ => a == b,
    }
}

/// Types that may stand for each other: same element type (see [`elem_compatible`]) and compatible
/// shapes (a dynamic dimension matches any size; an unranked tensor matches any rank); tuples item-wise;
/// types of other dialects match anything.
pub(crate) fn types_compatible(a: &Type, b: &Type) -> bool {
    match (a, b) {
        (Type::Tensor(x), Type::Tensor(y)) => elem_compatible(&x.elem, &y.elem) && shapes_compatible(&x.shape, &y.shape),
        (Type::Tensor(x), Type::UnrankedTensor(e)) | (Type::UnrankedTensor(e), Type::Tensor(x)) => {
            elem_compatible(&x.elem, e)
        }
        (Type::UnrankedTensor(x), Type::UnrankedTensor(y)) => elem_compatible(x, y),
        (Type::Token, Type::Token) => true,
        (Type::Tuple(x), Type::Tuple(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| types_compatible(p, q)),
        (Type::Opaque(_), _) | (_, Type::Opaque(_)) => true,
        _ => a == b,
    }
}

/// The kind of an attribute, for messages.
pub(crate) fn attr_kind(a: &Attr) -> &'static str {
    match a {
        Attr::Unit => "unit",
        Attr::Bool(_) => "a boolean",
        Attr::Int(..) => "an integer",
        Attr::Float(..) => "a float",
        Attr::Str(_) => "a string",
        Attr::Type(_) => "a type",
        Attr::Array(_) => "an array",
        Attr::DenseArray(_) => "a dense array",
        Attr::Dense(_) | Attr::DenseResource(..) => "a dense elements attribute",
        Attr::Dict(_) => "a dictionary",
        Attr::SymbolRef(_) => "a symbol reference",
        Attr::Opaque(_) => "an unknown attribute",
        _ => "a stablehlo attribute",
    }
}

/// A 2-D integer attribute (`dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>`): rows, columns, row-major data.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Matrix {
    pub rows: usize,
    pub cols: usize,
    pub data: Vec<i64>,
}

impl Matrix {
    pub fn row(&self, r: usize) -> &[i64] {
        self.data.get(r * self.cols..(r + 1) * self.cols).unwrap_or(&[])
    }
}

/// Reads a 2-D integer attribute; a 1-D or empty one reads as rows of its length.
fn as_matrix(a: &Attr) -> Option<Matrix> {
    match a {
        Attr::Dense(d) if d.ty.elem.is_integer() || d.ty.elem.is_bool() => {
            let data = d.to_i64_vec()?;
            let (rows, cols) = match d.ty.shape.as_slice() {
                [r, c] => (usize::try_from(*r).ok()?, usize::try_from(*c).ok()?),
                [n] => (1, usize::try_from(*n).ok()?),
                _ => return None,
            };
            Some(Matrix { rows, cols, data })
        }
        Attr::Array(items) => {
            let rows: Option<Vec<Vec<i64>>> = items.iter().map(Attr::as_i64_list).collect();
            let rows = rows?;
            let cols = rows.first().map(Vec::len).unwrap_or(0);
            if rows.iter().any(|r| r.len() != cols) {
                return None;
            }
            Some(Matrix { rows: rows.len(), cols, data: rows.concat() })
        }
        _ => None,
    }
}

/// Checking context for the ops of one function.
pub(crate) struct Cx<'a> {
    pub m: &'a Module,
    pub f: &'a Func,
    pub out: Vec<Finding>,
}

impl<'a> Cx<'a> {
    pub fn new(m: &'a Module, f: &'a Func) -> Cx<'a> {
        Cx { m, f, out: Vec::new() }
    }

    /// Records a violation of `rule` at `op`, worded `<op name>: <msg>`.
    pub fn fail(&mut self, op: &Op, rule: Rule, msg: impl std::fmt::Display) {
        self.fail_at(&op.loc, op.name(), rule, msg);
    }

    /// Records a violation at a location, worded `<what>: <msg>`.
    pub fn fail_at(&mut self, loc: &Location, what: &str, rule: Rule, msg: impl std::fmt::Display) {
        self.out.push(Finding { rule: rule.id, diag: Diagnostic::new(loc.clone(), format!("{what}: {msg}")) });
    }

    /// Records a shape-inference error at `op`.
    pub fn fail_shape(&mut self, op: &Op, e: ShapeError) {
        self.fail(op, e.rule, e.message);
    }

    /// The type of a value (None for a bad id).
    pub fn ty(&self, v: Value) -> Option<&'a Type> {
        self.f.try_ty(v)
    }
    /// The type of operand `i`.
    pub fn opd(&self, op: &Op, i: usize) -> Option<&'a Type> {
        op.operands.get(i).and_then(|v| self.ty(*v))
    }
    /// The type of result `i`.
    pub fn res(&self, op: &Op, i: usize) -> Option<&'a Type> {
        op.results.get(i).and_then(|v| self.ty(*v))
    }
    /// Types of all operands (None entries for bad ids).
    pub fn opd_tys(&self, op: &Op) -> Vec<Option<&'a Type>> {
        op.operands.iter().map(|v| self.ty(*v)).collect()
    }
    /// Types of all results.
    pub fn res_tys(&self, op: &Op) -> Vec<Option<&'a Type>> {
        op.results.iter().map(|v| self.ty(*v)).collect()
    }

    /// Operand `i` as a ranked tensor; reports it when it is something else. An unranked tensor (legacy
    /// programs) or another dialect's type gives None without a report: the op's checks are skipped.
    pub fn tensor_opd(&mut self, op: &Op, i: usize) -> Option<&'a TensorType> {
        let t = self.opd(op, i)?;
        match t {
            Type::Tensor(tt) => Some(tt),
            Type::UnrankedTensor(_) | Type::Opaque(_) => None,
            other => {
                self.fail(op, OPERAND_TENSOR, format!("operand #{i} must be a ranked tensor, got {}", fmt::ty(other)));
                None
            }
        }
    }

    /// Result `i` as a ranked tensor; reports it when it is something else (unranked: None, unreported).
    pub fn tensor_res(&mut self, op: &Op, i: usize) -> Option<&'a TensorType> {
        let t = self.res(op, i)?;
        match t {
            Type::Tensor(tt) => Some(tt),
            Type::UnrankedTensor(_) | Type::Opaque(_) => None,
            other => {
                self.fail(op, RESULT_TENSOR, format!("result #{i} must be a ranked tensor, got {}", fmt::ty(other)));
                None
            }
        }
    }

    /// Every operand in `range` as a ranked tensor (None if any is not).
    pub fn tensor_opds(&mut self, op: &Op, range: std::ops::Range<usize>) -> Option<Vec<&'a TensorType>> {
        let mut out = Vec::new();
        let mut ok = true;
        for i in range {
            match self.tensor_opd(op, i) {
                Some(t) => out.push(t),
                None => ok = false,
            }
        }
        ok.then_some(out)
    }

    /// Every result as a ranked tensor (None if any is not).
    pub fn tensor_results(&mut self, op: &Op) -> Option<Vec<&'a TensorType>> {
        let mut out = Vec::new();
        let mut ok = true;
        for i in 0..op.results.len() {
            match self.tensor_res(op, i) {
                Some(t) => out.push(t),
                None => ok = false,
            }
        }
        ok.then_some(out)
    }

    /// Reports operand `i` unless it is a token.
    pub fn token_opd(&mut self, op: &Op, i: usize) {
        if let Some(t) = self.opd(op, i) {
            if !matches!(t, Type::Token | Type::Opaque(_)) {
                self.fail(op, OPERAND_TOKEN, format!("operand #{i} must be a !stablehlo.token, got {}", fmt::ty(t)));
            }
        }
    }

    /// Reports result `i` unless it is a token.
    pub fn token_res(&mut self, op: &Op, i: usize) {
        if let Some(t) = self.res(op, i) {
            if !matches!(t, Type::Token | Type::Opaque(_)) {
                self.fail(op, RESULT_TOKEN, format!("result #{i} must be a !stablehlo.token, got {}", fmt::ty(t)));
            }
        }
    }

    /// Reports `e` (of the value called `what`) unless it is in one of the classes of `mask`.
    pub fn elem(&mut self, op: &Op, what: &str, e: &ElementType, mask: u8) -> bool {
        if elem_in(e, mask) {
            return true;
        }
        self.fail(op, ELEM_CLASS, format!("{what} element type must be {}, got {}", describe(mask), fmt::elem(e)));
        false
    }

    /// Reports a 0-d tensor requirement.
    pub fn scalar_tensor(&mut self, op: &Op, rule: Rule, what: &str, t: &TensorType) -> bool {
        if t.rank() == 0 {
            return true;
        }
        self.fail(op, rule, format!("{what} must be a 0-dimensional tensor, got tensor<{}x{}>", fmt::shape(&t.shape), fmt::elem(&t.elem)));
        false
    }

    // ---- attributes ----

    /// The attribute `name`, reporting it when required and absent.
    pub fn attr(&mut self, op: &'a Op, name: &str, required: bool) -> Option<&'a Attr> {
        let a = op.attr(name);
        if a.is_none() && required {
            self.fail(op, ATTR_MISSING, format!("missing required attribute `{name}`"));
        }
        a
    }

    /// Reads attribute `name` with `read`; reports absence (when required) and a wrong kind.
    pub fn attr_as<T>(
        &mut self,
        op: &'a Op,
        name: &str,
        required: bool,
        expected: &str,
        read: impl FnOnce(&'a Attr) -> Option<T>,
    ) -> Option<T> {
        let a = self.attr(op, name, required)?;
        let v = read(a);
        if v.is_none() {
            self.fail(op, ATTR_KIND, format!("attribute `{name}` must be {expected}, got {}", attr_kind(a)));
        }
        v
    }

    /// An integer attribute.
    pub fn attr_int(&mut self, op: &'a Op, name: &str, required: bool) -> Option<i64> {
        self.attr_as(op, name, required, "an integer", |a| match a {
            Attr::Int(v, _) => Some(*v),
            _ => None,
        })
    }

    /// A list of integers (`array<i64: ...>`, a 1-D dense integer attribute, or an array of integers).
    pub fn attr_i64s(&mut self, op: &'a Op, name: &str, required: bool) -> Option<Vec<i64>> {
        self.attr_as(op, name, required, "a list of integers", |a| match a {
            Attr::Dense(d) if d.ty.rank() > 1 => None,
            other => other.as_i64_list(),
        })
    }

    /// A boolean attribute (`true`, or an `i1` integer).
    pub fn attr_bool(&mut self, op: &'a Op, name: &str, required: bool) -> Option<bool> {
        self.attr_as(op, name, required, "a boolean", |a| match a {
            Attr::Bool(b) => Some(*b),
            Attr::Int(v, e) if e.is_bool() => Some(*v != 0),
            Attr::Unit => Some(true),
            _ => None,
        })
    }

    /// A list of booleans (`array<i1: ...>` or a dense `i1` attribute).
    pub fn attr_bools(&mut self, op: &'a Op, name: &str, required: bool) -> Option<Vec<bool>> {
        self.attr_as(op, name, required, "a list of booleans", Attr::as_bool_list)
    }

    /// A string attribute.
    pub fn attr_str(&mut self, op: &'a Op, name: &str, required: bool) -> Option<&'a str> {
        self.attr_as(op, name, required, "a string", Attr::as_str)
    }

    /// A 2-D integer attribute.
    pub fn attr_matrix(&mut self, op: &'a Op, name: &str, required: bool) -> Option<Matrix> {
        self.attr_as(op, name, required, "a 2-dimensional integer tensor", as_matrix)
    }

    /// An `[lo, hi]` padding attribute (`dense<[[lo, hi], ...]> : tensor<Nx2xi64>`). `Some(None)` when absent
    /// (all zeros), `None` when malformed (reported: wrong kind, or not `N x 2`).
    pub fn attr_padding(&mut self, op: &'a Op, name: &str, rule: Rule) -> Option<Option<Vec<(i64, i64)>>> {
        if op.attr(name).is_none() {
            return Some(None);
        }
        let m = self.attr_matrix(op, name, false)?;
        if m.rows.saturating_mul(m.cols) == 0 {
            return Some(Some(Vec::new()));
        }
        if m.cols != 2 {
            self.fail(op, rule, format!("`{name}` must have shape [N, 2], got [{}, {}]", m.rows, m.cols));
            return None;
        }
        Some(Some(m.data.chunks_exact(2).map(|c| (c[0], c[1])).collect()))
    }

    /// Checks `precision_config` (absent, empty, or two entries).
    pub fn precision_config(&mut self, op: &'a Op) {
        let Some(a) = self.attr(op, "precision_config", false) else { return };
        let n = match a {
            Attr::Array(items) if items.iter().all(|i| matches!(i, Attr::Precision(_))) => items.len(),
            _ => {
                self.fail(op, ATTR_KIND, format!("attribute `precision_config` must be an array of precisions, got {}", attr_kind(a)));
                return;
            }
        };
        if n != 0 && n != 2 {
            self.fail(op, PRECISION_CONFIG, format!("precision_config must have 0 or 2 entries, got {n}"));
        }
    }
}
