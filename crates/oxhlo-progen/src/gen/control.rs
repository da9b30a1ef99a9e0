//! Control-flow and call emitters of the generator: `func.call` of a private helper function (JAX's
//! `_where`-style helpers, for the inliner) and `stablehlo.if` with computations in both branches.

use super::{Gen, Ty, Val, E};

impl Gen<'_> {
    /// `%r = func.call @fN(%a, %b)` of a new private function computing `unary(binary(a, b))`.
    pub(super) fn call(&mut self) {
        let a = self.any();
        let b = self.same_type(&a.ty);
        let ts = a.ty.s();
        let bn = self.binary_name(a.ty.e);
        let un = self.unary_name(a.ty.e);
        let name = format!("f{}", self.funcs.len());
        self.funcs.push(format!(
            "func.func private @{name}(%x: {ts}, %y: {ts}) -> {ts} {{\n  %0 = stablehlo.{bn} %x, %y : {ts}\n  %1 = stablehlo.{un} %0 : {ts}\n  return %1 : {ts}\n}}\n"
        ));
        self.op(format!("func.call @{name}({}, {}) : ({ts}, {ts}) -> {ts}", a.name, b.name), a.ty);
    }

    /// `stablehlo.if` on a scalar predicate computed from a pool value; each branch computes something.
    pub(super) fn if_op(&mut self) {
        let a = self.any();
        let t = a.ty.clone();
        let ts = t.s();
        // predicate: a scalar boolean from a slice-free source: a fresh comparison of two scalars
        let s = Ty::new(Vec::new(), E::I32);
        let lhs = self.same_type(&s);
        let lit = self.scalar_text(E::I32);
        let rhs = self.op(format!("stablehlo.constant dense<{lit}> : tensor<i32>"), s);
        let p = self.op(
            format!("stablehlo.compare GT, {}, {}, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>", lhs.name, rhs.name),
            Ty::new(Vec::new(), E::Bool),
        );
        let r = self.fresh();
        self.emit(format!("{r} = \"stablehlo.if\"({}) ({{", p.name));
        self.indent += 1;
        let saved = self.pool.len();
        let un = self.unary_name(t.e);
        let x = self.op(format!("stablehlo.{un} {} : {ts}", a.name), t.clone());
        self.emit(format!("\"stablehlo.return\"({}) : ({ts}) -> ()", x.name));
        self.pool.truncate(saved);
        self.indent -= 1;
        self.emit("}, {".to_string());
        self.indent += 1;
        let b = self.same_type(&t);
        let bn = self.binary_name(t.e);
        let y = self.op(format!("stablehlo.{bn} {}, {} : {ts}", a.name, b.name), t.clone());
        self.emit(format!("\"stablehlo.return\"({}) : ({ts}) -> ()", y.name));
        self.indent -= 1;
        self.pool.truncate(saved);
        self.emit(format!("}}) : (tensor<i1>) -> {ts}"));
        self.pool.push(Val { name: r, ty: t, konst: false });
    }
}
