//! Parse errors are reported as `FILE:LINE:COL: error: message`, pointing at the offending token; `// -----`
//! chunks keep the file's line numbers; ops keep the location of their text (or their `loc(...)`).

use oxhlo_ir::Location;
use oxhlo_text::{parse_module, parse_split};

fn err(src: &str) -> String {
    match parse_module(src, "t.mlir") {
        Ok(_) => panic!("expected a parse error for:\n{src}"),
        Err(d) => d.to_string(),
    }
}

fn wrap(body: &str) -> String {
    format!("func.func @main(%arg0: tensor<2xf32>, %arg1: tensor<i32>) -> tensor<2xf32> {{\n{body}\n}}\n")
}

#[track_caller]
fn check(src: &str, want: &str) {
    let got = err(src);
    assert_eq!(got, want, "source:\n{src}");
}

#[test]
fn undefined_value() {
    check(&wrap("  %0 = stablehlo.add %arg0, %nope : tensor<2xf32>\n  return %0 : tensor<2xf32>"), "t.mlir:2:29: error: use of undeclared SSA value '%nope'");
}

#[test]
fn type_mismatch_with_definition() {
    check(
        &wrap("  %0 = stablehlo.add %arg0, %arg0 : tensor<3xf32>"),
        "t.mlir:2:22: error: use of value '%arg0' expects different type than prior uses: 'tensor<3xf32>' vs 'tensor<2xf32>'",
    );
}

#[test]
fn redefinition() {
    check(&wrap("  %0 = stablehlo.abs %arg0 : tensor<2xf32>\n  %0 = stablehlo.abs %arg0 : tensor<2xf32>"), "t.mlir:3:3: error: redefinition of SSA value '%0'");
}

#[test]
fn unknown_op() {
    check(&wrap("  %0 = stablehlo.frobnicate %arg0 : tensor<2xf32>"), "t.mlir:2:8: error: unknown operation 'stablehlo.frobnicate' (ops of other dialects must use the generic form \"dialect.op\"(...))");
}

#[test]
fn generic_only_op_in_pretty_form() {
    check(&wrap("  %0 = stablehlo.sort %arg0 : tensor<2xf32>"), "t.mlir:2:23: error: 'stablehlo.sort' has no pretty form; write it in the generic form \"stablehlo.sort\"(...)");
}

#[test]
fn result_count_mismatch() {
    check(&wrap("  %0:2 = stablehlo.abs %arg0 : tensor<2xf32>"), "t.mlir:2:3: error: operation defines 1 results but was provided 2 to bind");
}

#[test]
fn bad_type() {
    check(&wrap("  %0 = stablehlo.abs %arg0 : tensor<2xf33>"), "t.mlir:2:39: error: unknown type 'f33'");
    check(&wrap("  %0 = stablehlo.abs %arg0 : tensor<2x>"), "t.mlir:2:39: error: expected an element type, found '>'");
    check(&wrap("  %0 = stablehlo.abs %arg0 : tensor<2xi128>"), "t.mlir:2:39: error: unsupported integer type 'i128' (oxhlo supports i1 and 2 to 64 bit integers)");
}

#[test]
fn dense_literal_errors() {
    check(&wrap("  %0 = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<2xf32>"), "t.mlir:2:27: error: dense literal shape [3] does not match the type's shape [2]");
    check(&wrap("  %0 = stablehlo.constant dense<[[1], [2, 3]]> : tensor<2x2xi32>"), "t.mlir:2:39: error: dense literal lists have different lengths (1 vs 2)");
    check(&wrap("  %0 = stablehlo.constant dense<300> : tensor<2xi8>"), "t.mlir:2:33: error: integer constant out of range for the element type");
    check(&wrap("  %0 = stablehlo.constant dense<\"0x0000\"> : tensor<2xf32>"), "t.mlir:2:33: error: hex dense literal has 2 bytes, expected 8 (2 elements of 4 bytes) or 4");
    check(&wrap("  %0 = stablehlo.constant dense<0x1FFFF> : tensor<2xf16>"), "t.mlir:2:33: error: hex float literal does not fit in f16");
    check(&wrap("  %0 = stablehlo.constant dense<1.0> : tensor<?xf32>"), "t.mlir:2:40: error: dense literals need a static shape");
}

#[test]
fn syntax_errors() {
    check(&wrap("  %0 = stablehlo.add %arg0 %arg0 : tensor<2xf32>"), "t.mlir:2:28: error: expected ':' and the type, found '%arg0'");
    check(&wrap("  %0 = stablehlo.compare XX, %arg0, %arg0 : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>"), "t.mlir:2:26: error: unknown comparison direction 'XX'");
    check(&wrap("  %0 = stablehlo.dot_general %arg0, %arg0, contracting_dims = [0] [0] : (tensor<2xf32>, tensor<2xf32>) -> tensor<f32>"), "t.mlir:2:67: error: expected 'x' between the lhs and rhs dimensions, found '['");
    check("func.func @f() {\n  %0 = \"stablehlo.constant\"() {value = dense<1.0> : tensor<f32> : () -> tensor<f32>\n}", "t.mlir:2:65: error: expected ',' or the end of the dictionary, found ':'");
    check("func.func @f() {\n  return\n", "t.mlir:3:1: error: expected '}' closing the region, found end of input");
    check("func.func @f() {\n  %0 = \"a.b\"() : () -> tensor<f32>\n  \"x\n}", "t.mlir:3:3: error: unterminated string literal");
    check("func.func @f() {\n  %0 = stablehlo.constant dense<1.0> : tensor<f32> ~\n}", "t.mlir:2:52: error: unexpected character");
    check("module {\n  func.func @f() {\n    return\n  }\n  func.func @f() {\n    return\n  }\n}", "t.mlir:5:13: error: redefinition of symbol named 'f'");
}

#[test]
fn alias_errors() {
    check("func.func @f(%a: !nope) {\n  return\n}", "t.mlir:1:18: error: undefined type alias '!nope'");
    check("func.func @f() attributes {a = #nope} {\n  return\n}", "t.mlir:1:32: error: undefined attribute alias '#nope'");
    check("func.func @f() {\n  return loc(#missing)\n}", "t.mlir:2:3: error: undefined location alias '#missing'");
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let src = format!("func.func @f(%a: {}f32{}) {{\n  return\n}}", "tuple<".repeat(5000), ">".repeat(5000));
    let e = err(&src);
    assert!(e.starts_with("t.mlir:1:") && e.contains("nesting is deeper than"), "{e}");
    let src = format!("func.func @f() attributes {{a = {}1{}}} {{\n  return\n}}", "[".repeat(100000), "]".repeat(100000));
    assert!(err(&src).contains("nesting is deeper than"));
}

#[test]
fn split_input_keeps_file_lines() {
    let src = "func.func @a() {\n  return\n}\n// -----\n\nfunc.func @b() {\n  %0 = stablehlo.abs %x : tensor<f32>\n}\n// -----\nfunc.func @c() {\n  return\n}\n";
    let results = parse_split(src, "s.mlir");
    assert_eq!(results.len(), 3);
    assert!(results[0].is_ok() && results[2].is_ok());
    let e = results[1].as_ref().unwrap_err().to_string();
    assert_eq!(e, "s.mlir:7:22: error: use of undeclared SSA value '%x'");
    // Locations of ops in later chunks use the file's line numbers too.
    let m = results[2].as_ref().unwrap();
    let ret = &m.funcs[0].body.blocks[0].ops[0];
    assert_eq!(ret.loc, Location::file("s.mlir", 11, 3));
}

#[test]
fn op_locations() {
    let src = "func.func @f(%a: tensor<f32>) -> tensor<f32> {\n  %0 = stablehlo.abs %a : tensor<f32>\n  %1 = stablehlo.abs %0 : tensor<f32> loc(\"model.py\":7:9)\n  %2 = stablehlo.abs %1 : tensor<f32> loc(\"jit(f)/abs\")\n  %3 = stablehlo.abs %2 : tensor<f32> loc(#l2)\n  return %3 : tensor<f32> loc(unknown)\n}\n#l1 = loc(\"model.py\":3:1)\n#l2 = loc(\"outer\"(#l1))\n";
    let m = parse_module(src, "m.mlir").unwrap();
    let ops = &m.funcs[0].body.blocks[0].ops;
    assert_eq!(ops[0].loc, Location::file("m.mlir", 2, 8));
    assert_eq!(ops[1].loc, Location::file("model.py", 7, 9));
    assert_eq!(ops[2].loc, Location::Name { name: "jit(f)/abs".into(), child: Box::new(Location::file("m.mlir", 4, 8)) });
    assert_eq!(ops[3].loc, Location::Name { name: "outer".into(), child: Box::new(Location::file("model.py", 3, 1)) });
    assert_eq!(ops[4].loc, Location::file("m.mlir", 6, 3));
    assert_eq!(ops[3].loc.to_string(), "model.py:3:1");
}
