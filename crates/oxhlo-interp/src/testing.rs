//! The `check` dialect and the test runner behind `oxhlo test`.
//!
//! Checks: `check.expect_eq` / `expect_eq_const` (exact: same value bits, any NaN equals any NaN),
//! `check.expect_almost_eq` / `expect_almost_eq_const` (floats within `tolerance`, default 1e-4, absolute
//! or relative to the expected value; integers exact), `check.expect_close` (ULP distance in the element
//! format between `min_ulp_difference` and `max_ulp_difference`, the reference interpreter's measure), and
//! the JAX-style custom calls `@check.eq` (integers exact, floats almost-equal; returns a `tensor<i1>` if
//! declared), `@check.expect_eq`, `@check.expect_almost_eq`, `@check.expect_close` (3 ULPs unless
//! `max_ulp_difference` is given). `check.expect_serialized_eq %x, probe_id = "p", iter = N`
//! compares `%x` exactly with what `interpreter.probe ..., probe_id = "p"` recorded on its N-th execution
//! (default 0) in the same run (upstream writes probes to `--probe-output-dir` and reads them back; here
//! they stay in memory).
//!
//! A failing check does not stop its case: every failure is recorded with the check's name, location,
//! expected vs actual value and the first differing index.
//!
//! [`run_conformance_dir`] runs a whole folder of test files (the conformance suite) through any case
//! runner: the interpreter, the optimizer's levels, a fast backend.

use crate::custom_call::CustomCallCtx;
use crate::eval::{on_big_stack, Interpreter};
use crate::tensor::{Data, RtValue, Tensor};
use oxhlo_ir::{Attr, ElementType, Location, Module, Op, OpKind, TensorType};
use std::fmt;
use std::path::Path;

/// One failed check.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckFailure {
    /// The check's name (`check.expect_eq`, `custom_call @check.expect_close`, ...).
    pub check: String,
    pub loc: Location,
    /// What differed, in words.
    pub message: String,
    /// First differing element: index, expected and actual value.
    pub index: Option<Vec<usize>>,
    pub expected: Option<String>,
    pub actual: Option<String>,
}

impl fmt::Display for CheckFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} failed: {}", self.loc, self.check, self.message)
    }
}

/// How to compare two tensors.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Compare {
    /// Same values bit for bit (all NaNs equal).
    Exact,
    /// Floats within the tolerance (absolute, or relative to the expected value).
    Almost(f64),
    /// ULP distance within [min, max].
    Ulps { min: u64, max: u64 },
}

/// Spells an element type as MLIR does (the IR's spelling).
pub fn elem_string(e: &ElementType) -> String {
    e.to_string()
}

/// Spells a tensor type as MLIR does (`tensor<2x?xf32>`).
pub fn type_string(t: &TensorType) -> String {
    let mut s = String::from("tensor<");
    for d in &t.shape {
        if *d < 0 {
            s.push_str("?x");
        } else {
            s.push_str(&format!("{d}x"));
        }
    }
    s.push_str(&elem_string(&t.elem));
    s.push('>');
    s
}

fn fmt_float(x: f64, elem: &ElementType) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if elem.float_type() == Some(oxhlo_ir::FloatType::F32) {
        format!("{:?}", x as f32)
    } else {
        format!("{x:?}")
    }
}

/// Element `i` of a storage, for messages.
pub fn fmt_elem(d: &Data, i: usize, elem: &ElementType) -> String {
    match d {
        Data::Bool(v) => v[i].to_string(),
        Data::Int(v) => v[i].to_string(),
        Data::UInt(v) => v[i].to_string(),
        Data::Float(v) => fmt_float(v[i], elem),
        Data::Complex(v) => format!("({}, {})", fmt_float(v[i].0, elem), fmt_float(v[i].1, elem)),
    }
}

fn multi_index(shape: &[i64], mut lin: usize) -> Vec<usize> {
    let mut idx = vec![0usize; shape.len()];
    for d in (0..shape.len()).rev() {
        let n = shape[d].max(1) as usize;
        idx[d] = lin % n;
        lin /= n;
    }
    idx
}

#[inline]
fn same_float(a: f64, b: f64) -> bool {
    (a.is_nan() && b.is_nan()) || (a == b && a.is_sign_negative() == b.is_sign_negative())
}

fn almost_float(a: f64, b: f64, tol: f64) -> bool {
    if same_float(a, b) || a == b {
        return true;
    }
    if !a.is_finite() || !b.is_finite() {
        return false;
    }
    let d = (a - b).abs();
    d <= tol || d <= tol * b.abs()
}

/// ULP distance between two values of a float format (the reference interpreter's measure: subnormals are
/// rounded to the nearest of zero and the smallest normal; values of opposite signs add their distances
/// from zero; a non-finite value is 0 ULPs from the same value or any NaN from any NaN, else u64::MAX).
pub fn ulp_difference(fmt: &oxhlo_dtype::FloatFormat, a: f64, b: f64) -> u64 {
    if a.is_nan() && b.is_nan() {
        return 0;
    }
    if !a.is_finite() || !b.is_finite() {
        return if same_float(a, b) { 0 } else { u64::MAX };
    }
    let z = fmt.min_normal_bits().saturating_sub(1);
    let mag = |x: f64| oxhlo_dtype::encode(fmt, x) & fmt.magnitude_mask();
    let adjust = |m: u64| if z < m { m - z } else if 2 * m < z { 0 } else { 1 };
    let (ma, mb) = (adjust(mag(a)), adjust(mag(b)));
    if a.is_sign_negative() != b.is_sign_negative() && !(a == 0.0 && b == 0.0) {
        ma.saturating_add(mb)
    } else {
        ma.abs_diff(mb)
    }
}

/// Compares `actual` with `expected`; None if they match.
pub fn compare_tensors(check: &str, loc: &Location, actual: &Tensor, expected: &Tensor, how: Compare) -> Option<CheckFailure> {
    let fail = |message: String, index: Option<usize>| {
        let (idx, e, a) = match index {
            Some(i) => (
                Some(multi_index(&actual.ty.shape, i)),
                Some(fmt_elem(&expected.data, i, &expected.ty.elem)),
                Some(fmt_elem(&actual.data, i, &actual.ty.elem)),
            ),
            None => (None, None, None),
        };
        Some(CheckFailure { check: check.to_string(), loc: loc.clone(), message, index: idx, expected: e, actual: a })
    };
    if actual.ty.shape != expected.ty.shape {
        return fail(
            format!("shape {:?} (actual) vs {:?} (expected)", actual.ty.shape, expected.ty.shape),
            None,
        );
    }
    let fmt = actual.ty.elem.float_type().map(|f| f.format());
    let mut first: Option<usize> = None;
    let mut count = 0usize;
    let mut note = |i: usize, bad: bool| {
        if bad {
            count += 1;
            first.get_or_insert(i);
        }
    };
    let float_ok = |x: f64, y: f64| -> bool {
        match how {
            Compare::Exact => same_float(x, y),
            Compare::Almost(t) => almost_float(x, y, t),
            Compare::Ulps { min, max } => {
                let Some(fmt) = fmt else { return same_float(x, y) };
                let d = ulp_difference(fmt, x, y);
                (min..=max).contains(&d)
            }
        }
    };
    match (&actual.data, &expected.data) {
        (Data::Bool(a), Data::Bool(b)) => a.iter().zip(b).enumerate().for_each(|(i, (x, y))| note(i, x != y)),
        (Data::Int(a), Data::Int(b)) => a.iter().zip(b).enumerate().for_each(|(i, (x, y))| note(i, x != y)),
        (Data::UInt(a), Data::UInt(b)) => a.iter().zip(b).enumerate().for_each(|(i, (x, y))| note(i, x != y)),
        (Data::Float(a), Data::Float(b)) => {
            a.iter().zip(b).enumerate().for_each(|(i, (&x, &y))| note(i, !float_ok(x, y)))
        }
        (Data::Complex(a), Data::Complex(b)) => a
            .iter()
            .zip(b)
            .enumerate()
            .for_each(|(i, (&x, &y))| note(i, !(float_ok(x.0, y.0) && float_ok(x.1, y.1)))),
        _ => {
            return fail(
                format!(
                    "element type {} (actual) vs {} (expected)",
                    elem_string(&actual.ty.elem),
                    elem_string(&expected.ty.elem)
                ),
                None,
            )
        }
    }
    let i = first?;
    let what = match how {
        Compare::Exact => "exactly".to_string(),
        Compare::Almost(t) => format!("within tolerance {t}"),
        Compare::Ulps { min, max } => format!("within {min}..={max} ULPs"),
    };
    fail(format!("{count} of {} elements differ ({what})", actual.len()), Some(i))
}

fn tensor_of(args: &[RtValue], i: usize) -> Result<&Tensor, String> {
    match args.get(i) {
        Some(RtValue::Tensor(t)) => Ok(t),
        _ => Err(format!("check operand #{i} must be a tensor")),
    }
}

fn float_attr(op: &Op, name: &str) -> Option<f64> {
    match op.attr(name)? {
        Attr::Float(v, _) => Some(*v),
        Attr::Int(v, _) => Some(*v as f64),
        _ => None,
    }
}

fn const_attr(op: &Op, actual: &Tensor) -> Result<Tensor, String> {
    let d = op.attr("value").and_then(Attr::as_dense).ok_or("check without a dense `value` attribute")?;
    let mut t = Tensor::from_dense(d)?;
    if t.ty.elem != actual.ty.elem && crate::eval::data_fits(&actual.ty.elem, &t.data) {
        t.ty.elem = actual.ty.elem.clone();
    }
    Ok(t)
}

fn ulps(op: &Op, default_max: u64) -> Compare {
    let max = op.attr("max_ulp_difference").and_then(Attr::as_int).map(|v| v.max(0) as u64).unwrap_or(default_max);
    let min = op.attr("min_ulp_difference").and_then(Attr::as_int).map(|v| v.max(0) as u64).unwrap_or(0);
    Compare::Ulps { min, max }
}

/// Evaluates one `check.*` op; Some(failure) when it fails.
pub fn eval_check_op(op: &Op, args: &[RtValue]) -> Result<Option<CheckFailure>, String> {
    let name = op.name().to_string();
    let loc = &op.loc;
    let actual = tensor_of(args, 0)?;
    Ok(match op.kind {
        OpKind::CheckExpectEq => compare_tensors(&name, loc, actual, tensor_of(args, 1)?, Compare::Exact),
        OpKind::CheckExpectEqConst => compare_tensors(&name, loc, actual, &const_attr(op, actual)?, Compare::Exact),
        OpKind::CheckExpectAlmostEq => {
            let tol = float_attr(op, "tolerance").unwrap_or(1e-4);
            compare_tensors(&name, loc, actual, tensor_of(args, 1)?, Compare::Almost(tol))
        }
        OpKind::CheckExpectAlmostEqConst => {
            let tol = float_attr(op, "tolerance").unwrap_or(1e-4);
            compare_tensors(&name, loc, actual, &const_attr(op, actual)?, Compare::Almost(tol))
        }
        OpKind::CheckExpectClose => compare_tensors(&name, loc, actual, tensor_of(args, 1)?, ulps(op, 1)),
        OpKind::CheckExpectSerializedEq => Some(CheckFailure {
            check: name,
            loc: loc.clone(),
            message: "check.expect_serialized_eq (comparison with probe files) is not supported".into(),
            index: None,
            expected: None,
            actual: None,
        }),
        _ => return Err(format!("{name} is not a check op")),
    })
}

/// `check.expect_serialized_eq`: exact comparison with the value `interpreter.probe` recorded for
/// `probe_id` on execution `iteration` (default 0).
pub fn eval_serialized_eq(
    op: &Op,
    args: &[RtValue],
    probes: &std::collections::HashMap<String, Vec<RtValue>>,
) -> Result<Option<CheckFailure>, String> {
    let name = op.name().to_string();
    let actual = tensor_of(args, 0)?;
    let id = match op.attr("probe_id") {
        Some(Attr::Str(s)) => s.clone(),
        _ => return Err("check.expect_serialized_eq without a `probe_id`".into()),
    };
    let iteration = op.attr("iteration").and_then(Attr::as_int).unwrap_or(0).max(0) as usize;
    let fail = |message: String| CheckFailure { check: name.clone(), loc: op.loc.clone(), message, index: None, expected: None, actual: None };
    let Some(recorded) = probes.get(&id) else {
        return Ok(Some(fail(format!("no interpreter.probe with probe_id \"{id}\" ran"))));
    };
    let Some(RtValue::Tensor(expected)) = recorded.get(iteration) else {
        return Ok(Some(fail(format!("probe \"{id}\" has {} recorded values, none for iteration {iteration}", recorded.len()))));
    };
    if expected.ty != actual.ty {
        return Ok(Some(fail(format!("probe \"{id}\" recorded a different type than the checked value"))));
    }
    Ok(compare_tensors(&name, &op.loc, actual, expected, Compare::Exact))
}

/// The built-in `@check.*` custom call targets.
pub fn custom_call_check(ctx: &mut CustomCallCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let actual = tensor_of(args, 0)?;
    let expected = tensor_of(args, 1)?;
    let is_float = actual.ty.elem.is_float() || actual.ty.elem.is_complex();
    let how = match ctx.target {
        "check.eq" if is_float => Compare::Almost(1e-4),
        "check.eq" | "check.expect_eq" => Compare::Exact,
        "check.expect_almost_eq" => Compare::Almost(float_attr(ctx.op, "tolerance").unwrap_or(1e-4)),
        "check.expect_close" if is_float => ulps(ctx.op, 3),
        "check.expect_close" => Compare::Exact,
        other => return Err(format!("unknown check target {other}")),
    };
    *ctx.checks_run += 1;
    let name = format!("custom_call @{}", ctx.target);
    let failure = compare_tensors(&name, &ctx.op.loc, actual, expected, how);
    let ok = failure.is_none();
    if let Some(f) = failure {
        ctx.failures.push(f);
    }
    Ok(ctx
        .result_types
        .iter()
        .map(|_| RtValue::Tensor(Tensor { ty: TensorType::new(vec![], ElementType::Bool), data: Data::Bool(vec![ok]) }))
        .collect())
}

/// The outcome of one test case.
#[derive(Clone, Debug, PartialEq)]
pub enum CaseOutcome {
    Passed,
    /// One or more checks failed.
    Failed(Vec<CheckFailure>),
    /// The case did not parse or did not run to the end.
    Error(String),
}

/// One case of a test file.
#[derive(Clone, Debug, PartialEq)]
pub struct CaseResult {
    /// 0-based position of the case in the file.
    pub index: usize,
    /// 1-based line of the file where the case starts.
    pub line: usize,
    /// Number of checks evaluated.
    pub checks: usize,
    pub outcome: CaseOutcome,
}

impl CaseResult {
    pub fn passed(&self) -> bool {
        self.outcome == CaseOutcome::Passed
    }
}

/// The results of a test file.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct TestReport {
    pub file: String,
    pub cases: Vec<CaseResult>,
}

impl TestReport {
    pub fn passed(&self) -> usize {
        self.cases.iter().filter(|c| c.passed()).count()
    }
    pub fn failed(&self) -> usize {
        self.cases.len() - self.passed()
    }
    /// One line per failing case (which check, expected vs got, first differing index) and the closing
    /// `N passed, M failed` line.
    pub fn render(&self) -> String {
        let mut s = String::new();
        for c in self.cases.iter().filter(|c| !c.passed()) {
            let head = format!("{}:{}: case {}", self.file, c.line, c.index);
            match &c.outcome {
                CaseOutcome::Passed => {}
                CaseOutcome::Error(e) => s.push_str(&format!("FAIL {head}: {e}\n")),
                CaseOutcome::Failed(fs) => {
                    for f in fs {
                        s.push_str(&format!("FAIL {head}: {f}"));
                        if let (Some(i), Some(e), Some(a)) = (&f.index, &f.expected, &f.actual) {
                            s.push_str(&format!("; first difference at index {i:?}: expected {e}, got {a}"));
                        }
                        s.push('\n');
                    }
                }
            }
        }
        s.push_str(&format!("{} passed, {} failed\n", self.passed(), self.failed()));
        s
    }
}

/// Runs one parsed case: its entry function with no arguments, collecting check results.
pub fn run_case(module: &Module) -> Result<(usize, Vec<CheckFailure>), String> {
    let func = module.entry().ok_or("the case has no @main and no single function to run")?;
    if !func.ty.inputs.is_empty() {
        return Err(format!("@{} takes {} arguments; test entry points take none", func.name, func.ty.inputs.len()));
    }
    on_big_stack(|| {
        let mut it = Interpreter::new(module);
        it.run_func(&func.name, Vec::new())?;
        Ok((it.checks_run, std::mem::take(&mut it.check_failures)))
    })
    .and_then(|r| r)
    .map_err(|e: crate::InterpError| e.to_string())
}

/// Parses one case with the text parser (diagnostics rendered as `FILE:LINE:COL: error: ...`).
pub fn parse_source(src: &str, filename: &str) -> Result<Module, String> {
    oxhlo_text::parse_module(src, filename).map_err(|d| d.to_string())
}

/// Parses, verifies (the spec's constraints) and runs every case of a test file.
pub fn run_test_source(src: &str, filename: &str) -> TestReport {
    run_test_source_with(src, filename, &run_case)
}

/// What a case runner returns: the number of checks evaluated and the failed ones, or an error message.
pub type CaseRun = Result<(usize, Vec<CheckFailure>), String>;

/// Runs every case of a test file with another case runner (a fast backend, an optimization level):
/// `run` gets each parsed, verified case and returns the number of checks evaluated and the failures.
pub fn run_test_source_with(
    src: &str,
    filename: &str,
    run: &dyn Fn(&Module) -> CaseRun,
) -> TestReport {
    let mut report = TestReport { file: filename.to_string(), cases: Vec::new() };
    for (index, (line, text)) in oxhlo_text::split_input(src).into_iter().enumerate() {
        if text.lines().all(|l| l.trim().is_empty() || l.trim_start().starts_with("//")) {
            continue;
        }
        let parsed = oxhlo_text::parse_module_at(text, filename, line)
            .map_err(|d| format!("parse error: {d}"))
            .and_then(|m| oxhlo_ir::verify_module(&m).map(|()| m).map_err(|d| format!("verification error: {d}")));
        let (checks, outcome) = match parsed {
            Err(e) => (0, CaseOutcome::Error(e)),
            Ok(module) => match run(&module) {
                Err(e) => (0, CaseOutcome::Error(e)),
                Ok((n, f)) if f.is_empty() => (n, CaseOutcome::Passed),
                Ok((n, f)) => (n, CaseOutcome::Failed(f)),
            },
        };
        report.cases.push(CaseResult { index, line, checks, outcome });
    }
    report
}

/// The results of a folder of test files run by [`run_conformance_dir`].
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ConformanceSummary {
    /// One report per file, in file-name order (each named `<folder's parent>/<folder>/<file>`).
    pub reports: Vec<TestReport>,
    /// The `CONFORMANCE_FILTER` substring the files were chosen by (empty: every file).
    pub filter: String,
}

impl ConformanceSummary {
    /// Cases that passed, over every file.
    pub fn passed(&self) -> usize {
        self.reports.iter().map(TestReport::passed).sum()
    }
    /// Cases that failed or did not run, over every file.
    pub fn failed(&self) -> usize {
        self.reports.iter().map(TestReport::failed).sum()
    }
    /// Checks evaluated, over every case of every file.
    pub fn checks(&self) -> usize {
        self.reports.iter().flat_map(|r| &r.cases).map(|c| c.checks).sum()
    }
    /// Every failing case as `FAIL FILE:LINE: case N: ...` lines (see [`TestReport::render`]), followed
    /// by its file's `N passed, M failed` line; empty when nothing failed.
    pub fn failures(&self) -> String {
        self.reports.iter().filter(|r| r.failed() > 0).map(TestReport::render).collect()
    }
}

/// Runs every `*.mlir` file of `dir` (in name order; only the names containing the `CONFORMANCE_FILTER`
/// environment variable's value when it is set) through `run` as [`run_test_source_with`] does, printing
/// one `FILE: N passed, M failed` line per file. Fails when the folder or a file cannot be read, or when
/// no file is chosen.
pub fn run_conformance_dir(dir: &Path, run: &dyn Fn(&Module) -> CaseRun) -> Result<ConformanceSummary, String> {
    let filter = std::env::var("CONFORMANCE_FILTER").unwrap_or_default();
    let entries = std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    let mut files: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        .filter(|p| p.to_string_lossy().contains(&filter))
        .collect();
    files.sort();
    if files.is_empty() {
        let chosen = if filter.is_empty() { String::new() } else { format!(" matching CONFORMANCE_FILTER={filter:?}") };
        return Err(format!("no conformance files{chosen} in {}", dir.display()));
    }
    // Files are named from the folder's last two components (`tests/conformance/x.mlir`), wherever the
    // caller's manifest is.
    let names: Vec<String> = dir.iter().rev().take(2).map(|c| c.to_string_lossy().into_owned()).collect();
    let prefix: String = names.iter().rev().map(|c| format!("{c}/")).collect();
    let mut summary = ConformanceSummary { reports: Vec::with_capacity(files.len()), filter };
    for f in &files {
        let src = std::fs::read_to_string(f).map_err(|e| format!("cannot read {}: {e}", f.display()))?;
        let name = f.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let report = run_test_source_with(&src, &format!("{prefix}{name}"), run);
        println!("{name}: {} passed, {} failed", report.passed(), report.failed());
        summary.reports.push(report);
    }
    Ok(summary)
}
