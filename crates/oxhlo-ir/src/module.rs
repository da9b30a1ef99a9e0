//! Modules and functions: `module attributes {...} { func.func ... }`, each function owning the arena of
//! the values defined anywhere inside it.

use crate::attr::{Attr, NamedAttr};
use crate::body::{walk_ops, Op, Region, Value};
use crate::location::Location;
use crate::types::{FunctionType, Type};

/// `public` / `private` / `nested` symbol visibility of a function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Visibility {
    #[default]
    Public,
    Private,
    Nested,
}

/// A `func.func`.
#[derive(Clone, Debug, PartialEq)]
pub struct Func {
    pub name: String,
    pub visibility: Visibility,
    pub ty: FunctionType,
    /// Per-argument attributes (`{jax.arg_info = ...}`), one list per argument.
    pub arg_attrs: Vec<Vec<NamedAttr>>,
    /// Per-result attributes, one list per result.
    pub res_attrs: Vec<Vec<NamedAttr>>,
    /// Other attributes of the function op.
    pub attrs: Vec<NamedAttr>,
    /// The body; empty for a declaration. The entry block's arguments are the function's arguments.
    pub body: Region,
    /// Types of every value defined in this function, indexed by [`Value`].
    pub values: Vec<Type>,
    pub loc: Location,
}

impl Func {
    /// An empty function with the given signature (no body yet).
    pub fn new(name: impl Into<String>, ty: FunctionType) -> Func {
        let n_in = ty.inputs.len();
        let n_out = ty.results.len();
        Func {
            name: name.into(),
            visibility: Visibility::Public,
            ty,
            arg_attrs: vec![Vec::new(); n_in],
            res_attrs: vec![Vec::new(); n_out],
            attrs: Vec::new(),
            body: Region::default(),
            values: Vec::new(),
            loc: Location::Unknown,
        }
    }

    /// Defines a new value of type `ty`.
    pub fn new_value(&mut self, ty: Type) -> Value {
        self.values.push(ty);
        Value((self.values.len() - 1) as u32)
    }

    /// The type of a value of this function.
    pub fn ty(&self, v: Value) -> &Type {
        &self.values[v.0 as usize]
    }

    /// The type of a value, or None for an id that is not in this function.
    pub fn try_ty(&self, v: Value) -> Option<&Type> {
        self.values.get(v.0 as usize)
    }

    /// The function's argument values (the entry block's arguments).
    pub fn args(&self) -> &[Value] {
        self.body.entry().map(|b| b.args.as_slice()).unwrap_or(&[])
    }

    /// Visits every op of the body.
    pub fn walk(&self, f: &mut dyn FnMut(&Op)) {
        walk_ops(&self.body, f)
    }
}

/// A `module`.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Module {
    /// `module @name`
    pub name: Option<String>,
    /// `module attributes {mhlo.num_replicas = 1 : i32, ...}`
    pub attrs: Vec<NamedAttr>,
    pub funcs: Vec<Func>,
    /// Module-level ops other than functions (e.g. `sdy.mesh`), kept so nothing is lost; they define no values.
    pub other_ops: Vec<Op>,
    pub loc: Location,
}

impl Module {
    /// Whether any op of any function (nested regions included) satisfies `pred`.
    pub fn any_op(&self, pred: impl Fn(&Op) -> bool) -> bool {
        let mut found = false;
        for f in &self.funcs {
            f.walk(&mut |op| found = found || pred(op));
        }
        found
    }

    /// The function named `name`.
    pub fn func(&self, name: &str) -> Option<&Func> {
        self.funcs.iter().find(|f| f.name == name)
    }

    /// The entry point: `@main`, else the only public function, else the only function.
    pub fn entry(&self) -> Option<&Func> {
        if let Some(f) = self.func("main") {
            return Some(f);
        }
        let public: Vec<&Func> = self.funcs.iter().filter(|f| f.visibility == Visibility::Public).collect();
        match (public.len(), self.funcs.len()) {
            (1, _) => Some(public[0]),
            (_, 1) => self.funcs.first(),
            _ => None,
        }
    }

    /// A module attribute.
    pub fn attr(&self, name: &str) -> Option<&Attr> {
        self.attrs.iter().find(|(n, _)| n == name).map(|(_, a)| a)
    }

    /// `mhlo.num_replicas` (1 if absent).
    pub fn num_replicas(&self) -> i64 {
        self.attr("mhlo.num_replicas").and_then(Attr::as_int).unwrap_or(1)
    }

    /// `mhlo.num_partitions` (1 if absent).
    pub fn num_partitions(&self) -> i64 {
        self.attr("mhlo.num_partitions").and_then(Attr::as_int).unwrap_or(1)
    }

    /// A copy with every location set to Unknown, for comparing modules by meaning.
    pub fn without_locations(&self) -> Module {
        let mut m = self.clone();
        m.loc = Location::Unknown;
        for op in &mut m.other_ops {
            strip_op(op);
        }
        for f in &mut m.funcs {
            f.loc = Location::Unknown;
            strip_region(&mut f.body);
        }
        m
    }
}

fn strip_region(r: &mut Region) {
    for b in &mut r.blocks {
        for op in &mut b.ops {
            strip_op(op);
        }
    }
}

fn strip_op(op: &mut Op) {
    op.loc = Location::Unknown;
    for r in &mut op.regions {
        strip_region(r);
    }
}
