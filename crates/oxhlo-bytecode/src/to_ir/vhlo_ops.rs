//! VHLO ops of every version onto StableHLO/func ops, following StableHLO's own
//! VHLO-to-StableHLO legalization: `vhlo.X_vN` -> `stablehlo.X` (`func_v1`, `call_v1`
//! and `return_v1` -> `func.*`), defaults that VHLO writes explicitly are dropped,
//! flat dimension attributes are folded into `#stablehlo.dot/gather/scatter/conv<...>`,
//! channel ids become channel handles, integer lists become `array<i64: ...>`, and
//! `_v1` ops get what their `_v2` upgrade adds (empty batching dimensions, no
//! algorithm, default result accuracy).

use oxhlo_ir::attr::{ConvDims, DenseArray, DotAlgorithm, DotDims, GatherDims, ScatterDims};
use oxhlo_ir::{Attr, NamedAttr, OpKind};

use super::Cx;
use crate::error::{BytecodeError, Result};
use crate::model::{Attr as RawAttr, AttrId, Type as RawType, VhloAttr, VhloEnum, VhloType};
use crate::raw::RawOp;
use crate::vhlo_table::VhloOpInfo;

/// The not yet converted attributes of one op.
struct Pending<'m> {
    v: Vec<(&'m str, AttrId)>,
}

impl Pending<'_> {
    fn take(&mut self, name: &str) -> Option<AttrId> {
        let i = self.v.iter().position(|(n, _)| *n == name)?;
        Some(self.v.remove(i).1)
    }
}

impl<'m> Cx<'m> {
    /// The attributes of a `vhlo.func_v1`, defaults dropped, converted.
    pub(crate) fn vhlo_func_attrs(&mut self, op: &'m RawOp) -> Result<Vec<NamedAttr>> {
        let mut a = Pending { v: self.op_attrs(op)? };
        for n in ["sym_visibility", "arg_attrs", "res_attrs"] {
            if let Some(id) = a.take(n) {
                let empty = self.raw_string(id).is_some_and(|s| s.is_empty()) || self.raw_len(id) == Some(0);
                if !empty {
                    a.v.push((n, id));
                }
            }
        }
        a.v.iter().map(|(k, id)| Ok((k.to_string(), self.attr(*id)?))).collect()
    }

    /// A VHLO op (other than `func_v1`): its oxhlo kind and converted attributes.
    pub(crate) fn vhlo_op(
        &mut self,
        op: &'m RawOp,
        mnemonic: &str,
        resolved: Option<(&'static VhloOpInfo, &'static str, Option<OpKind>)>,
        in_func: bool,
    ) -> Result<(OpKind, Vec<NamedAttr>)> {
        let at = op.offset;
        let (info, base, kind) = resolved
            .ok_or_else(|| BytecodeError::new(at, format!("unknown VHLO operation 'vhlo.{mnemonic}' (this reader knows VHLO up to v1.20.0)")))?;
        let mut a = Pending { v: self.op_attrs(op)? };
        name_positional(&mut a, info, base, at)?;
        // Absent optional values are written as `#vhlo.type_v1<!vhlo.none_v1>`.
        a.v.retain(|(_, id)| !self.is_none(*id));
        let kind = match base {
            "return" if in_func => OpKind::FuncReturn,
            "call" => OpKind::Call,
            "func" => return Err(BytecodeError::new(at, "vhlo.func_v1 nested inside an op is not supported")),
            _ => kind.ok_or_else(|| BytecodeError::new(at, format!("VHLO operation 'vhlo.{mnemonic}' has no StableHLO counterpart")))?,
        };
        let mut out: Vec<NamedAttr> = Vec::new();
        self.special(base, &mut a, &mut out, at)?;
        for (k, id) in a.v {
            out.push((k.to_string(), self.attr(id)?));
        }
        Ok((kind, out))
    }

    /// The op-specific part of the mapping; what it leaves in `a` is converted 1:1.
    fn special(&mut self, base: &str, a: &mut Pending<'_>, out: &mut Vec<NamedAttr>, at: usize) -> Result<()> {
        match base {
            "call" => self.symbol(a, "callee", out)?,
            "all_gather" | "all_reduce" | "all_to_all" | "collective_permute" | "reduce_scatter" | "collective_broadcast" | "collective_reduce" => {
                if let Some(c) = a.take("channel_id") {
                    let handle = self.raw_int(c).ok_or_else(|| self.bad(c, "channel_id"))?;
                    if handle != 0 {
                        out.push(("channel_handle".into(), Attr::ChannelHandle { handle, kind: 0 }));
                    }
                }
                if let Some(u) = a.take("use_global_device_ids") {
                    if self.raw_bool(u).ok_or_else(|| self.bad(u, "use_global_device_ids"))? {
                        out.push(("use_global_device_ids".into(), Attr::Unit));
                    }
                }
            }
            "custom_call" => {
                if let Some(id) = a.take("called_computations") {
                    if self.raw_len(id) != Some(0) {
                        let RawAttr::Vhlo(VhloAttr::Array(items)) = self.raw(id)? else { return Err(self.bad(id, "called_computations")) };
                        let syms = items.iter().map(|&s| self.raw_string(s).map(|b| Attr::SymbolRef(lossy(b))).ok_or_else(|| self.bad(s, "callee")));
                        out.push(("called_computations".into(), Attr::Array(syms.collect::<Result<_>>()?)));
                    }
                }
                self.drop_if(a, "has_side_effect", |c, id| c.raw_bool(id) == Some(false));
                self.drop_if(a, "backend_config", |c, id| c.raw_string(id).is_some_and(|s| s.is_empty()) || c.raw_dict_len(id) == Some(0));
                self.drop_if(a, "api_version", |c, id| c.raw_enum(id, VhloEnum::CustomCallApiVersion) == Some(1));
                let (ol, rl) = (a.take("operand_layouts"), a.take("result_layouts"));
                if !(ol.is_some_and(|x| self.raw_len(x) == Some(0)) && rl.is_some_and(|x| self.raw_len(x) == Some(0))) {
                    a.v.extend(ol.map(|x| ("operand_layouts", x)));
                    a.v.extend(rl.map(|x| ("result_layouts", x)));
                }
                self.drop_if(a, "output_operand_aliases", |c, id| c.raw_len(id) == Some(0));
            }
            "composite" => {
                self.symbol(a, "decomposition", out)?;
                self.drop_if(a, "version", |c, id| c.raw_int(id) == Some(0));
                self.drop_if(a, "composite_attributes", |c, id| c.raw_dict_len(id) == Some(0));
            }
            "fft" => self.arrays(a, &["fft_length"], out)?,
            "broadcast" => self.arrays(a, &["broadcast_sizes"], out)?,
            "dynamic_slice" => self.arrays(a, &["slice_sizes"], out)?,
            "reverse" | "map" | "reduce" => self.arrays(a, &["dimensions"], out)?,
            "transpose" => self.arrays(a, &["permutation"], out)?,
            "pad" => self.arrays(a, &["edge_padding_low", "edge_padding_high", "interior_padding"], out)?,
            "slice" => self.arrays(a, &["start_indices", "limit_indices", "strides"], out)?,
            "broadcast_in_dim" => self.arrays(a, &["broadcast_dimensions"], out)?,
            "dynamic_broadcast_in_dim" => {
                self.drop_if(a, "known_expanding_dimensions", |c, id| c.raw_tensor_empty(id));
                self.drop_if(a, "known_nonexpanding_dimensions", |c, id| c.raw_tensor_empty(id));
                self.arrays(a, &["broadcast_dimensions", "known_expanding_dimensions", "known_nonexpanding_dimensions"], out)?;
            }
            "select_and_scatter" | "reduce_window" => {
                for n in ["window_strides", "base_dilations", "window_dilations"] {
                    self.drop_splat(a, n, 1)?;
                }
                self.drop_splat(a, "padding", 0)?;
                self.arrays(a, &["window_dimensions", "window_strides", "base_dilations", "window_dilations"], out)?;
            }
            "gather" | "dynamic_gather" => {
                let dims = GatherDims {
                    offset_dims: self.ints(a, "offset_dims", at)?,
                    collapsed_slice_dims: self.ints(a, "collapsed_slice_dims", at)?,
                    operand_batching_dims: self.ints_or_empty(a, "operand_batching_dims")?,
                    start_indices_batching_dims: self.ints_or_empty(a, "start_indices_batching_dims")?,
                    start_index_map: self.ints(a, "start_index_map", at)?,
                    index_vector_dim: self.int(a, "index_vector_dim", at)?,
                };
                out.push(("dimension_numbers".into(), Attr::GatherDims(dims)));
                self.drop_if(a, "indices_are_sorted", |c, id| c.raw_bool(id) == Some(false));
                self.arrays(a, &["slice_sizes"], out)?;
            }
            "scatter" => {
                let dims = ScatterDims {
                    update_window_dims: self.ints(a, "update_window_dims", at)?,
                    inserted_window_dims: self.ints(a, "inserted_window_dims", at)?,
                    input_batching_dims: self.ints_or_empty(a, "input_batching_dims")?,
                    scatter_indices_batching_dims: self.ints_or_empty(a, "scatter_indices_batching_dims")?,
                    scatter_dims_to_operand_dims: self.ints(a, "scatter_dims_to_operand_dims", at)?,
                    index_vector_dim: self.int(a, "index_vector_dim", at)?,
                };
                out.push(("scatter_dimension_numbers".into(), Attr::ScatterDims(dims)));
                self.drop_if(a, "indices_are_sorted", |c, id| c.raw_bool(id) == Some(false));
                self.drop_if(a, "unique_indices", |c, id| c.raw_bool(id) == Some(false));
            }
            "convolution" | "dynamic_conv" => {
                let dims = ConvDims {
                    input_batch_dimension: self.int(a, "input_batch_dimension", at)?,
                    input_feature_dimension: self.int(a, "input_feature_dimension", at)?,
                    input_spatial_dimensions: self.ints(a, "input_spatial_dimensions", at)?,
                    kernel_input_feature_dimension: self.int(a, "kernel_input_feature_dimension", at)?,
                    kernel_output_feature_dimension: self.int(a, "kernel_output_feature_dimension", at)?,
                    kernel_spatial_dimensions: self.ints(a, "kernel_spatial_dimensions", at)?,
                    output_batch_dimension: self.int(a, "output_batch_dimension", at)?,
                    output_feature_dimension: self.int(a, "output_feature_dimension", at)?,
                    output_spatial_dimensions: self.ints(a, "output_spatial_dimensions", at)?,
                };
                out.push(("dimension_numbers".into(), Attr::ConvDims(dims)));
                for n in ["window_strides", "lhs_dilation", "rhs_dilation"] {
                    self.drop_splat(a, n, 1)?;
                }
                self.drop_splat(a, "padding", 0)?;
                self.drop_splat(a, "window_reversal", 0)?;
                self.drop_default_precision(a);
                self.arrays(a, &["window_strides", "lhs_dilation", "rhs_dilation"], out)?;
                if let Some(id) = a.take("window_reversal") {
                    let v = self.tensor_ints(id)?;
                    out.push(("window_reversal".into(), Attr::DenseArray(DenseArray::Bool(v.into_iter().map(|x| x != 0).collect()))));
                }
            }
            "dot_general" => {
                let dims = DotDims {
                    lhs_batching_dimensions: self.ints(a, "lhs_batching_dimensions", at)?,
                    rhs_batching_dimensions: self.ints(a, "rhs_batching_dimensions", at)?,
                    lhs_contracting_dimensions: self.ints(a, "lhs_contracting_dimensions", at)?,
                    rhs_contracting_dimensions: self.ints(a, "rhs_contracting_dimensions", at)?,
                };
                out.push(("dot_dimension_numbers".into(), Attr::DotDims(dims)));
                if a.v.iter().any(|(n, _)| *n == "lhs_precision_type") {
                    let alg = DotAlgorithm {
                        lhs_precision_type: self.type_attr(a, "lhs_precision_type", at)?,
                        rhs_precision_type: self.type_attr(a, "rhs_precision_type", at)?,
                        accumulation_type: self.type_attr(a, "accumulation_type", at)?,
                        lhs_component_count: self.int(a, "lhs_component_count", at)?,
                        rhs_component_count: self.int(a, "rhs_component_count", at)?,
                        num_primitive_operations: self.int(a, "num_primitive_operations", at)?,
                        allow_imprecise_accumulation: {
                            let id = a.take("allow_imprecise_accumulation").ok_or_else(|| missing(at, "allow_imprecise_accumulation"))?;
                            self.raw_bool(id).ok_or_else(|| self.bad(id, "allow_imprecise_accumulation"))?
                        },
                    };
                    out.push(("algorithm".into(), Attr::DotAlgorithm(Box::new(alg))));
                }
                self.drop_default_precision(a);
            }
            "dot" => self.drop_default_precision(a),
            "cholesky" => self.drop_if(a, "lower", |c, id| c.raw_bool(id) == Some(false)),
            "compare" => self.drop_if(a, "compare_type", |c, id| c.raw_enum(id, VhloEnum::ComparisonType) == Some(0)),
            // infeed_config / outfeed_config stay: StableHLO materializes their "" default.
            "infeed" => self.drop_if(a, "layout", |c, id| c.raw_len(id) == Some(0)),
            "send" | "recv" => {
                let handle = self.int(a, "channel_id", at)?;
                let kind = self.int(a, "channel_type", at)?;
                out.push(("channel_handle".into(), Attr::ChannelHandle { handle, kind }));
                self.drop_if(a, "is_host_transfer", |c, id| c.raw_bool(id) == Some(false));
                self.drop_if(a, "source_target_pairs", |c, id| c.raw_tensor_empty(id));
            }
            "sort" => {
                self.drop_if(a, "dimension", |c, id| c.raw_int(id) == Some(-1));
                self.drop_if(a, "is_stable", |c, id| c.raw_bool(id) == Some(false));
            }
            _ => {}
        }
        // Unary math ops of v2 carry a result accuracy; the default one is implied.
        self.drop_if(a, "result_accuracy", |c, id| c.is_default_accuracy(id));
        Ok(())
    }

    // ---- helpers on raw VHLO attributes ----

    fn raw(&self, id: AttrId) -> Result<&RawAttr> {
        self.m.attr(id).ok_or_else(|| BytecodeError::new(0, format!("attribute index {} out of range", id.0)))
    }

    fn bad(&self, id: AttrId, what: &str) -> BytecodeError {
        BytecodeError::new(self.m.attr_offset(id), format!("malformed VHLO attribute '{what}'"))
    }

    fn is_none(&self, id: AttrId) -> bool {
        matches!(self.m.attr(id), Some(RawAttr::Vhlo(VhloAttr::Type(t))) if matches!(self.m.ty(*t), Some(RawType::Vhlo(VhloType::None))))
    }

    fn raw_bool(&self, id: AttrId) -> Option<bool> {
        match self.m.attr(id)? {
            RawAttr::Vhlo(VhloAttr::Bool(b)) => Some(*b),
            _ => None,
        }
    }

    fn raw_int(&self, id: AttrId) -> Option<i64> {
        match self.m.attr(id)? {
            RawAttr::Vhlo(VhloAttr::Integer { value, .. }) => value.as_i64(),
            _ => None,
        }
    }

    fn raw_enum(&self, id: AttrId, kind: VhloEnum) -> Option<u64> {
        match self.m.attr(id)? {
            RawAttr::Vhlo(VhloAttr::Enum { kind: k, value }) if *k == kind => Some(*value),
            _ => None,
        }
    }

    fn raw_string(&self, id: AttrId) -> Option<&[u8]> {
        match self.m.attr(id)? {
            RawAttr::Vhlo(VhloAttr::String(s)) => Some(s),
            RawAttr::Builtin(crate::BuiltinAttr::String { value, .. }) => Some(value),
            _ => None,
        }
    }

    /// Length of an array attribute.
    fn raw_len(&self, id: AttrId) -> Option<usize> {
        match self.m.attr(id)? {
            RawAttr::Vhlo(VhloAttr::Array(v)) | RawAttr::Builtin(crate::BuiltinAttr::Array(v)) => Some(v.len()),
            _ => None,
        }
    }

    fn raw_dict_len(&self, id: AttrId) -> Option<usize> {
        match self.m.attr(id)? {
            RawAttr::Vhlo(VhloAttr::Dictionary(v)) => Some(v.len()),
            RawAttr::Builtin(crate::BuiltinAttr::Dictionary(v)) => Some(v.len()),
            _ => None,
        }
    }

    fn raw_tensor_empty(&self, id: AttrId) -> bool {
        matches!(self.m.attr(id), Some(RawAttr::Vhlo(VhloAttr::Tensor { data, .. })) if data.is_empty())
    }

    fn is_default_accuracy(&self, id: AttrId) -> bool {
        match self.m.attr(id) {
            Some(RawAttr::Vhlo(VhloAttr::ResultAccuracy { atol, rtol, ulps, mode })) => {
                *atol == 0.0 && *rtol == 0.0 && *ulps == 0 && self.raw_enum(*mode, VhloEnum::ResultAccuracyMode) == Some(0)
            }
            _ => false,
        }
    }

    /// The integers of a VHLO tensor attribute.
    fn tensor_ints(&mut self, id: AttrId) -> Result<Vec<i64>> {
        match self.attr(id)? {
            Attr::Dense(d) => d.to_i64_vec().ok_or_else(|| self.bad(id, "integer tensor")),
            _ => Err(self.bad(id, "integer tensor")),
        }
    }

    fn drop_if(&self, a: &mut Pending<'_>, name: &str, pred: impl Fn(&Self, AttrId) -> bool) {
        if let Some(i) = a.v.iter().position(|(n, _)| *n == name) {
            if pred(self, a.v[i].1) {
                a.v.remove(i);
            }
        }
    }

    /// Drops `name` when it is a non-empty tensor whose elements all equal `v`.
    fn drop_splat(&mut self, a: &mut Pending<'_>, name: &str, v: i64) -> Result<()> {
        if let Some(i) = a.v.iter().position(|(n, _)| *n == name) {
            let id = a.v[i].1;
            if matches!(self.m.attr(id), Some(RawAttr::Vhlo(VhloAttr::Tensor { .. }))) {
                let xs = self.tensor_ints(id)?;
                if !xs.is_empty() && xs.iter().all(|&x| x == v) {
                    a.v.remove(i);
                }
            }
        }
        Ok(())
    }

    /// Drops a precision config whose entries are all DEFAULT (or that is empty).
    fn drop_default_precision(&self, a: &mut Pending) {
        self.drop_if(a, "precision_config", |c, id| match c.m.attr(id) {
            Some(RawAttr::Vhlo(VhloAttr::Array(v))) => v.iter().all(|&p| c.raw_enum(p, VhloEnum::Precision) == Some(0)),
            _ => false,
        });
    }

    /// Converts the named integer tensors that StableHLO keeps as `array<i64: ...>`.
    fn arrays(&mut self, a: &mut Pending<'_>, names: &[&str], out: &mut Vec<NamedAttr>) -> Result<()> {
        for &n in names {
            if let Some(id) = a.take(n) {
                let v = self.tensor_ints(id)?;
                out.push((n.to_string(), Attr::DenseArray(DenseArray::I64(v))));
            }
        }
        Ok(())
    }

    /// A string attribute that StableHLO keeps as a symbol reference.
    fn symbol(&mut self, a: &mut Pending<'_>, name: &str, out: &mut Vec<NamedAttr>) -> Result<()> {
        if let Some(id) = a.take(name) {
            let s = self.raw_string(id).ok_or_else(|| self.bad(id, name))?;
            out.push((name.to_string(), Attr::SymbolRef(lossy(s))));
        }
        Ok(())
    }

    fn int(&mut self, a: &mut Pending<'_>, name: &str, at: usize) -> Result<i64> {
        let id = a.take(name).ok_or_else(|| missing(at, name))?;
        self.raw_int(id).ok_or_else(|| self.bad(id, name))
    }

    fn ints(&mut self, a: &mut Pending<'_>, name: &str, at: usize) -> Result<Vec<i64>> {
        let id = a.take(name).ok_or_else(|| missing(at, name))?;
        self.tensor_ints(id)
    }

    fn ints_or_empty(&mut self, a: &mut Pending<'_>, name: &str) -> Result<Vec<i64>> {
        match a.take(name) {
            Some(id) => self.tensor_ints(id),
            None => Ok(Vec::new()),
        }
    }

    fn type_attr(&mut self, a: &mut Pending<'_>, name: &str, at: usize) -> Result<oxhlo_ir::Type> {
        let id = a.take(name).ok_or_else(|| missing(at, name))?;
        let t = match self.raw(id)? {
            RawAttr::Vhlo(VhloAttr::Type(t)) => *t,
            _ => return Err(self.bad(id, name)),
        };
        self.ty(t)
    }
}

fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn missing(at: usize, name: &str) -> BytecodeError {
    BytecodeError::new(at, format!("missing VHLO attribute '{name}'"))
}

/// Names the positional properties of ops newer than the reader's attribute table
/// (VHLO 1.18 to 1.20) when their count matches the previous version's attributes.
fn name_positional(a: &mut Pending<'_>, info: &VhloOpInfo, base: &str, at: usize) -> Result<()> {
    if info.attrs.is_some() || !a.v.iter().any(|(n, _)| n.starts_with('#')) {
        return Ok(());
    }
    let names: &[&str] = match base {
        "custom_call" => &[
            "api_version",
            "backend_config",
            "call_target_name",
            "called_computations",
            "has_side_effect",
            "operand_layouts",
            "output_operand_aliases",
            "result_layouts",
        ],
        "collective_broadcast" => &["channel_id", "replica_groups"],
        "collective_reduce" => &["channel_id", "replica_groups", "use_global_device_ids"],
        _ => &[],
    };
    let positional = a.v.iter().filter(|(n, _)| n.starts_with('#')).count();
    if positional != names.len() {
        return Err(BytecodeError::new(at, format!("cannot name the {positional} properties of VHLO '{}' (newer than VHLO v1.17.0)", info.name)));
    }
    for (i, (n, _)) in a.v.iter_mut().filter(|(n, _)| n.starts_with('#')).enumerate() {
        *n = names.get(i).copied().unwrap_or("?");
    }
    Ok(())
}
