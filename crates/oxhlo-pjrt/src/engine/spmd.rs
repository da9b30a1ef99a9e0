//! Partitioning of `shard_map` programs for several devices. JAX hands a multi-partition program over
//! with global shapes and Shardy annotations; XLA would partition it. oxhlo runs programs whose
//! partitioned work is all manual (`sdy.manual_computation`, what `jax.shard_map` lowers to): the entry
//! function's arguments and results take their local (per-device) shapes, each manual computation's body
//! is inlined, and everything outside manual computations must be replicated (it runs on every device).
//! The shardings of the arguments and results are reported to the framework as `xla.OpSharding`s.

use crate::error::{Error, Result};
use crate::proto::Writer;
use oxhlo_interp::ops::collective_ops::{mesh_axis_groups, MeshAxisRef};
use oxhlo_ir::{Attr, DenseElements, ElementType, Module, Op, OpKind, Region, TensorType, Type, Value};
use std::collections::HashMap;

/// A device mesh: named axes with sizes, and the device (partition) order.
#[derive(Clone, Debug, PartialEq)]
pub struct Mesh {
    pub axes: Vec<(String, i64)>,
    pub device_ids: Vec<i64>,
}

/// How one value is split across a mesh: per dimension, the axes it is split over (major first).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Sharding {
    pub mesh: String,
    pub dims: Vec<Vec<String>>,
}

impl Sharding {
    pub fn is_replicated(&self) -> bool {
        self.dims.iter().all(Vec::is_empty)
    }
}

/// A tiny scanner over Shardy's attribute text.
struct Scan<'a> {
    s: &'a [u8],
    i: usize,
}

impl<'a> Scan<'a> {
    fn new(s: &'a str) -> Scan<'a> {
        Scan { s: s.as_bytes(), i: 0 }
    }
    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }
    fn eat(&mut self, c: u8) -> bool {
        self.ws();
        if self.s.get(self.i) == Some(&c) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, c: u8) -> Result<()> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(self.err(&format!("expected '{}'", c as char)))
        }
    }
    fn err(&self, what: &str) -> Error {
        Error::unimplemented(format!(
            "oxhlo cannot read the sharding {:?}: {what} at offset {}",
            String::from_utf8_lossy(self.s),
            self.i
        ))
    }
    fn word(&mut self) -> String {
        self.ws();
        let st = self.i;
        while self.i < self.s.len() && (self.s[self.i].is_ascii_alphanumeric() || b"_.$-".contains(&self.s[self.i])) {
            self.i += 1;
        }
        String::from_utf8_lossy(&self.s[st..self.i]).into_owned()
    }
    fn string(&mut self) -> Result<String> {
        self.expect(b'"')?;
        let st = self.i;
        while self.i < self.s.len() && self.s[self.i] != b'"' {
            self.i += 1;
        }
        let out = String::from_utf8_lossy(&self.s[st..self.i]).into_owned();
        self.expect(b'"')?;
        Ok(out)
    }
    fn int(&mut self) -> Result<i64> {
        let w = self.word();
        w.parse().map_err(|_| self.err("expected an integer"))
    }
    fn find(&mut self, pat: &str) -> bool {
        let p = pat.as_bytes();
        while self.i + p.len() <= self.s.len() {
            if &self.s[self.i..self.i + p.len()] == p {
                self.i += p.len();
                return true;
            }
            self.i += 1;
        }
        false
    }

    /// `["x"=2, "y"=4], device_ids=[...]` after the opening `<`.
    fn mesh_body(&mut self) -> Result<Mesh> {
        self.expect(b'[')?;
        let mut axes = Vec::new();
        if !self.eat(b']') {
            loop {
                let n = self.string()?;
                self.expect(b'=')?;
                axes.push((n, self.int()?));
                if self.eat(b']') {
                    break;
                }
                self.expect(b',')?;
            }
        }
        let total: i64 = axes.iter().map(|(_, s)| *s).product();
        let mut device_ids: Vec<i64> = (0..total).collect();
        if self.eat(b',') && self.word() == "device_ids" {
            self.expect(b'=')?;
            self.expect(b'[')?;
            device_ids.clear();
            while !self.eat(b']') {
                device_ids.push(self.int()?);
                self.eat(b',');
            }
        }
        Ok(Mesh { axes, device_ids })
    }

    /// `@mesh, [{"x"}, {}], replicated={...}` up to (not including) the closing `>`.
    fn sharding_body(&mut self) -> Result<Sharding> {
        self.expect(b'@')?;
        let mesh = self.word();
        self.expect(b',')?;
        self.expect(b'[')?;
        let mut dims = Vec::new();
        while !self.eat(b']') {
            self.expect(b'{')?;
            let mut axes = Vec::new();
            while !self.eat(b'}') {
                if self.eat(b'?') {
                    continue;
                }
                let a = self.string()?;
                if self.eat(b':') {
                    return Err(self.err("sub-axes are not supported"));
                }
                axes.push(a);
                self.eat(b',');
            }
            let _priority = if self.s.get(self.i) == Some(&b'p') { self.word() } else { String::new() };
            dims.push(axes);
            self.eat(b',');
        }
        // `replicated=` / `unreduced=` sets only say which axes a value is *not* split over.
        while self.i < self.s.len() && self.s[self.i] != b'>' {
            self.i += 1;
        }
        Ok(Sharding { mesh, dims })
    }
}

/// `#sdy.mesh<...>`.
pub fn parse_mesh(text: &str) -> Result<Mesh> {
    let mut s = Scan::new(text);
    if !s.find("mesh<") {
        return Err(s.err("not a mesh"));
    }
    s.mesh_body()
}

/// `#sdy.sharding<@mesh, [...]>` (also inside a list).
pub fn parse_sharding(text: &str) -> Result<Sharding> {
    let mut s = Scan::new(text);
    if !s.find("<") {
        return Err(s.err("not a sharding"));
    }
    s.sharding_body()
}

/// `#sdy.sharding_per_value<[<@mesh, [...]>, ...]>`.
pub fn parse_sharding_list(text: &str) -> Result<Vec<Sharding>> {
    let mut s = Scan::new(text);
    if !s.find("<[") {
        return Err(s.err("not a sharding list"));
    }
    let mut out = Vec::new();
    while !s.eat(b']') {
        s.expect(b'<')?;
        out.push(s.sharding_body()?);
        s.expect(b'>')?;
        s.eat(b',');
    }
    Ok(out)
}

/// `#sdy<manual_axes{"x", "y"}>`.
pub fn parse_manual_axes(text: &str) -> Result<Vec<String>> {
    let mut s = Scan::new(text);
    if !s.find("{") {
        return Err(s.err("not a manual axes list"));
    }
    let mut out = Vec::new();
    while !s.eat(b'}') {
        out.push(s.string()?);
        s.eat(b',');
    }
    Ok(out)
}

fn opaque<'a>(op: &'a Op, name: &str) -> Result<&'a str> {
    match op.attr(name) {
        Some(Attr::Opaque(s)) => Ok(s),
        other => Err(Error::unimplemented(format!("{}: attribute {name} is {other:?}", op.name()))),
    }
}

/// The partitioned program and the shardings of its entry function's arguments and results.
pub struct Partitioned {
    pub meshes: HashMap<String, Mesh>,
    pub args: Vec<Sharding>,
    pub results: Vec<Sharding>,
}

impl Partitioned {
    fn mesh(&self, s: &Sharding) -> Result<&Mesh> {
        self.meshes.get(&s.mesh).ok_or_else(|| Error::invalid(format!("unknown mesh @{}", s.mesh)))
    }

    /// The serialized `xla.OpSharding` of a sharding: REPLICATED, or OTHER with a tile assignment
    /// over partition ids (replication over the unused mesh axes in a last tile dimension).
    pub fn op_sharding(&self, s: &Sharding) -> Result<Vec<u8>> {
        let mut w = Writer::default();
        if s.is_replicated() {
            w.int(1, 0);
            return Ok(w.buf);
        }
        let mesh = self.mesh(s)?;
        let size = |a: &str| mesh.axes.iter().find(|(n, _)| n == a).map(|(_, z)| *z);
        let used: Vec<&String> = s.dims.iter().flatten().collect();
        let unused: Vec<&(String, i64)> = mesh.axes.iter().filter(|(n, _)| !used.contains(&n)).collect();
        let mut tiles: Vec<i64> = Vec::new();
        for d in &s.dims {
            tiles.push(d.iter().map(|a| size(a).unwrap_or(1)).product());
        }
        let repl: i64 = unused.iter().map(|(_, z)| *z).product();
        if repl > 1 {
            tiles.push(repl);
        }
        let total: i64 = tiles.iter().product();
        let mut devices = vec![0i64; total.max(0) as usize];
        for (k, &dev) in mesh.device_ids.iter().enumerate() {
            // Mesh coordinates of position k (row-major over the axes).
            let mut coord: HashMap<&str, i64> = HashMap::new();
            let mut rest = k as i64;
            for (n, z) in mesh.axes.iter().rev() {
                coord.insert(n, rest % z);
                rest /= z;
            }
            let radix = |axes: &mut dyn Iterator<Item = &String>| {
                axes.fold(0i64, |acc, a| acc * size(a).unwrap_or(1) + coord.get(a.as_str()).copied().unwrap_or(0))
            };
            let mut idx: Vec<i64> = s.dims.iter().map(|d| radix(&mut d.iter())).collect();
            if repl > 1 {
                idx.push(radix(&mut unused.iter().map(|(n, _)| n)));
            }
            let flat = idx.iter().zip(&tiles).fold(0i64, |acc, (&i, &t)| acc * t + i);
            if let Some(slot) = devices.get_mut(flat as usize) {
                *slot = dev;
            }
        }
        w.int(1, 3);
        w.packed(3, &tiles);
        w.packed(4, &devices);
        if repl > 1 {
            w.int(6, 1);
        }
        Ok(w.buf)
    }

    /// The local (per-device) type of a global tensor type under a sharding.
    fn local(&self, t: &Type, s: &Sharding) -> Result<Type> {
        if s.is_replicated() {
            return Ok(t.clone());
        }
        let mesh = self.mesh(s)?;
        let mut tt = t.as_tensor().ok_or_else(|| Error::invalid("a sharded value must be a tensor"))?.clone();
        if tt.shape.len() != s.dims.len() {
            return Err(Error::invalid(format!("sharding {s:?} does not match the rank of {:?}", tt.shape)));
        }
        for (d, axes) in tt.shape.iter_mut().zip(&s.dims) {
            let n: i64 = axes.iter().map(|a| mesh.axes.iter().find(|(m, _)| m == a).map(|(_, z)| *z).unwrap_or(1)).product();
            if n > 1 && *d % n != 0 {
                return Err(Error::unimplemented(format!("dimension of size {d} does not split evenly {n} ways")));
            }
            *d /= n.max(1);
        }
        Ok(Type::Tensor(tt))
    }
}

/// The explicit groups of mesh-axes replica groups (`replica_group_mesh_axes<"mesh", ["x", ...]>`, which
/// jaxlib 0.11 writes for shard_map collectives): devices that differ only along the named axes form a
/// group, ordered along those axes; entries are the devices' ids.
pub fn mesh_axes_groups(mesh: &Mesh, axes: &[String]) -> Result<Vec<Vec<i64>>> {
    let selected: Vec<MeshAxisRef> = axes.iter().map(|a| MeshAxisRef { name: a.clone(), sub_axis: None }).collect();
    mesh_axis_groups(&mesh.axes, &mesh.device_ids, &selected).map_err(Error::invalid)
}

/// The quoted names in an attribute's text, in order (`"mesh_0"`, `"x"`, ...).
fn quoted(text: &str) -> Vec<String> {
    text.split('"').skip(1).step_by(2).map(str::to_string).collect()
}

/// Replaces mesh-axes replica groups by explicit `dense<...> : tensor<GxSxi64>` groups.
fn resolve_replica_groups(r: &mut Region, meshes: &HashMap<String, Mesh>) -> Result<()> {
    for b in &mut r.blocks {
        for op in &mut b.ops {
            for inner in &mut op.regions {
                resolve_replica_groups(inner, meshes)?;
            }
            let Some(Attr::Opaque(text)) = op.attr("replica_groups") else { continue };
            if !text.contains("mesh_axes") {
                continue;
            }
            if text.contains("sub_axis") {
                return Err(Error::unimplemented(format!("{}: replica groups over sub-axes are not supported", op.name())));
            }
            let names = quoted(text);
            let (mesh_name, axes) = names.split_first().ok_or_else(|| Error::invalid(format!("cannot read replica groups {text}")))?;
            let mesh = meshes.get(mesh_name).ok_or_else(|| Error::invalid(format!("replica groups name unknown mesh @{mesh_name}")))?;
            let groups = mesh_axes_groups(mesh, axes)?;
            let (g, s) = (groups.len() as i64, groups.first().map_or(0, Vec::len) as i64);
            let bytes = groups.iter().flatten().flat_map(|d| d.to_le_bytes()).collect();
            let dense = DenseElements::from_raw(TensorType::new(vec![g, s], ElementType::I64), bytes).map_err(Error::internal)?;
            op.set_attr("replica_groups", Attr::Dense(dense));
        }
    }
    Ok(())
}

fn is_op(op: &Op, name: &str) -> bool {
    op.kind == OpKind::Unregistered && op.unregistered_name.as_deref() == Some(name)
}

fn contains_manual(r: &Region) -> bool {
    r.blocks.iter().flat_map(|b| &b.ops).any(|op| is_op(op, "sdy.manual_computation") || op.regions.iter().any(contains_manual))
}

fn substitute(r: &mut Region, subst: &HashMap<Value, Value>) {
    for b in &mut r.blocks {
        for op in &mut b.ops {
            for v in &mut op.operands {
                if let Some(n) = subst.get(v) {
                    *v = *n;
                }
            }
            for inner in &mut op.regions {
                substitute(inner, subst);
            }
        }
    }
}

/// The module's Shardy meshes by name.
pub fn meshes(m: &Module) -> Result<HashMap<String, Mesh>> {
    let mut meshes = HashMap::new();
    for op in &m.other_ops {
        if is_op(op, "sdy.mesh") {
            let name = op.attr("sym_name").and_then(Attr::as_str).unwrap_or("mesh").to_string();
            meshes.insert(name, parse_mesh(opaque(op, "mesh")?)?);
        }
    }
    Ok(meshes)
}

/// Rewrites every mesh-axes replica group of the module into explicit groups (before verification,
/// which knows only explicit groups).
pub fn resolve_mesh_axes(m: &mut Module) -> Result<()> {
    let meshes = meshes(m)?;
    if meshes.is_empty() {
        return Ok(());
    }
    for f in &mut m.funcs {
        resolve_replica_groups(&mut f.body, &meshes)?;
    }
    Ok(())
}

/// Partitions `m` in place for `partitions` devices (see the module docs). Returns None for a program
/// without Shardy meshes (nothing to partition).
pub fn partition(m: &mut Module) -> Result<Option<Partitioned>> {
    let meshes = meshes(m)?;
    if meshes.is_empty() {
        return Ok(None);
    }
    resolve_mesh_axes(m)?;
    let entry = m.entry().map(|f| f.name.clone()).ok_or_else(|| Error::invalid("the program has no entry function"))?;
    for f in &m.funcs {
        if f.name != entry && contains_manual(&f.body) {
            return Err(Error::unimplemented(format!("oxhlo runs shard_map only in the entry function, not in @{}", f.name)));
        }
    }
    let mut p = Partitioned { meshes, args: Vec::new(), results: Vec::new() };
    let f = m.funcs.iter_mut().find(|f| f.name == entry).ok_or_else(|| Error::internal("entry function vanished"))?;
    let args: Vec<Value> = f.args().to_vec();
    let block = f.body.blocks.first_mut().ok_or_else(|| Error::invalid("the entry function has no body"))?;
    // Argument shardings: the explicit annotation, else what the first manual computation using it wants.
    let mut sharding: HashMap<Value, Sharding> = HashMap::new();
    for (i, &a) in args.iter().enumerate() {
        let explicit = f.arg_attrs.get(i).and_then(|at| at.iter().find(|(n, _)| n == "sdy.sharding"));
        let s = match explicit {
            Some((_, Attr::Opaque(t))) => parse_sharding(t)?,
            _ => {
                let mut found = Sharding::default();
                for op in &block.ops {
                    if is_op(op, "sdy.manual_computation") {
                        if let Some(j) = op.operands.iter().position(|&o| o == a) {
                            found = parse_sharding_list(opaque(op, "in_shardings")?)?.get(j).cloned().unwrap_or_default();
                            break;
                        }
                    }
                }
                found
            }
        };
        sharding.insert(a, s);
    }
    // Inline manual computations; everything else must work on replicated values.
    let mut subst: HashMap<Value, Value> = HashMap::new();
    let mut out_ops = Vec::with_capacity(block.ops.len());
    for mut op in std::mem::take(&mut block.ops) {
        for v in &mut op.operands {
            if let Some(n) = subst.get(v) {
                *v = *n;
            }
        }
        for r in &mut op.regions {
            substitute(r, &subst);
        }
        if is_op(&op, "sdy.manual_computation") {
            let ins = parse_sharding_list(opaque(&op, "in_shardings")?)?;
            let outs = parse_sharding_list(opaque(&op, "out_shardings")?)?;
            let manual = parse_manual_axes(opaque(&op, "manual_axes")?)?;
            for s in ins.iter().chain(&outs) {
                let mesh = p.mesh(s)?;
                if let Some((a, _)) = mesh.axes.iter().find(|(a, z)| *z > 1 && !manual.contains(a)) {
                    return Err(Error::unimplemented(format!(
                        "oxhlo runs shard_map only with every mesh axis manual; axis \"{a}\" is automatic"
                    )));
                }
            }
            for (j, &o) in op.operands.iter().enumerate() {
                let have = sharding.get(&o).cloned().unwrap_or_default();
                let want = ins.get(j).cloned().unwrap_or_default();
                if have.dims != want.dims && !(have.is_replicated() && want.is_replicated()) {
                    return Err(Error::unimplemented(format!(
                        "shard_map operand {j} is split as {:?} but the shard_map wants {:?}; oxhlo does not reshard",
                        have.dims, want.dims
                    )));
                }
            }
            let mut body = op.regions.pop().and_then(|r| r.blocks.into_iter().next()).unwrap_or_default();
            for (&b, &o) in body.args.iter().zip(&op.operands) {
                subst.insert(b, o);
            }
            let ret = body.ops.pop().filter(|r| is_op(r, "sdy.return")).ok_or_else(|| Error::invalid("manual computation without sdy.return"))?;
            for bop in &mut body.ops {
                for v in &mut bop.operands {
                    if let Some(n) = subst.get(v) {
                        *v = *n;
                    }
                }
                for r in &mut bop.regions {
                    substitute(r, &subst);
                }
            }
            out_ops.extend(body.ops);
            for (k, (&res, &val)) in op.results.iter().zip(&ret.operands).enumerate() {
                let val = subst.get(&val).copied().unwrap_or(val);
                subst.insert(res, val);
                sharding.insert(val, outs.get(k).cloned().unwrap_or_default());
            }
            continue;
        }
        if op.kind != OpKind::FuncReturn && op.operands.iter().any(|v| sharding.get(v).is_some_and(|s| !s.is_replicated())) {
            return Err(Error::unimplemented(format!(
                "{} at {} uses a value split across devices outside shard_map; oxhlo partitions only shard_map programs",
                op.name(),
                op.loc
            )));
        }
        out_ops.push(op);
    }
    block.ops = out_ops;
    // Local types for the arguments and results.
    for (i, &a) in args.iter().enumerate() {
        let s = sharding.get(&a).cloned().unwrap_or_default();
        let t = p.local(&f.values[a.0 as usize], &s)?;
        f.values[a.0 as usize] = t.clone();
        f.ty.inputs[i] = t;
        p.args.push(s);
    }
    let ret = block.ops.last().filter(|o| o.kind == OpKind::FuncReturn).ok_or_else(|| Error::invalid("the entry function has no return"))?;
    for (k, v) in ret.operands.iter().enumerate() {
        p.results.push(sharding.get(v).cloned().unwrap_or_default());
        f.ty.results[k] = f.values[v.0 as usize].clone();
    }
    Ok(Some(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shardy_text_parses() {
        let m = parse_mesh(r#"#sdy.mesh<["x"=2, "y"=4]>"#).unwrap();
        assert_eq!(m.axes, vec![("x".into(), 2), ("y".into(), 4)]);
        assert_eq!(m.device_ids, (0..8).collect::<Vec<_>>());
        let m = parse_mesh(r#"#sdy.mesh<["x"=2], device_ids=[1, 0]>"#).unwrap();
        assert_eq!(m.device_ids, vec![1, 0]);
        let s = parse_sharding(r#"#sdy.sharding<@mesh, [{"x", ?}, {}p1], replicated={"y"}>"#).unwrap();
        assert_eq!(s.dims, vec![vec!["x".to_string()], vec![]]);
        let l = parse_sharding_list(r#"#sdy.sharding_per_value<[<@mesh, [{"x"}]>, <@mesh, [{}, {"y", "x"}]>]>"#).unwrap();
        assert_eq!(l.len(), 2);
        assert_eq!(l[1].dims[1], vec!["y".to_string(), "x".to_string()]);
        assert_eq!(parse_manual_axes(r#"#sdy<manual_axes{"x", "y"}>"#).unwrap(), vec!["x", "y"]);
        assert!(parse_sharding(r#"#sdy.sharding<@mesh, [{"x":(1)2}]>"#).is_err());
    }

    #[test]
    fn op_shardings_tile_over_partitions() {
        let mut meshes = HashMap::new();
        meshes.insert("mesh".to_string(), Mesh { axes: vec![("x".into(), 2), ("y".into(), 2)], device_ids: (0..4).collect() });
        let p = Partitioned { meshes, args: vec![], results: vec![] };
        // Split over y only: 2 tiles, replicated over x; devices ordered (tile, replica).
        let s = Sharding { mesh: "mesh".into(), dims: vec![vec!["y".into()]] };
        let mut w = Writer::default();
        w.int(1, 3);
        w.packed(3, &[2, 2]);
        w.packed(4, &[0, 2, 1, 3]);
        w.int(6, 1);
        assert_eq!(p.op_sharding(&s).unwrap(), w.buf);
        assert_eq!(p.op_sharding(&Sharding::default()).unwrap(), vec![8, 0]);
    }

    #[test]
    fn mesh_axes_groups_are_explicit() {
        let mesh = Mesh { axes: vec![("x".into(), 2), ("y".into(), 3)], device_ids: (0..6).collect() };
        assert_eq!(mesh_axes_groups(&mesh, &["y".into()]).unwrap(), vec![vec![0, 1, 2], vec![3, 4, 5]]);
        assert_eq!(mesh_axes_groups(&mesh, &["x".into()]).unwrap(), vec![vec![0, 3], vec![1, 4], vec![2, 5]]);
        assert_eq!(mesh_axes_groups(&mesh, &["y".into(), "x".into()]).unwrap(), vec![vec![0, 3, 1, 4, 2, 5]]);
        assert!(mesh_axes_groups(&mesh, &["z".into()]).is_err());
        let text = r#"#vhlo.replica_group_mesh_axes_v1<#vhlo.string_v1<"mesh_0">, #vhlo.array_v1<[#vhlo.axis_ref_v1<#vhlo.string_v1<"x">>]>>"#;
        assert_eq!(quoted(text), vec!["mesh_0", "x"]);
    }
}
