//! A debug printer for the raw tree in MLIR's generic form (close to
//! `mlir-opt --mlir-print-op-generic --mlir-print-debuginfo`): types are printed exactly
//! as MLIR prints them; attributes readably (dense data as hex).

use std::collections::HashMap;
use std::fmt::Write;

use crate::model::{Attr, AttrId, BuiltinAttr, BuiltinType, Signedness, Type, TypeId, VhloAttr, VhloType};
use crate::raw::{Properties, RawModule, RawOp, ValueId};

/// Quotes and escapes a string the way MLIR prints string literals.
pub fn quote(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() + 2);
    s.push('"');
    for &b in bytes {
        match b {
            b'"' => s.push_str("\\\""),
            b'\\' => s.push_str("\\\\"),
            b'\n' => s.push_str("\\n"),
            b'\t' => s.push_str("\\t"),
            0x20..=0x7e => s.push(b as char),
            _ => {
                let _ = write!(s, "\\{b:02X}");
            }
        }
    }
    s.push('"');
    s
}

fn hex(data: &[u8]) -> String {
    let mut s = String::with_capacity(2 + data.len() * 2);
    s.push_str("0x");
    for b in data {
        let _ = write!(s, "{b:02X}");
    }
    s
}

fn shape(dims: &[i64]) -> String {
    dims.iter().map(|&d| if d < 0 { "?x".to_string() } else { format!("{d}x") }).collect()
}

/// Prints attributes and types of one module.
pub struct Printer<'m> {
    pub m: &'m RawModule,
}

impl Printer<'_> {
    pub fn ty(&self, id: TypeId) -> String {
        let Some(t) = self.m.ty(id) else { return format!("<bad type {}>", id.0) };
        match t {
            Type::Builtin(b) => self.builtin_type(b),
            Type::Vhlo(v) => self.vhlo_type(v),
            Type::Dialect(e) => self.dialect_type(e),
            Type::Opaque { dialect, bytes } => format!("!{dialect}<bytes {}>", hex(bytes)),
            Type::Asm { text, .. } => text.clone(),
        }
    }

    fn types(&self, ids: &[TypeId]) -> String {
        ids.iter().map(|&t| self.ty(t)).collect::<Vec<_>>().join(", ")
    }

    /// `(a, b) -> c` with MLIR's rule for parenthesizing the results.
    pub fn function_type(&self, inputs: &[TypeId], results: &[TypeId]) -> String {
        let res = match results {
            [one] if !matches!(self.m.ty(*one), Some(Type::Builtin(BuiltinType::Function { .. }))) => self.ty(*one),
            _ => format!("({})", self.types(results)),
        };
        format!("({}) -> {res}", self.types(inputs))
    }

    fn builtin_type(&self, t: &BuiltinType) -> String {
        match t {
            BuiltinType::Integer { width, signedness } => match signedness {
                Signedness::Signless => format!("i{width}"),
                Signedness::Signed => format!("si{width}"),
                Signedness::Unsigned => format!("ui{width}"),
            },
            BuiltinType::Index => "index".into(),
            BuiltinType::Function { inputs, results } => self.function_type(inputs, results),
            BuiltinType::Float(k) => k.name().into(),
            BuiltinType::Complex(e) => format!("complex<{}>", self.ty(*e)),
            BuiltinType::MemRef { shape: s, elem, layout, memory_space } => {
                let mut out = format!("memref<{}{}", shape(s), self.ty(*elem));
                let l = self.attr(*layout);
                if !is_identity_map(&l) {
                    let _ = write!(out, ", {l}");
                }
                if let Some(ms) = memory_space {
                    let _ = write!(out, ", {}", self.attr_short(*ms));
                }
                out + ">"
            }
            BuiltinType::None => "none".into(),
            BuiltinType::RankedTensor { shape: s, elem, encoding } => match encoding {
                Some(e) => format!("tensor<{}{}, {}>", shape(s), self.ty(*elem), self.attr(*e)),
                None => format!("tensor<{}{}>", shape(s), self.ty(*elem)),
            },
            BuiltinType::Tuple(ts) => format!("tuple<{}>", self.types(ts)),
            BuiltinType::UnrankedMemRef { elem, memory_space } => match memory_space {
                Some(ms) => format!("memref<*x{}, {}>", self.ty(*elem), self.attr_short(*ms)),
                None => format!("memref<*x{}>", self.ty(*elem)),
            },
            BuiltinType::UnrankedTensor(e) => format!("tensor<*x{}>", self.ty(*e)),
            BuiltinType::Vector { shape: s, elem, scalable } => {
                let dims: String = s
                    .iter()
                    .zip(scalable.iter().chain(std::iter::repeat(&false)))
                    .map(|(d, &sc)| if sc { format!("[{d}]x") } else { format!("{d}x") })
                    .collect();
                format!("vector<{dims}{}>", self.ty(*elem))
            }
        }
    }

    fn vhlo_type(&self, t: &VhloType) -> String {
        match t {
            VhloType::Bool => "!vhlo.bool_v1".into(),
            VhloType::Complex(e) => format!("!vhlo.complex_v1<{}>", self.ty(*e)),
            VhloType::Float(k) => format!("!vhlo.{}_v1", k.name()),
            VhloType::Function { inputs, outputs } => {
                let res = match outputs.as_slice() {
                    [one] => self.ty(*one),
                    _ => format!("({})", self.types(outputs)),
                };
                format!("!vhlo.func_v1<({}) -> {res}>", self.types(inputs))
            }
            VhloType::Index => "!vhlo.index_v1".into(),
            VhloType::Integer { width, unsigned } => format!("!vhlo.{}{width}_v1", if *unsigned { "ui" } else { "i" }),
            VhloType::RankedTensor { shape: s, elem, encoding } => match encoding {
                Some(e) => format!("!vhlo.tensor_v1<{}{}, {}>", shape(s), self.ty(*elem), self.attr(*e)),
                None => format!("!vhlo.tensor_v1<{}{}>", shape(s), self.ty(*elem)),
            },
            VhloType::Token => "!vhlo.token_v1".into(),
            VhloType::Tuple(ts) => format!("!vhlo.tuple_v1<{}>", self.types(ts)),
            VhloType::UniformQuantized { flags, storage, expressed, scale, zero_point, storage_min, storage_max } => format!(
                "!vhlo.quant_v1<{}:{}, {scale:e}:{zero_point}, {storage_min}:{storage_max}, flags {flags}>",
                self.ty(*storage),
                self.ty(*expressed)
            ),
            VhloType::UniformQuantizedPerAxis { flags, storage, expressed, quantized_dimension, storage_min, storage_max, scales, zero_points } => {
                format!(
                    "!vhlo.quant_per_axis_v1<{}:{}:{quantized_dimension}, {scales:?}:{zero_points:?}, {storage_min}:{storage_max}, flags {flags}>",
                    self.ty(*storage),
                    self.ty(*expressed)
                )
            }
            VhloType::UnrankedTensor(e) => format!("!vhlo.unranked_tensor_v1<{}>", self.ty(*e)),
            VhloType::Witness => "!vhlo.witness_v1".into(),
            VhloType::None => "!vhlo.none_v1".into(),
            VhloType::Buffer { shape: s, elem } => format!("!vhlo.buffer_v1<{}{}>", shape(s), self.ty(*elem)),
            VhloType::Future(ts) => format!("!vhlo.future_v1<{}>", self.types(ts)),
        }
    }

    /// An attribute without its `: type` suffix where MLIR would elide it.
    fn attr_short(&self, id: AttrId) -> String {
        match self.m.attr(id) {
            Some(Attr::Builtin(BuiltinAttr::Integer { value, .. })) => value.as_i64().map_or_else(|| format!("{value:?}"), |v| v.to_string()),
            _ => self.attr(id),
        }
    }

    fn attrs(&self, ids: &[AttrId]) -> String {
        ids.iter().map(|&a| self.attr(a)).collect::<Vec<_>>().join(", ")
    }

    pub fn attr(&self, id: AttrId) -> String {
        let Some(a) = self.m.attr(id) else { return format!("<bad attr {}>", id.0) };
        match a {
            Attr::Builtin(b) => self.builtin_attr(b),
            Attr::Vhlo(v) => self.vhlo_attr(v),
            Attr::Dialect(e) => self.dialect_attr(e),
            Attr::Opaque { dialect, bytes } => format!("#{dialect}<bytes {}>", hex(bytes)),
            Attr::Asm { text, .. } => text.clone(),
        }
    }

    fn int_value(&self, value: &crate::model::ApInt, ty: TypeId) -> String {
        let unsigned = matches!(
            self.m.ty(ty),
            Some(Type::Builtin(BuiltinType::Integer { signedness: Signedness::Unsigned, .. }))
                | Some(Type::Vhlo(VhloType::Integer { unsigned: true, .. }))
        );
        if value.width == 1 {
            return if value.low_u64() != 0 { "true" } else { "false" }.into();
        }
        if value.width <= 64 && unsigned {
            return value.low_u64().to_string();
        }
        match value.as_i64() {
            Some(v) => v.to_string(),
            None => format!("0x{}", value.words.iter().rev().map(|w| format!("{w:016X}")).collect::<String>()),
        }
    }

    fn float_value(bits: &crate::model::ApInt) -> String {
        match bits.width {
            32 => format!("{:e}", f32::from_bits(bits.low_u64() as u32)),
            64 => format!("{:e}", f64::from_bits(bits.low_u64())),
            _ => format!("0x{:X}", bits.low_u64()),
        }
    }

    fn builtin_attr(&self, a: &BuiltinAttr) -> String {
        match a {
            BuiltinAttr::Array(v) => format!("[{}]", self.attrs(v)),
            BuiltinAttr::Dictionary(v) => {
                let items: Vec<String> = v.iter().map(|(k, a)| self.named(k, *a)).collect();
                format!("{{{}}}", items.join(", "))
            }
            BuiltinAttr::String { value, ty } => match ty {
                Some(t) => format!("{} : {}", quote(value), self.ty(*t)),
                None => quote(value),
            },
            BuiltinAttr::FlatSymbolRef(s) => format!("@{s}"),
            BuiltinAttr::SymbolRef { root, nested } => {
                let mut s = format!("@{root}");
                for n in nested {
                    let _ = write!(s, "::@{n}");
                }
                s
            }
            BuiltinAttr::Type(t) => self.ty(*t),
            BuiltinAttr::Unit => "unit".into(),
            BuiltinAttr::Integer { ty, value } => {
                let v = self.int_value(value, *ty);
                if value.width == 1 && matches!(self.m.ty(*ty), Some(Type::Builtin(_))) {
                    v
                } else {
                    format!("{v} : {}", self.ty(*ty))
                }
            }
            BuiltinAttr::Float { ty, bits } => format!("{} : {}", Self::float_value(bits), self.ty(*ty)),
            BuiltinAttr::CallSiteLoc { callee, caller } => format!("loc(callsite({} at {}))", self.loc_inner(*callee), self.loc_inner(*caller)),
            BuiltinAttr::FileLineColLoc { .. }
            | BuiltinAttr::FileLineColRange { .. }
            | BuiltinAttr::FusedLoc { .. }
            | BuiltinAttr::NameLoc { .. }
            | BuiltinAttr::UnknownLoc => format!("loc({})", self.builtin_loc(a)),
            BuiltinAttr::DenseResourceElements { ty, key, .. } => {
                format!("dense_resource<{}> : {}", key.as_deref().unwrap_or("?"), self.ty(*ty))
            }
            BuiltinAttr::DenseArray { elem_ty, count, data } => format!("array<{}: {count} x {}>", self.ty(*elem_ty), hex(data)),
            BuiltinAttr::DenseElements { ty, data } => format!("dense<\"{}\"> : {}", hex(data), self.ty(*ty)),
            BuiltinAttr::DenseStringElements { ty, values, .. } => {
                let v: Vec<String> = values.iter().map(|s| quote(s)).collect();
                format!("dense<[{}]> : {}", v.join(", "), self.ty(*ty))
            }
            BuiltinAttr::SparseElements { ty, indices, values } => format!("sparse<{}, {}> : {}", self.attr(*indices), self.attr(*values), self.ty(*ty)),
            BuiltinAttr::Distinct(a) => format!("distinct<{}>", self.attr(*a)),
        }
    }

    fn loc_inner(&self, id: AttrId) -> String {
        match self.m.attr(id) {
            Some(Attr::Builtin(b)) => self.builtin_loc(b),
            _ => self.attr(id),
        }
    }

    /// A location without the surrounding `loc(...)`.
    fn builtin_loc(&self, a: &BuiltinAttr) -> String {
        match a {
            BuiltinAttr::FileLineColLoc { file, line, col } => format!("{}:{line}:{col}", quote(file.as_bytes())),
            BuiltinAttr::FileLineColRange { file, start_line, start_col, end_line, end_col } => {
                let f = quote(file.as_bytes());
                if start_line == end_line {
                    format!("{f}:{start_line}:{start_col} to :{end_col}")
                } else {
                    format!("{f}:{start_line}:{start_col} to {end_line}:{end_col}")
                }
            }
            BuiltinAttr::FusedLoc { locations, metadata } => {
                let ls: Vec<String> = locations.iter().map(|&l| self.loc_inner(l)).collect();
                match metadata {
                    Some(md) => format!("fused<{}>[{}]", self.attr(*md), ls.join(", ")),
                    None => format!("fused[{}]", ls.join(", ")),
                }
            }
            BuiltinAttr::NameLoc { name, child } => {
                let inner = self.loc_inner(*child);
                if inner == "unknown" {
                    quote(name.as_bytes())
                } else {
                    format!("{}({inner})", quote(name.as_bytes()))
                }
            }
            BuiltinAttr::UnknownLoc => "unknown".into(),
            BuiltinAttr::CallSiteLoc { callee, caller } => format!("callsite({} at {})", self.loc_inner(*callee), self.loc_inner(*caller)),
            other => self.builtin_attr(other),
        }
    }

    fn named(&self, k: &str, a: AttrId) -> String {
        match self.m.attr(a) {
            Some(Attr::Builtin(BuiltinAttr::Unit)) => k.to_string(),
            _ => format!("{k} = {}", self.attr(a)),
        }
    }

    fn vhlo_attr(&self, a: &VhloAttr) -> String {
        match a {
            VhloAttr::Array(v) => format!("#vhlo.array_v1<[{}]>", self.attrs(v)),
            VhloAttr::Bool(b) => format!("#vhlo.bool_v1<{b}>"),
            VhloAttr::Enum { kind, value } => format!("#vhlo<{} {}>", kind.mnemonic(), kind.case(*value).unwrap_or("?")),
            VhloAttr::Dictionary(v) => {
                let items: Vec<String> = v.iter().map(|(k, a)| format!("{} = {}", self.attr(*k), self.attr(*a))).collect();
                format!("#vhlo.dict_v1<{{{}}}>", items.join(", "))
            }
            VhloAttr::Float { ty, bits } => format!("#vhlo.float_v1<{} : {}>", Self::float_value(bits), self.ty(*ty)),
            VhloAttr::Integer { ty, value } => format!("#vhlo.integer_v1<{} : {}>", self.int_value(value, *ty), self.ty(*ty)),
            VhloAttr::OutputOperandAlias { output_tuple_indices, operand_index, operand_tuple_indices } => format!(
                "#vhlo.output_operand_alias_v1<output_tuple_indices = {output_tuple_indices:?}, operand_index = {operand_index}, operand_tuple_indices = {operand_tuple_indices:?}>"
            ),
            VhloAttr::String(s) => format!("#vhlo.string_v1<{}>", quote(s)),
            VhloAttr::Tensor { ty, data } => format!("#vhlo.tensor_v1<dense<\"{}\"> : {}>", hex(data), self.ty(*ty)),
            VhloAttr::Type(t) => format!("#vhlo.type_v1<{}>", self.ty(*t)),
            VhloAttr::TypeExtensions { bounds } => format!("#vhlo.type_extensions_v1<bounds = {bounds:?}>"),
            VhloAttr::ResultAccuracy { atol, rtol, ulps, mode } => {
                format!("#vhlo.result_accuracy_v1<atol = {atol:e}, rtol = {rtol:e}, ulps = {ulps}, mode = {}>", self.attr(*mode))
            }
            VhloAttr::SubAxisInfo { pre_size, size } => format!("#vhlo.sub_axis_info_v1<{pre_size}, {size}>"),
            VhloAttr::AxisRef { name, sub_axis_info } => match sub_axis_info {
                Some(s) => format!("#vhlo.axis_ref_v1<{}, {}>", self.attr(*name), self.attr(*s)),
                None => format!("#vhlo.axis_ref_v1<{}>", self.attr(*name)),
            },
            VhloAttr::ReplicaGroupMeshAxes { mesh_name, axes } => {
                format!("#vhlo.replica_group_mesh_axes_v1<{}, {}>", self.attr(*mesh_name), self.attr(*axes))
            }
            VhloAttr::MeshAxis { name, size } => format!("#vhlo.mesh_axis_v1<{}, {size}>", self.attr(*name)),
            VhloAttr::Mesh { axes, device_ids } => match device_ids {
                Some(d) => format!("#vhlo.mesh_v1<{}, {}>", self.attr(*axes), self.attr(*d)),
                None => format!("#vhlo.mesh_v1<{}>", self.attr(*axes)),
            },
        }
    }
}

fn is_identity_map(text: &str) -> bool {
    let Some(inner) = text.strip_prefix("affine_map<").and_then(|t| t.strip_suffix('>')) else { return false };
    match inner.split_once(" -> ") {
        Some((a, b)) => a == b,
        None => false,
    }
}

/// Prints the whole module in generic form.
pub fn print_module(m: &RawModule) -> String {
    let mut value_types = HashMap::new();
    m.walk(&mut |op, _| {
        for (v, t) in op.results.iter().zip(&op.result_types) {
            value_types.insert(*v, *t);
        }
        for r in &op.regions {
            for b in &r.blocks {
                for a in &b.args {
                    value_types.insert(a.value, a.ty);
                }
            }
        }
    });
    let mut out = String::new();
    let _ = writeln!(
        out,
        "// bytecode v{}, producer {:?}, dialects [{}]",
        m.version,
        m.producer,
        m.dialects.iter().map(|d| d.name.as_str()).collect::<Vec<_>>().join(", ")
    );
    let p = Printer { m };
    for op in &m.ops {
        print_op(&p, &value_types, op, 0, &mut out);
    }
    out
}

fn value(v: ValueId) -> String {
    format!("%{}", v.0)
}

fn print_op(p: &Printer<'_>, vt: &HashMap<ValueId, TypeId>, op: &RawOp, indent: usize, out: &mut String) {
    let pad = "  ".repeat(indent);
    let _ = write!(out, "{pad}");
    if !op.results.is_empty() {
        let rs: Vec<String> = op.results.iter().map(|&v| value(v)).collect();
        let _ = write!(out, "{} = ", rs.join(", "));
    }
    let ops: Vec<String> = op.operands.iter().map(|&v| value(v)).collect();
    let _ = write!(out, "{}({})", quote(p.m.op_name(op).as_bytes()), ops.join(", "));
    if !op.successors.is_empty() {
        let ss: Vec<String> = op.successors.iter().map(|s| format!("^bb{s}")).collect();
        let _ = write!(out, "[{}]", ss.join(", "));
    }
    match &op.properties {
        Some(Properties::Named(v)) if !v.is_empty() => {
            let items: Vec<String> = v.iter().map(|(k, a)| p.named(k, *a)).collect();
            let _ = write!(out, " <{{{}}}>", items.join(", "));
        }
        Some(Properties::Attr(a)) => {
            let _ = write!(out, " <{}>", p.attr(*a));
        }
        Some(Properties::Raw(b)) => {
            let _ = write!(out, " <raw {}>", hex(b));
        }
        _ => {}
    }
    if !op.regions.is_empty() {
        out.push_str(" (");
        for (ri, r) in op.regions.iter().enumerate() {
            if ri > 0 {
                out.push_str(", ");
            }
            out.push_str("{\n");
            for (bi, b) in r.blocks.iter().enumerate() {
                if bi > 0 || !b.args.is_empty() {
                    let args: Vec<String> = b
                        .args
                        .iter()
                        .map(|a| match a.loc {
                            Some(l) => format!("{}: {} loc({})", value(a.value), p.ty(a.ty), p.loc_inner(l)),
                            None => format!("{}: {}", value(a.value), p.ty(a.ty)),
                        })
                        .collect();
                    let _ = writeln!(out, "{pad}^bb{bi}({}):", args.join(", "));
                }
                for o in &b.ops {
                    print_op(p, vt, o, indent + 1, out);
                }
            }
            let _ = write!(out, "{pad}}}");
        }
        out.push(')');
    }
    if let Some(d) = op.attrs {
        let _ = write!(out, " {}", p.attr(d));
    }
    let in_tys: Vec<TypeId> = op.operands.iter().filter_map(|v| vt.get(v).copied()).collect();
    let _ = write!(out, " : {}", p.function_type(&in_tys, &op.result_types));
    let _ = writeln!(out, " loc({})", p.loc_inner(op.location));
}
