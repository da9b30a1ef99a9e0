//! Shardy (`sdy`) attributes decoded from their bytecode encoding, printed back as the
//! text MLIR prints for them (`#sdy.sharding<@mesh, [{"x"}, {}]>`, `#sdy.mesh<...>`,
//! ...), which is how oxhlo keeps attributes of dialects it does not model
//! (`Attr::Opaque`). Kinds without a known syntax fall back to the debug printer.

use std::fmt::Write;

use crate::model::{Attr, AttrId, BuiltinAttr, DialectEntry, Field};
use crate::print::{quote, Printer};
use crate::raw::RawModule;

/// The text of sdy attribute `id` as MLIR prints it in an attribute position.
pub(crate) fn print(m: &RawModule, id: AttrId) -> String {
    let p = P { m };
    match p.entry(id) {
        Some(e) => match (e.code, e.fields.as_slice()) {
            (2, _) => format!("#sdy.mesh{}", p.mesh(e, 0)),
            (6 | 15, _) => format!("#sdy.sharding<{}>", p.sharding(e, 0)),
            (7 | 16, [Field::Attrs(v)]) => format!("#sdy.sharding_per_value<[{}]>", p.list(v, 0, |p, a, d| format!("<{}>", p.sharding_of(a, d)))),
            (0, [Field::Attrs(v)]) => format!("#sdy<manual_axes{{{}}}>", p.list(v, 0, |p, a, _| p.string(a))),
            (10, _) => format!("#sdy.op_sharding_rule<{}>", p.rule(e)),
            _ => p.fallback(id),
        },
        None => p.fallback(id),
    }
}

struct P<'m> {
    m: &'m RawModule,
}

const MAX_DEPTH: u32 = 64;

impl<'m> P<'m> {
    fn entry(&self, id: AttrId) -> Option<&'m DialectEntry> {
        match self.m.attr(id) {
            Some(Attr::Dialect(e)) if e.dialect == "sdy" => Some(e),
            _ => None,
        }
    }

    fn fallback(&self, id: AttrId) -> String {
        Printer { m: self.m }.attr(id)
    }

    fn list(&self, v: &[AttrId], d: u32, f: impl Fn(&Self, AttrId, u32) -> String) -> String {
        v.iter().map(|&a| f(self, a, d + 1)).collect::<Vec<_>>().join(", ")
    }

    fn string(&self, id: AttrId) -> String {
        match self.m.attr(id) {
            Some(Attr::Builtin(BuiltinAttr::String { value, .. })) => quote(value),
            _ => self.fallback(id),
        }
    }

    /// `<["x"=2, "y"=4], device_ids=[1, 0]>`
    fn mesh(&self, e: &DialectEntry, d: u32) -> String {
        let [Field::Attrs(axes), Field::Ints(ids)] = e.fields.as_slice() else { return "<?>".into() };
        let axes = self.list(axes, d, |p, a, _| match p.entry(a).map(|e| e.fields.as_slice()) {
            Some([Field::Str(n), Field::S(size)]) => format!("{}={size}", quote(n.as_bytes())),
            _ => p.fallback(a),
        });
        if ids.is_empty() {
            format!("<[{axes}]>")
        } else {
            let ids: Vec<String> = ids.iter().map(i64::to_string).collect();
            format!("<[{axes}], device_ids=[{}]>", ids.join(", "))
        }
    }

    fn sharding_of(&self, id: AttrId, d: u32) -> String {
        match self.entry(id) {
            Some(e) if matches!(e.code, 6 | 15) => self.sharding(e, d),
            _ => self.fallback(id),
        }
    }

    /// `@mesh, [{"x", ?}, {}p1], replicated={"y"}, unreduced={"z"}`
    fn sharding(&self, e: &DialectEntry, d: u32) -> String {
        if d > MAX_DEPTH {
            return "?".into();
        }
        let (mesh, dims, replicated, unreduced) = match e.fields.as_slice() {
            [Field::Attr(m), Field::Attrs(dims), Field::Attrs(r)] => (*m, dims, r, None),
            [Field::Attr(m), Field::Attrs(dims), Field::Attrs(r), Field::Attrs(u)] => (*m, dims, r, Some(u)),
            _ => return "?".into(),
        };
        let mesh = match self.m.attr(mesh) {
            Some(Attr::Builtin(BuiltinAttr::FlatSymbolRef(s))) => format!("@{s}"),
            _ => match self.entry(mesh) {
                Some(me) if me.code == 2 => format!("mesh{}", self.mesh(me, d + 1)),
                _ => self.fallback(mesh),
            },
        };
        let mut s = format!("{mesh}, [{}]", self.list(dims, d, |p, a, d| p.dim(a, d)));
        if !replicated.is_empty() {
            let _ = write!(s, ", replicated={{{}}}", self.list(replicated, d, |p, a, _| p.axis(a)));
        }
        if let Some(u) = unreduced.filter(|u| !u.is_empty()) {
            let _ = write!(s, ", unreduced={{{}}}", self.list(u, d, |p, a, _| p.axis(a)));
        }
        s
    }

    /// `{"x", ?}p1`
    fn dim(&self, id: AttrId, d: u32) -> String {
        let Some([Field::Attrs(axes), Field::Bool(closed), Field::OptU(prio)]) = self.entry(id).map(|e| e.fields.as_slice()) else {
            return self.fallback(id);
        };
        let mut items: Vec<String> = axes.iter().map(|&a| self.axis(a)).collect();
        if !closed {
            items.push("?".into());
        }
        let _ = d;
        let mut s = format!("{{{}}}", items.join(", "));
        if let Some(p) = prio {
            let _ = write!(s, "p{p}");
        }
        s
    }

    /// `"y"` or `"y":(1)2`
    fn axis(&self, id: AttrId) -> String {
        let Some([Field::Str(name), Field::OptAttr(sub)]) = self.entry(id).map(|e| e.fields.as_slice()) else {
            return self.fallback(id);
        };
        let name = quote(name.as_bytes());
        match sub.and_then(|s| self.entry(s)).map(|e| e.fields.as_slice()) {
            Some([Field::S(pre), Field::S(size)]) => format!("{name}:({pre}){size}"),
            _ => name,
        }
    }

    /// `([i, j], [i, j])->([i, j]) {i=8, j=8} reduction={k}`
    fn rule(&self, e: &DialectEntry) -> String {
        let [Field::Ints(sizes), Field::Attrs(ops), Field::Attrs(res), Field::Ints(red), Field::Ints(need), Field::Ints(perm), Field::Ints(blocked), Field::Bool(custom)] =
            e.fields.as_slice()
        else {
            return "?".into();
        };
        let tensors = |v: &[AttrId]| -> String {
            v.iter()
                .map(|&t| match self.entry(t).map(|e| e.fields.as_slice()) {
                    Some([Field::Attrs(dims)]) => {
                        let ds: Vec<String> = dims
                            .iter()
                            .map(|&dm| match self.entry(dm).map(|e| e.fields.as_slice()) {
                                Some([Field::Ints(fs)]) => fs.iter().map(|&f| factor(f)).collect::<String>(),
                                _ => "?".into(),
                            })
                            .collect();
                        format!("[{}]", ds.join(", "))
                    }
                    _ => "?".into(),
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        let sizes: Vec<String> = sizes.iter().enumerate().map(|(i, s)| format!("{}={s}", factor(i as i64))).collect();
        let mut s = format!("({})->({}) {{{}}}", tensors(ops), tensors(res), sizes.join(", "));
        for (kw, v) in [("reduction", red), ("need_replication", need), ("permutation", perm), ("blocked_propagation", blocked)] {
            if !v.is_empty() {
                let names: Vec<String> = v.iter().map(|&f| factor(f)).collect();
                let _ = write!(s, " {kw}={{{}}}", names.join(", "));
            }
        }
        if *custom {
            s.push_str(", custom");
        }
        s
    }
}

/// Factor `i` of a sharding rule: `i`..`z`, then `z_1`, `z_2`, ...
fn factor(i: i64) -> String {
    const LETTERS: i64 = (b'z' - b'i' + 1) as i64;
    if (0..LETTERS).contains(&i) {
        ((b'i' + i as u8) as char).to_string()
    } else {
        format!("z_{}", i - LETTERS + 1)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn factor_names() {
        assert_eq!(super::factor(0), "i");
        assert_eq!(super::factor(17), "z");
        assert_eq!(super::factor(18), "z_1");
    }
}
