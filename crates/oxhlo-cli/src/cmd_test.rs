//! `oxhlo test FILE.mlir|DIR...`: run StableHLO-style test files (cases split on `// -----`, `check.*` ops)
//! on the CPU backend (default, `-O2`) or the reference interpreter (`--backend interp`); prints one line
//! per failing case and `N passed, M failed`.
//!
//! A file whose `// RUN:` line interprets it with arguments (upstream's
//! `stablehlo-translate %s --interpret --args="[dense<1> : tensor<2xi32>, ...]" | FileCheck %s`) is one
//! case: `@main` runs on those arguments, its results are printed as upstream's interpreter prints them
//! (`tensor<2xi32> {\n  [3, 3]\n}`) and matched against the file's `// CHECK:` / `// CHECK-NEXT:` lines
//! (plain text, whitespace-insensitive, numbers compared by value so `3.0` matches `3.000000e+00`).
//! `--args=@file`, expected-failure (`not ...`) RUN lines and other FileCheck prefixes are not supported
//! (such RUN lines are ignored).

use crate::args::Args;
use std::path::{Path, PathBuf};

pub fn run(argv: &[String]) -> Result<bool, String> {
    let argv = crate::engine::normalize(argv);
    let flags = [&["quiet"], crate::engine::FLAGS].concat();
    let args = Args::parse(&argv, &flags, crate::engine::OPTIONS)?;
    let engine = crate::engine::Choice::from_args(&args)?;
    if args.positional.is_empty() {
        return Err("test: give one or more .mlir files or directories".into());
    }
    let mut files = Vec::new();
    for p in &args.positional {
        collect(Path::new(p), &mut files)?;
    }
    let (mut passed, mut failed) = (0usize, 0usize);
    for f in &files {
        let src = std::fs::read_to_string(f).map_err(|e| format!("{}: {e}", f.display()))?;
        if let Some(run_args) = args_of_run_line(&src) {
            match run_with_args(&engine, &src, &f.display().to_string(), run_args) {
                Ok(()) => passed += 1,
                Err(e) => {
                    println!("FAIL {}: {e}", f.display());
                    failed += 1;
                }
            }
            continue;
        }
        let runner = |m: &oxhlo_ir::Module| engine.prepare(m)?.run_case();
        let report = oxhlo_interp::testing::run_test_source_with(&src, &f.display().to_string(), &runner);
        passed += report.passed();
        failed += report.failed();
        if report.failed() > 0 {
            print!("{}", report.render());
        }
    }
    println!("{passed} passed, {failed} failed");
    Ok(failed == 0)
}

/// Adds a file, or every `.mlir` file under a directory (sorted), to `out`.
fn collect(p: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    if p.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(p)
            .map_err(|e| format!("{}: {e}", p.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for e in entries {
            if e.is_dir() || e.extension().is_some_and(|x| x == "mlir") {
                collect(&e, out)?;
            }
        }
        Ok(())
    } else if p.exists() {
        out.push(p.to_path_buf());
        Ok(())
    } else {
        Err(format!("{}: no such file or directory", p.display()))
    }
}

/// The `--args` list of the file's first `// RUN:` line that interprets it with arguments.
fn args_of_run_line(src: &str) -> Option<&str> {
    src.lines().filter_map(|l| l.trim_start().strip_prefix("// RUN:")).map(str::trim).find_map(|cmd| {
        if cmd.starts_with("not ") || !cmd.contains("--interpret") {
            return None;
        }
        let rest = &cmd[cmd.find("--args=")? + "--args=".len()..];
        match rest.strip_prefix('"') {
            Some(q) => Some(&q[..q.find('"')?]),
            None => Some(rest.split_whitespace().next().unwrap_or("")),
        }
    })
}

/// Splits `text` at top-level commas (outside `<>`, `[]`, `()`).
fn split_top(text: &str) -> Vec<&str> {
    let (mut depth, mut start, mut out) = (0i32, 0, Vec::new());
    for (i, c) in text.char_indices() {
        match c {
            '<' | '[' | '(' => depth += 1,
            '>' | ']' | ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(text[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(text[start..].trim());
    out.into_iter().filter(|s| !s.is_empty()).collect()
}

/// The values of an `--args` list `[dense<...> : tensor<...>, ...]`, evaluated as constants.
fn parse_args(list: &str) -> Result<Vec<oxhlo_interp::RtValue>, String> {
    let usage = "i.e. --args=[dense<1> : tensor<2xi32>, ...]";
    if list.starts_with('@') {
        return Err("--args=@file is not supported".into());
    }
    let inner = list
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .ok_or_else(|| format!("expected an array attribute string for args, {usage}"))?;
    let (mut body, mut types) = (String::new(), Vec::new());
    for (i, item) in split_top(inner).into_iter().enumerate() {
        let ty = item.rfind(" : ").map(|k| item[k + 3..].trim()).filter(|_| item.starts_with("dense<"));
        let ty = ty.ok_or_else(|| format!("expected dense elements attributes as args, {usage}; got `{item}`"))?;
        body.push_str(&format!("  %a{i} = stablehlo.constant {item}\n"));
        types.push(ty.to_string());
    }
    let names: Vec<String> = (0..types.len()).map(|i| format!("%a{i}")).collect();
    let ret = if types.is_empty() { String::from("  return\n") } else { format!("  return {} : {}\n", names.join(", "), types.join(", ")) };
    let text = format!("func.func @main() -> ({}) {{\n{body}{ret}}}\n", types.join(", "));
    let module = oxhlo_interp::testing::parse_source(&text, "--args").map_err(|e| format!("bad --args: {e}"))?;
    oxhlo_interp::run_main(&module, Vec::new()).map_err(|e| format!("bad --args: {e}"))
}

/// Runs `@main` of the whole file on the RUN line's arguments and matches its printed results against
/// the file's CHECK lines.
fn run_with_args(engine: &crate::engine::Choice, src: &str, file: &str, list: &str) -> Result<(), String> {
    let inputs = parse_args(list)?;
    let module = oxhlo_interp::testing::parse_source(src, file)?;
    oxhlo_ir::verify_module(&module).map_err(|d| format!("verification error: {d}"))?;
    let results = engine.prepare(&module)?.run(inputs).map_err(|e| e.to_string())?;
    let mut out = String::new();
    for r in &results {
        print_value(r, &mut out);
        out.push('\n');
    }
    file_check(src, &out)
}

/// A value as upstream's interpreter prints it: the type, then the elements nested by dimension.
fn print_value(v: &oxhlo_interp::RtValue, out: &mut String) {
    use oxhlo_interp::RtValue;
    match v {
        RtValue::Token => out.push_str("!stablehlo.token"),
        RtValue::Tuple(items) => {
            out.push('(');
            for (i, it) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                print_value(it, out);
            }
            out.push(')');
        }
        RtValue::Tensor(t) => {
            out.push_str(&oxhlo_interp::testing::type_string(&t.ty));
            out.push_str(" {");
            let shape: Vec<usize> = t.shape().iter().map(|&d| d.max(0) as usize).collect();
            let mut flat = 0;
            print_nested(t, &shape, 0, 1, &mut flat, out);
            out.push('}');
        }
    }
}

/// upstream's `printHelper`: a bracketed row per dimension, one row per line.
fn print_nested(t: &oxhlo_interp::Tensor, shape: &[usize], dim: usize, indent: usize, flat: &mut usize, out: &mut String) {
    if dim == shape.len() {
        out.push_str(&oxhlo_interp::testing::fmt_elem(&t.data, *flat, &t.ty.elem));
        *flat += 1;
        return;
    }
    out.push('\n');
    out.push_str(&"  ".repeat(indent));
    out.push('[');
    for i in 0..shape[dim] {
        print_nested(t, shape, dim + 1, indent + 1, flat, out);
        if dim + 1 == shape.len() && i + 1 < shape[dim] {
            out.push_str(", ");
        } else if dim + 1 < shape.len() && i + 1 < shape[dim] {
            out.push(',');
        }
    }
    if dim + 1 < shape.len() {
        out.push('\n');
        out.push_str(&"  ".repeat(indent));
    }
    out.push(']');
    if dim == 0 {
        out.push('\n');
    }
}

/// A line's tokens: numbers (compared by value), words and single punctuation characters.
#[derive(Debug)]
enum Tok<'a> {
    Num(f64),
    Text(&'a str),
}

fn tokens(line: &str) -> Vec<Tok<'_>> {
    let b = line.as_bytes();
    let (mut i, mut out) = (0, Vec::new());
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() || ((c == b'-' || c == b'+') && b.get(i + 1).is_some_and(u8::is_ascii_digit)) {
            let start = i;
            i += 1;
            while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.') {
                i += 1;
            }
            if i < b.len() && (b[i] == b'e' || b[i] == b'E') && b.get(i + 1).is_some_and(|&d| d.is_ascii_digit() || d == b'-' || d == b'+') {
                i += 2;
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
            }
            out.push(line[start..i].parse().map_or(Tok::Text(&line[start..i]), Tok::Num));
        } else if c.is_ascii_alphanumeric() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(Tok::Text(&line[start..i]));
        } else {
            let w = line[i..].chars().next().map_or(1, char::len_utf8);
            out.push(Tok::Text(&line[i..i + w]));
            i += w;
        }
    }
    out
}

fn same(a: &Tok, b: &Tok) -> bool {
    match (a, b) {
        (Tok::Num(x), Tok::Num(y)) => x == y,
        (Tok::Text(x), Tok::Text(y)) => x == y || (x.eq_ignore_ascii_case("nan") && y.eq_ignore_ascii_case("nan")),
        _ => false,
    }
}

/// Whether `pattern`'s tokens occur contiguously in `line`'s.
fn line_matches(line: &str, pattern: &str) -> bool {
    let (l, p) = (tokens(line), tokens(pattern));
    p.is_empty() || l.windows(p.len()).any(|w| w.iter().zip(&p).all(|(a, b)| same(a, b)))
}

/// FileCheck's `CHECK:` (a later line) and `CHECK-NEXT:` (the next line) over `output`.
fn file_check(src: &str, output: &str) -> Result<(), String> {
    let lines: Vec<&str> = output.lines().collect();
    let mut pos = 0;
    let mut any = false;
    for l in src.lines() {
        let l = l.trim_start();
        let (next, pattern) = if let Some(p) = l.strip_prefix("// CHECK:") {
            (false, p)
        } else if let Some(p) = l.strip_prefix("// CHECK-NEXT:") {
            (true, p)
        } else {
            continue;
        };
        any = true;
        let found = if next {
            lines.get(pos).filter(|x| line_matches(x, pattern)).map(|_| pos)
        } else {
            (pos..lines.len()).find(|&i| line_matches(lines[i], pattern))
        };
        match found {
            Some(i) => pos = i + 1,
            None => {
                return Err(format!(
                    "CHECK{}:{} not found {}; the output was:\n{output}",
                    if next { "-NEXT" } else { "" },
                    pattern,
                    if next { "on the next line" } else { "in the rest of the output" }
                ))
            }
        }
    }
    if !any {
        return Err("the RUN line passes --args but the file has no CHECK lines".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_args_from_the_run_line() {
        let src = "// RUN: stablehlo-translate %s --interpret --args=\"[dense<1> : tensor<2xi32>, dense<2> : tensor<2xi32>]\" | FileCheck %s\n\
                   // RUN: not stablehlo-translate %s --interpret --args=\"not_array\" 2>&1 | FileCheck %s\n";
        let list = args_of_run_line(src).unwrap();
        assert_eq!(list, "[dense<1> : tensor<2xi32>, dense<2> : tensor<2xi32>]");
        assert_eq!(split_top(&list[1..list.len() - 1]), vec!["dense<1> : tensor<2xi32>", "dense<2> : tensor<2xi32>"]);
        assert!(args_of_run_line("// RUN: stablehlo-translate --interpret %s\n").is_none());
        assert!(parse_args("not_array").is_err());
        assert!(parse_args("[4.0 : f32]").is_err());
        assert!(parse_args("@%t.args").is_err());
    }

    #[test]
    fn prints_like_upstream_and_matches_checks() {
        let v = parse_args("[dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>, dense<5> : tensor<i64>, dense<[1.5, -2.0]> : tensor<2xf32>]").unwrap();
        let mut out = String::new();
        for r in &v {
            print_value(r, &mut out);
            out.push('\n');
        }
        assert!(out.starts_with("tensor<2x2xi32> {\n  [\n    [1, 2],\n    [3, 4]\n  ]\n}\n"), "{out}");
        assert!(out.contains("tensor<i64> {5}\n"), "{out}");
        let src = "// CHECK: tensor<2xf32> {\n// CHECK-NEXT:   [1.500000e+00, -2.000000e+00]\n// CHECK-NEXT: }\n";
        file_check(src, &out).unwrap();
        assert!(file_check("// CHECK: [1.5, -2.5]\n", &out).is_err());
        assert!(file_check("// CHECK: tensor<i64>\n// CHECK-NEXT: [3, 4]\n", &out).is_err());
    }
}
