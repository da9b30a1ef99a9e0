//! Pretty (custom) op syntax, driven by the op table's `Syntax` column: the shared forms (`Operands`:
//! `op %a, %b : T` falling back to a function type; `Functional`: `op %a : (T) -> R`; `TypesArrow`:
//! chlo's `op %a : T -> R`) are handled here, and `Custom` ops dispatch to one routine per op family, each
//! owning both the parser and the printer of its syntax. Printers return `false` when an op does not fit its
//! pretty syntax, and the caller prints it generically. Also the table of inherent attributes printed
//! as `<{...}>` properties by the generic printer.

mod calls;
mod check_chlo;
mod dot_conv;
mod regions;
mod shape;
mod simple;

use crate::lexer::Tok;
use crate::parser::body::{FuncCtx, Use};
use crate::parser::{PResult, Parser};
use crate::printer::Printer;
use oxhlo_ir::attr::DenseArray;
use oxhlo_ir::{Attr, NamedAttr, Op, OpKind, Syntax, Type, Value};

/// A parsed op before its results are bound, and its result types.
pub type Parsed = (Op, Vec<Type>);

/// Parses the pretty form of `kind`; the op name was consumed.
pub fn parse_pretty<'a>(p: &mut Parser<'a>, ctx: &mut FuncCtx<'a>, kind: OpKind) -> PResult<Parsed> {
    match kind.syntax() {
        Syntax::Operands => parse_operands_form(p, ctx, kind),
        Syntax::Functional => {
            let uses = p.parse_uses(ctx)?;
            let attrs = p.opt_attr_dict()?;
            let (operands, results) = p.colon_functional(ctx, &uses)?;
            Ok((op_with(kind, operands, attrs), results))
        }
        Syntax::TypesArrow => {
            let uses = p.parse_uses(ctx)?;
            let attrs = p.opt_attr_dict()?;
            p.expect(Tok::Colon, "':' and the operand types")?;
            let at = p.tok.pos;
            let mut ins = Vec::new();
            loop {
                ins.push(p.parse_type()?);
                if !p.eat(Tok::Comma) {
                    break;
                }
            }
            p.expect(Tok::Arrow, "'->' and the result types")?;
            let results = p.parse_result_types()?;
            let operands = p.check_uses(ctx, &uses, &ins, at)?;
            Ok((op_with(kind, operands, attrs), results))
        }
        Syntax::Custom => parse_custom(p, ctx, kind),
        // Newer StableHLO gives dynamic_conv convolution's pretty form; accepted, printed generic.
        Syntax::Generic if kind == OpKind::DynamicConv => dot_conv::parse(p, ctx, kind),
        Syntax::Generic => Err(p.err(format!("'{}' has no pretty form; write it in the generic form \"{}\"(...)", kind.name(), kind.name()))),
    }
}

fn parse_custom<'a>(p: &mut Parser<'a>, ctx: &mut FuncCtx<'a>, kind: OpKind) -> PResult<Parsed> {
    use OpKind as K;
    match kind {
        K::Constant | K::ChloConstant => simple::parse_constant(p, ctx, kind),
        K::Iota | K::CreateToken | K::ReplicaId | K::PartitionId => simple::parse_nullary(p, kind),
        K::Tuple => simple::parse_tuple(p, ctx),
        K::GetTupleElement => simple::parse_get_tuple_element(p, ctx),
        K::Compare => simple::parse_compare(p, ctx),
        K::Select => simple::parse_select(p, ctx),
        K::Complex => simple::parse_complex(p, ctx),
        K::OptimizationBarrier => simple::parse_optimization_barrier(p, ctx),
        K::Return | K::FuncReturn => simple::parse_return(p, ctx, kind),
        K::Cholesky | K::ReducePrecision | K::Reverse => shape::parse_same_type_with_attrs(p, ctx, kind),
        K::DotGeneral | K::Dot | K::Convolution => dot_conv::parse(p, ctx, kind),
        K::Reduce | K::While => regions::parse(p, ctx, kind),
        K::CustomCall | K::Composite | K::Call => calls::parse(p, ctx, kind),
        K::ChloTopK
        | K::CheckExpectEq
        | K::CheckExpectEqConst
        | K::CheckExpectAlmostEq
        | K::CheckExpectAlmostEqConst
        | K::CheckExpectClose
        | K::CheckExpectSerializedEq
        | K::InterpreterProbe => check_chlo::parse(p, ctx, kind),
        _ => shape::parse_functional_with_attrs(p, ctx, kind),
    }
}

/// Prints the pretty form of `op`; false when the op does not fit it (nothing useful was written).
pub fn print_pretty(pr: &mut Printer<'_>, op: &Op) -> bool {
    use OpKind as K;
    if op.kind.def().is_some_and(|d| d.regions == 0) && !op.regions.is_empty() {
        return false;
    }
    match op.kind.syntax() {
        Syntax::Generic => false,
        Syntax::Operands => print_operands_form(pr, op),
        Syntax::Functional => {
            pr.w(op.name());
            if !op.operands.is_empty() {
                pr.w(" ");
                pr.vals(&op.operands);
            }
            pr.attr_dict_except(op, &[]);
            pr.w(" : ");
            pr.functional_type(op);
            true
        }
        Syntax::TypesArrow => {
            if op.operands.is_empty() || op.results.is_empty() {
                return false;
            }
            pr.w(op.name());
            pr.w(" ");
            pr.vals(&op.operands);
            pr.attr_dict_except(op, &[]);
            pr.w(" : ");
            let ins: Vec<Type> = op.operands.iter().map(|v| pr.type_of(*v)).collect();
            pr.tys(&ins);
            pr.w(" -> ");
            let outs: Vec<Type> = op.results.iter().map(|v| pr.type_of(*v)).collect();
            crate::printer::types::write_result_types(&mut pr.out, &outs);
            true
        }
        Syntax::Custom => match op.kind {
            K::Constant | K::ChloConstant => simple::print_constant(pr, op),
            K::Iota | K::CreateToken | K::ReplicaId | K::PartitionId => simple::print_nullary(pr, op),
            K::Tuple => simple::print_tuple(pr, op),
            K::GetTupleElement => simple::print_get_tuple_element(pr, op),
            K::Compare => simple::print_compare(pr, op),
            K::Select => simple::print_select(pr, op),
            K::Complex => simple::print_complex(pr, op),
            K::OptimizationBarrier => simple::print_optimization_barrier(pr, op),
            K::Return | K::FuncReturn => simple::print_return(pr, op),
            K::Cholesky | K::ReducePrecision | K::Reverse => shape::print_same_type_with_attrs(pr, op),
            K::DotGeneral | K::Dot | K::Convolution => dot_conv::print(pr, op),
            K::Reduce | K::While => regions::print(pr, op),
            K::CustomCall | K::Composite | K::Call => calls::print(pr, op),
            K::ChloTopK
            | K::CheckExpectEq
            | K::CheckExpectEqConst
            | K::CheckExpectAlmostEq
            | K::CheckExpectAlmostEqConst
            | K::CheckExpectClose
            | K::CheckExpectSerializedEq
            | K::InterpreterProbe => check_chlo::print(pr, op),
            _ => shape::print_functional_with_attrs(pr, op),
        },
    }
}

/// `op %a, %b attr-dict : T` or `: (T, U) -> R` (StableHLO's SameOperandsAndResultType).
fn parse_operands_form<'a>(p: &mut Parser<'a>, ctx: &mut FuncCtx<'a>, kind: OpKind) -> PResult<Parsed> {
    let uses = p.parse_uses(ctx)?;
    let attrs = p.opt_attr_dict()?;
    let (operands, results) = p.colon_same_type(ctx, &uses)?;
    Ok((op_with(kind, operands, attrs), results))
}

fn print_operands_form(pr: &mut Printer<'_>, op: &Op) -> bool {
    if op.results.len() != 1 {
        return false;
    }
    pr.w(op.name());
    if !op.operands.is_empty() {
        pr.w(" ");
        pr.vals(&op.operands);
    }
    pr.attr_dict_except(op, &[]);
    pr.w(" : ");
    same_type(pr, op);
    true
}

/// `T` when every operand and the result have type T, else the function type.
pub(crate) fn same_type(pr: &mut Printer<'_>, op: &Op) {
    let rt = op.results.first().map(|r| pr.type_of(*r));
    let all_same = rt.is_some() && op.results.len() == 1 && op.operands.iter().all(|v| Some(pr.type_of(*v)) == rt);
    match rt {
        Some(t) if all_same => pr.ty(&t),
        _ => pr.functional_type(op),
    }
}

/// A new op of `kind` with operands and attributes.
pub(crate) fn op_with(kind: OpKind, operands: Vec<Value>, attrs: Vec<NamedAttr>) -> Op {
    let mut op = Op::new(kind, operands, Vec::new());
    op.attrs = attrs;
    op
}

/// The `array<i64: ...>` attribute `name` of an op, if it has exactly that form.
pub(crate) fn i64_array(op: &Op, name: &str) -> Option<Vec<i64>> {
    match op.attr(name) {
        Some(Attr::DenseArray(DenseArray::I64(v))) => Some(v.clone()),
        _ => None,
    }
}

/// An `Int` attribute of element type i64 (what `dim = N` reads back as).
pub(crate) fn i64_attr(op: &Op, name: &str) -> Option<i64> {
    match op.attr(name) {
        Some(Attr::Int(v, e)) if *e == oxhlo_ir::ElementType::I64 => Some(*v),
        _ => None,
    }
}

impl<'a> Parser<'a> {
    /// An optional `{...}` attribute dictionary.
    pub fn opt_attr_dict(&mut self) -> PResult<Vec<NamedAttr>> {
        if self.eat(Tok::LBrace) {
            return self.parse_dict_body();
        }
        Ok(Vec::new())
    }

    /// `kw =`.
    pub fn kw_eq(&mut self, kw: &str) -> PResult<()> {
        self.expect_kw(kw)?;
        self.expect(Tok::Equal, &format!("'=' after '{kw}'"))?;
        Ok(())
    }

    /// `, kw =` when present.
    pub fn opt_comma_kw(&mut self, kw: &str) -> PResult<bool> {
        if self.is(Tok::Comma) && self.peek().kind == Tok::BareId && self.peek().text == kw {
            self.advance();
            self.kw_eq(kw)?;
            return Ok(true);
        }
        Ok(false)
    }

    /// `: (T, U) -> R`, checked against the uses.
    pub fn colon_functional(&mut self, ctx: &FuncCtx<'a>, uses: &[Use<'a>]) -> PResult<(Vec<Value>, Vec<Type>)> {
        self.expect(Tok::Colon, "':' and the op's function type")?;
        let at = self.tok.pos;
        match self.parse_type()? {
            Type::Function(f) => {
                let ops = self.check_uses(ctx, uses, &f.inputs, at)?;
                Ok((ops, f.results))
            }
            _ => Err(self.err_at(at, "expected a function type '(operand types) -> result types'")),
        }
    }

    /// `: T` (every operand and the one result have type T) or `: (T, U) -> R`.
    pub fn colon_same_type(&mut self, ctx: &FuncCtx<'a>, uses: &[Use<'a>]) -> PResult<(Vec<Value>, Vec<Type>)> {
        self.expect(Tok::Colon, "':' and the type")?;
        let at = self.tok.pos;
        match self.parse_type()? {
            Type::Function(f) => {
                let ops = self.check_uses(ctx, uses, &f.inputs, at)?;
                Ok((ops, f.results))
            }
            t => {
                let tys = vec![t.clone(); uses.len()];
                let ops = self.check_uses(ctx, uses, &tys, at)?;
                Ok((ops, vec![t]))
            }
        }
    }

    /// `[1, 2]` as an `array<i64: 1, 2>` attribute.
    pub fn i64_array_attr(&mut self) -> PResult<Attr> {
        Ok(Attr::DenseArray(DenseArray::I64(self.parse_i64_list()?)))
    }
}

/// Attributes that are inherent to an op (printed as `<{...}>` properties in the generic form).
pub fn inherent_attrs(kind: OpKind) -> &'static [&'static str] {
    use OpKind as K;
    match kind {
        K::Constant | K::ChloConstant | K::ChloConstantLike => &["value"],
        K::Iota | K::DynamicIota => &["iota_dimension"],
        K::AllGather => &["all_gather_dim", "replica_groups", "channel_handle", "use_global_device_ids"],
        K::AllReduce => &["replica_groups", "channel_handle", "use_global_device_ids"],
        K::ReduceScatter => &["scatter_dimension", "replica_groups", "channel_handle", "use_global_device_ids"],
        K::AllToAll => &["split_dimension", "concat_dimension", "split_count", "replica_groups", "channel_handle"],
        K::CollectivePermute => &["source_target_pairs", "channel_handle"],
        K::CollectiveBroadcast => &["replica_groups", "channel_handle"],
        K::CrossReplicaSum => &["replica_groups"],
        K::BatchNormGrad | K::BatchNormInference | K::BatchNormTraining => &["epsilon", "feature_index"],
        K::BroadcastInDim | K::DynamicBroadcastInDim => {
            &["broadcast_dimensions", "known_expanding_dimensions", "known_nonexpanding_dimensions"]
        }
        K::Broadcast => &["broadcast_sizes"],
        K::Cholesky => &["lower"],
        K::Compare => &["comparison_direction", "compare_type"],
        K::Concatenate => &["dimension"],
        K::Convolution => &[
            "window_strides",
            "padding",
            "lhs_dilation",
            "rhs_dilation",
            "window_reversal",
            "dimension_numbers",
            "feature_group_count",
            "batch_group_count",
            "precision_config",
        ],
        K::DynamicConv => &["padding", "window_strides", "lhs_dilation", "rhs_dilation", "window_reversal", "dimension_numbers", "feature_group_count", "batch_group_count", "precision_config"],
        K::CustomCall => &[
            "call_target_name",
            "has_side_effect",
            "backend_config",
            "api_version",
            "called_computations",
            "operand_layouts",
            "result_layouts",
            "output_operand_aliases",
        ],
        K::Composite => &["name", "composite_attributes", "decomposition", "version"],
        K::Dot => &["precision_config"],
        K::DotGeneral => &["dot_dimension_numbers", "precision_config", "algorithm"],
        K::Einsum | K::UnaryEinsum => &["einsum_config"],
        K::Fft => &["fft_type", "fft_length"],
        K::Gather => &["dimension_numbers", "slice_sizes", "indices_are_sorted"],
        K::DynamicGather => &["dimension_numbers", "indices_are_sorted"],
        K::GetDimensionSize | K::SetDimensionSize => &["dimension"],
        K::GetTupleElement => &["index"],
        K::Infeed => &["infeed_config", "layout"],
        K::Outfeed => &["outfeed_config"],
        K::Send => &["channel_handle", "is_host_transfer", "source_target_pairs"],
        K::Recv => &["channel_handle", "is_host_transfer", "source_target_pairs"],
        K::Map => &["dimensions"],
        K::Pad => &["edge_padding_low", "edge_padding_high", "interior_padding"],
        K::Reduce => &["dimensions"],
        K::ReducePrecision => &["exponent_bits", "mantissa_bits"],
        K::ReduceWindow => &["window_dimensions", "window_strides", "base_dilations", "window_dilations", "padding"],
        K::Reverse => &["dimensions"],
        K::Rng => &["rng_distribution"],
        K::RngBitGenerator => &["rng_algorithm"],
        K::Scatter => &["scatter_dimension_numbers", "indices_are_sorted", "unique_indices"],
        K::SelectAndScatter => &["window_dimensions", "window_strides", "padding"],
        K::Slice => &["start_indices", "limit_indices", "strides"],
        K::DynamicSlice => &["slice_sizes"],
        K::Sort => &["dimension", "is_stable"],
        K::Transpose => &["permutation"],
        K::TriangularSolve => &["left_side", "lower", "unit_diagonal", "transpose_a"],
        K::TorchIndexSelect => &["dim", "batch_dims"],
        K::Call => &["callee", "arg_attrs", "res_attrs", "no_inline"],
        K::ChloTopK => &["k", "largest"],
        K::ChloBroadcastCompare => &["broadcast_dimensions", "comparison_direction", "compare_type"],
        K::CheckExpectAlmostEq | K::CheckExpectAlmostEqConst => &["tolerance", "value"],
        K::CheckExpectEqConst => &["value"],
        K::CheckExpectClose => &["max_ulp_difference", "min_ulp_difference"],
        K::CheckExpectSerializedEq => &["probe_id", "iteration"],
        K::InterpreterRunParallel => &["programs", "infeed"],
        K::InterpreterProbe => &["probe_id"],
        _ => &[],
    }
}
