//! The op table: every op oxhlo knows, declared once, with its name, its pretty-syntax class and its
//! signature (operand, result and region counts). The text parser and printer, the bytecode reader, the
//! verifier and the interpreter all dispatch on [`OpKind`] from this one table.

/// How an op is written in the pretty (custom) syntax.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    /// Only the generic form `"dialect.op"(%a) {attrs} : (T) -> U`.
    Generic,
    /// `%r = dialect.op %a, %b : T` when operand and result types are all equal, else `: (T, T) -> U`.
    Operands,
    /// `%r = dialect.op %a, %b {attrs} : (T, T) -> U` (always the function type).
    Functional,
    /// `%r = chlo.op %a, %b : T, T -> U` (chlo's elementwise ops: types, arrow, result types).
    TypesArrow,
    /// A syntax of its own, parsed and printed by a dedicated routine in the text crate.
    Custom,
}

/// How many operands or results an op takes: `min..=max` (`max == MANY` for variadic).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arity {
    pub min: u16,
    pub max: u16,
}

/// Unbounded variadic arity.
pub const MANY: u16 = u16::MAX;

impl Arity {
    /// Whether `n` values fit.
    pub fn accepts(self, n: usize) -> bool {
        n >= self.min as usize && (self.max == MANY || n <= self.max as usize)
    }
}

/// The static description of one op.
#[derive(Clone, Copy, Debug)]
pub struct OpDef {
    pub kind: OpKind,
    pub name: &'static str,
    pub syntax: Syntax,
    pub operands: Arity,
    pub results: Arity,
    /// Number of regions the op carries.
    pub regions: u8,
}

macro_rules! op_table {
    ($($variant:ident = $name:literal, $syntax:ident, ($omin:expr, $omax:expr), ($rmin:expr, $rmax:expr), $regions:expr;)*) => {
        /// Every op oxhlo models (plus `Unregistered` for ops of other dialects, kept verbatim).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum OpKind { $($variant,)* Unregistered }

        /// The table, one row per op, in declaration order.
        pub static OP_TABLE: &[OpDef] = &[
            $(OpDef {
                kind: OpKind::$variant,
                name: $name,
                syntax: Syntax::$syntax,
                operands: Arity { min: $omin, max: $omax },
                results: Arity { min: $rmin, max: $rmax },
                regions: $regions,
            },)*
        ];
    };
}

impl OpKind {
    /// The op's row in [`OP_TABLE`] (None for `Unregistered`).
    pub fn def(self) -> Option<&'static OpDef> {
        OP_TABLE.get(self as usize)
    }
    /// The full op name (`stablehlo.add`); `"<unregistered>"` for unregistered ops.
    pub fn name(self) -> &'static str {
        self.def().map(|d| d.name).unwrap_or("<unregistered>")
    }
    /// Looks an op up by its full name.
    pub fn from_name(name: &str) -> Option<OpKind> {
        static INDEX: std::sync::OnceLock<std::collections::HashMap<&'static str, OpKind>> = std::sync::OnceLock::new();
        INDEX.get_or_init(|| OP_TABLE.iter().map(|d| (d.name, d.kind)).collect()).get(name).copied()
    }
    /// The pretty-syntax class.
    pub fn syntax(self) -> Syntax {
        self.def().map(|d| d.syntax).unwrap_or(Syntax::Generic)
    }
    /// The dialect prefix (`stablehlo`, `chlo`, `func`, `check`, `interpreter`).
    pub fn dialect(self) -> &'static str {
        let n = self.name();
        n.split('.').next().unwrap_or(n)
    }
}

// Variant = "name", syntax, (min operands, max operands), (min results, max results), regions;
op_table! {
    // ---- the StableHLO spec's 108 ops ----
    Abs = "stablehlo.abs", Operands, (1, 1), (1, 1), 0;
    Add = "stablehlo.add", Operands, (2, 2), (1, 1), 0;
    AfterAll = "stablehlo.after_all", Operands, (0, MANY), (1, 1), 0;
    AllGather = "stablehlo.all_gather", Generic, (1, MANY), (1, MANY), 0;
    AllReduce = "stablehlo.all_reduce", Generic, (1, MANY), (1, MANY), 1;
    AllToAll = "stablehlo.all_to_all", Generic, (1, MANY), (1, MANY), 0;
    And = "stablehlo.and", Operands, (2, 2), (1, 1), 0;
    AsyncDone = "stablehlo.async_done", Generic, (1, 1), (0, MANY), 0;
    AsyncStart = "stablehlo.async_start", Generic, (0, MANY), (1, 1), 0;
    Atan2 = "stablehlo.atan2", Operands, (2, 2), (1, 1), 0;
    BatchNormGrad = "stablehlo.batch_norm_grad", Generic, (5, 5), (3, 3), 0;
    BatchNormInference = "stablehlo.batch_norm_inference", Generic, (5, 5), (1, 1), 0;
    BatchNormTraining = "stablehlo.batch_norm_training", Generic, (3, 3), (3, 3), 0;
    BitcastConvert = "stablehlo.bitcast_convert", Functional, (1, 1), (1, 1), 0;
    BroadcastInDim = "stablehlo.broadcast_in_dim", Custom, (1, 1), (1, 1), 0;
    Case = "stablehlo.case", Generic, (1, 1), (0, MANY), MANY_REGIONS;
    Cbrt = "stablehlo.cbrt", Operands, (1, 1), (1, 1), 0;
    Ceil = "stablehlo.ceil", Operands, (1, 1), (1, 1), 0;
    Cholesky = "stablehlo.cholesky", Custom, (1, 1), (1, 1), 0;
    Clamp = "stablehlo.clamp", Operands, (3, 3), (1, 1), 0;
    // variadic with `has_dynamic_root` (data operands, then the root indices), as upstream now has
    CollectiveBroadcast = "stablehlo.collective_broadcast", Generic, (1, MANY), (1, MANY), 0;
    CollectivePermute = "stablehlo.collective_permute", Generic, (1, 1), (1, 1), 0;
    CollectiveReduce = "stablehlo.collective_reduce", Generic, (1, MANY), (1, MANY), 1;
    Compare = "stablehlo.compare", Custom, (2, 2), (1, 1), 0;
    Complex = "stablehlo.complex", Custom, (2, 2), (1, 1), 0;
    Composite = "stablehlo.composite", Custom, (0, MANY), (0, MANY), 0;
    Concatenate = "stablehlo.concatenate", Custom, (1, MANY), (1, 1), 0;
    Constant = "stablehlo.constant", Custom, (0, 0), (1, 1), 0;
    Convert = "stablehlo.convert", Operands, (1, 1), (1, 1), 0;
    Convolution = "stablehlo.convolution", Custom, (2, 2), (1, 1), 0;
    Cosine = "stablehlo.cosine", Operands, (1, 1), (1, 1), 0;
    CountLeadingZeros = "stablehlo.count_leading_zeros", Operands, (1, 1), (1, 1), 0;
    CustomCall = "stablehlo.custom_call", Custom, (0, MANY), (0, MANY), 0;
    Divide = "stablehlo.divide", Operands, (2, 2), (1, 1), 0;
    DotGeneral = "stablehlo.dot_general", Custom, (2, 2), (1, 1), 0;
    DynamicBroadcastInDim = "stablehlo.dynamic_broadcast_in_dim", Custom, (2, 2), (1, 1), 0;
    // printed generic (MLIR of the installed jaxlib has no pretty form); the newer pretty form parses
    DynamicConv = "stablehlo.dynamic_conv", Generic, (3, 3), (1, 1), 0;
    DynamicGather = "stablehlo.dynamic_gather", Generic, (3, 3), (1, 1), 0;
    DynamicIota = "stablehlo.dynamic_iota", Custom, (1, 1), (1, 1), 0;
    DynamicPad = "stablehlo.dynamic_pad", Functional, (5, 5), (1, 1), 0;
    DynamicReshape = "stablehlo.dynamic_reshape", Functional, (2, 2), (1, 1), 0;
    DynamicSlice = "stablehlo.dynamic_slice", Custom, (1, MANY), (1, 1), 0;
    DynamicUpdateSlice = "stablehlo.dynamic_update_slice", Functional, (2, MANY), (1, 1), 0;
    Exponential = "stablehlo.exponential", Operands, (1, 1), (1, 1), 0;
    ExponentialMinusOne = "stablehlo.exponential_minus_one", Operands, (1, 1), (1, 1), 0;
    Fft = "stablehlo.fft", Custom, (1, 1), (1, 1), 0;
    Floor = "stablehlo.floor", Operands, (1, 1), (1, 1), 0;
    Gather = "stablehlo.gather", Generic, (2, 2), (1, 1), 0;
    GetDimensionSize = "stablehlo.get_dimension_size", Custom, (1, 1), (1, 1), 0;
    GetTupleElement = "stablehlo.get_tuple_element", Custom, (1, 1), (1, 1), 0;
    If = "stablehlo.if", Generic, (1, 1), (0, MANY), 2;
    Imag = "stablehlo.imag", Operands, (1, 1), (1, 1), 0;
    Infeed = "stablehlo.infeed", Generic, (1, 1), (1, MANY), 0;
    Iota = "stablehlo.iota", Custom, (0, 0), (1, 1), 0;
    IsFinite = "stablehlo.is_finite", Functional, (1, 1), (1, 1), 0;
    Log = "stablehlo.log", Operands, (1, 1), (1, 1), 0;
    LogPlusOne = "stablehlo.log_plus_one", Operands, (1, 1), (1, 1), 0;
    Logistic = "stablehlo.logistic", Operands, (1, 1), (1, 1), 0;
    Map = "stablehlo.map", Generic, (1, MANY), (1, 1), 1;
    Maximum = "stablehlo.maximum", Operands, (2, 2), (1, 1), 0;
    Minimum = "stablehlo.minimum", Operands, (2, 2), (1, 1), 0;
    Multiply = "stablehlo.multiply", Operands, (2, 2), (1, 1), 0;
    Negate = "stablehlo.negate", Operands, (1, 1), (1, 1), 0;
    Not = "stablehlo.not", Operands, (1, 1), (1, 1), 0;
    OptimizationBarrier = "stablehlo.optimization_barrier", Custom, (0, MANY), (0, MANY), 0;
    Or = "stablehlo.or", Operands, (2, 2), (1, 1), 0;
    Outfeed = "stablehlo.outfeed", Generic, (1, MANY), (1, 1), 0;
    Pad = "stablehlo.pad", Custom, (2, 2), (1, 1), 0;
    PartitionId = "stablehlo.partition_id", Custom, (0, 0), (1, 1), 0;
    Popcnt = "stablehlo.popcnt", Operands, (1, 1), (1, 1), 0;
    Power = "stablehlo.power", Operands, (2, 2), (1, 1), 0;
    Real = "stablehlo.real", Operands, (1, 1), (1, 1), 0;
    Recv = "stablehlo.recv", Generic, (1, 1), (1, MANY), 0;
    Reduce = "stablehlo.reduce", Custom, (2, MANY), (1, MANY), 1;
    ReducePrecision = "stablehlo.reduce_precision", Custom, (1, 1), (1, 1), 0;
    ReduceScatter = "stablehlo.reduce_scatter", Generic, (1, MANY), (1, MANY), 1;
    ReduceWindow = "stablehlo.reduce_window", Generic, (2, MANY), (1, MANY), 1;
    Remainder = "stablehlo.remainder", Operands, (2, 2), (1, 1), 0;
    ReplicaId = "stablehlo.replica_id", Custom, (0, 0), (1, 1), 0;
    Reshape = "stablehlo.reshape", Functional, (1, 1), (1, 1), 0;
    Reverse = "stablehlo.reverse", Custom, (1, 1), (1, 1), 0;
    Rng = "stablehlo.rng", Custom, (3, 3), (1, 1), 0;
    RngBitGenerator = "stablehlo.rng_bit_generator", Custom, (1, 1), (2, 2), 0;
    RoundNearestAfz = "stablehlo.round_nearest_afz", Operands, (1, 1), (1, 1), 0;
    RoundNearestEven = "stablehlo.round_nearest_even", Operands, (1, 1), (1, 1), 0;
    Rsqrt = "stablehlo.rsqrt", Operands, (1, 1), (1, 1), 0;
    Scatter = "stablehlo.scatter", Generic, (3, MANY), (1, MANY), 1;
    Select = "stablehlo.select", Custom, (3, 3), (1, 1), 0;
    SelectAndScatter = "stablehlo.select_and_scatter", Generic, (3, 3), (1, 1), 2;
    Send = "stablehlo.send", Generic, (1, MANY), (1, 1), 0;
    ShiftLeft = "stablehlo.shift_left", Operands, (2, 2), (1, 1), 0;
    ShiftRightArithmetic = "stablehlo.shift_right_arithmetic", Operands, (2, 2), (1, 1), 0;
    ShiftRightLogical = "stablehlo.shift_right_logical", Operands, (2, 2), (1, 1), 0;
    Sign = "stablehlo.sign", Operands, (1, 1), (1, 1), 0;
    Sine = "stablehlo.sine", Operands, (1, 1), (1, 1), 0;
    Slice = "stablehlo.slice", Custom, (1, 1), (1, 1), 0;
    Sort = "stablehlo.sort", Generic, (1, MANY), (1, MANY), 1;
    Sqrt = "stablehlo.sqrt", Operands, (1, 1), (1, 1), 0;
    // newer upstream op (stablehlo/tests/interpret/square.mlir): elementwise x * x
    Square = "stablehlo.square", Operands, (1, 1), (1, 1), 0;
    Subtract = "stablehlo.subtract", Operands, (2, 2), (1, 1), 0;
    Tan = "stablehlo.tan", Operands, (1, 1), (1, 1), 0;
    Tanh = "stablehlo.tanh", Operands, (1, 1), (1, 1), 0;
    Transpose = "stablehlo.transpose", Custom, (1, 1), (1, 1), 0;
    TriangularSolve = "stablehlo.triangular_solve", Generic, (2, 2), (1, 1), 0;
    Tuple = "stablehlo.tuple", Custom, (0, MANY), (1, 1), 0;
    UniformDequantize = "stablehlo.uniform_dequantize", Operands, (1, 1), (1, 1), 0;
    UniformQuantize = "stablehlo.uniform_quantize", Operands, (1, 1), (1, 1), 0;
    While = "stablehlo.while", Custom, (0, MANY), (0, MANY), 2;
    Xor = "stablehlo.xor", Operands, (2, 2), (1, 1), 0;
    Return = "stablehlo.return", Custom, (0, MANY), (0, 0), 0;
    // ---- older StableHLO ops that real programs still carry ----
    Broadcast = "stablehlo.broadcast", Custom, (1, 1), (1, 1), 0;
    Dot = "stablehlo.dot", Custom, (2, 2), (1, 1), 0;
    Einsum = "stablehlo.einsum", Custom, (2, 2), (1, 1), 0;
    UnaryEinsum = "stablehlo.unary_einsum", Custom, (1, 1), (1, 1), 0;
    TorchIndexSelect = "stablehlo.torch_index_select", Generic, (2, 2), (1, 1), 0;
    CreateToken = "stablehlo.create_token", Custom, (0, 0), (1, 1), 0;
    CrossReplicaSum = "stablehlo.cross-replica-sum", Generic, (1, 1), (1, 1), 0;
    RealDynamicSlice = "stablehlo.real_dynamic_slice", Functional, (4, 4), (1, 1), 0;
    SetDimensionSize = "stablehlo.set_dimension_size", Custom, (2, 2), (1, 1), 0;
    // ---- func dialect ----
    Call = "func.call", Custom, (0, MANY), (0, MANY), 0;
    FuncReturn = "func.return", Custom, (0, MANY), (0, 0), 0;
    // ---- chlo ops JAX can leave in a program ----
    ChloAcos = "chlo.acos", TypesArrow, (1, 1), (1, 1), 0;
    ChloAcosh = "chlo.acosh", TypesArrow, (1, 1), (1, 1), 0;
    ChloAsin = "chlo.asin", TypesArrow, (1, 1), (1, 1), 0;
    ChloAsinh = "chlo.asinh", TypesArrow, (1, 1), (1, 1), 0;
    ChloAtan = "chlo.atan", TypesArrow, (1, 1), (1, 1), 0;
    ChloAtanh = "chlo.atanh", TypesArrow, (1, 1), (1, 1), 0;
    ChloBesselI1e = "chlo.bessel_i1e", TypesArrow, (1, 1), (1, 1), 0;
    ChloConj = "chlo.conj", TypesArrow, (1, 1), (1, 1), 0;
    ChloCosh = "chlo.cosh", TypesArrow, (1, 1), (1, 1), 0;
    ChloSinh = "chlo.sinh", TypesArrow, (1, 1), (1, 1), 0;
    ChloTan = "chlo.tan", TypesArrow, (1, 1), (1, 1), 0;
    ChloDigamma = "chlo.digamma", TypesArrow, (1, 1), (1, 1), 0;
    ChloErf = "chlo.erf", TypesArrow, (1, 1), (1, 1), 0;
    ChloErfInv = "chlo.erf_inv", TypesArrow, (1, 1), (1, 1), 0;
    ChloErfc = "chlo.erfc", TypesArrow, (1, 1), (1, 1), 0;
    ChloIsInf = "chlo.is_inf", TypesArrow, (1, 1), (1, 1), 0;
    ChloIsNegInf = "chlo.is_neg_inf", TypesArrow, (1, 1), (1, 1), 0;
    ChloIsPosInf = "chlo.is_pos_inf", TypesArrow, (1, 1), (1, 1), 0;
    ChloLgamma = "chlo.lgamma", TypesArrow, (1, 1), (1, 1), 0;
    ChloSquare = "chlo.square", TypesArrow, (1, 1), (1, 1), 0;
    ChloNextAfter = "chlo.next_after", TypesArrow, (2, 2), (1, 1), 0;
    ChloPolygamma = "chlo.polygamma", TypesArrow, (2, 2), (1, 1), 0;
    ChloZeta = "chlo.zeta", TypesArrow, (2, 2), (1, 1), 0;
    ChloTopK = "chlo.top_k", Custom, (1, 1), (2, 2), 0;
    ChloConstant = "chlo.constant", Custom, (0, 0), (1, 1), 0;
    ChloConstantLike = "chlo.constant_like", Generic, (1, 1), (1, 1), 0;
    ChloBroadcastAdd = "chlo.broadcast_add", Functional, (2, 2), (1, 1), 0;
    ChloBroadcastAnd = "chlo.broadcast_and", Functional, (2, 2), (1, 1), 0;
    ChloBroadcastAtan2 = "chlo.broadcast_atan2", Functional, (2, 2), (1, 1), 0;
    ChloBroadcastCompare = "chlo.broadcast_compare", Functional, (2, 2), (1, 1), 0;
    ChloBroadcastComplex = "chlo.broadcast_complex", Functional, (2, 2), (1, 1), 0;
    ChloBroadcastDivide = "chlo.broadcast_divide", Functional, (2, 2), (1, 1), 0;
    ChloBroadcastMaximum = "chlo.broadcast_maximum", Functional, (2, 2), (1, 1), 0;
    ChloBroadcastMinimum = "chlo.broadcast_minimum", Functional, (2, 2), (1, 1), 0;
    ChloBroadcastMultiply = "chlo.broadcast_multiply", Functional, (2, 2), (1, 1), 0;
    ChloBroadcastNextAfter = "chlo.broadcast_next_after", Functional, (2, 2), (1, 1), 0;
    ChloBroadcastOr = "chlo.broadcast_or", Functional, (2, 2), (1, 1), 0;
    ChloBroadcastPolygamma = "chlo.broadcast_polygamma", Functional, (2, 2), (1, 1), 0;
    ChloBroadcastPower = "chlo.broadcast_power", Functional, (2, 2), (1, 1), 0;
    ChloBroadcastRemainder = "chlo.broadcast_remainder", Functional, (2, 2), (1, 1), 0;
    ChloBroadcastShiftLeft = "chlo.broadcast_shift_left", Functional, (2, 2), (1, 1), 0;
    ChloBroadcastShiftRightArithmetic = "chlo.broadcast_shift_right_arithmetic", Functional, (2, 2), (1, 1), 0;
    ChloBroadcastShiftRightLogical = "chlo.broadcast_shift_right_logical", Functional, (2, 2), (1, 1), 0;
    ChloBroadcastSubtract = "chlo.broadcast_subtract", Functional, (2, 2), (1, 1), 0;
    ChloBroadcastXor = "chlo.broadcast_xor", Functional, (2, 2), (1, 1), 0;
    ChloBroadcastZeta = "chlo.broadcast_zeta", Functional, (2, 2), (1, 1), 0;
    ChloRaggedDot = "chlo.ragged_dot", Generic, (3, 3), (1, 1), 0;
    // newer upstream op (stablehlo/tests/interpret/chlo/mulhi.mlir): high half of the double-width product
    ChloMulhi = "chlo.mulhi", Generic, (2, 2), (1, 1), 0;
    // ---- the `check` test dialect ----
    CheckExpectEq = "check.expect_eq", Custom, (2, 2), (0, 0), 0;
    CheckExpectEqConst = "check.expect_eq_const", Custom, (1, 1), (0, 0), 0;
    CheckExpectAlmostEq = "check.expect_almost_eq", Custom, (2, 2), (0, 0), 0;
    CheckExpectAlmostEqConst = "check.expect_almost_eq_const", Custom, (1, 1), (0, 0), 0;
    CheckExpectClose = "check.expect_close", Custom, (2, 2), (0, 0), 0;
    CheckExpectSerializedEq = "check.expect_serialized_eq", Custom, (1, MANY), (0, 0), 0;
    // ---- the StableHLO interpreter's own ops ----
    InterpreterRunParallel = "interpreter.run_parallel", Generic, (0, MANY), (0, MANY), 0;
    InterpreterProbe = "interpreter.probe", Custom, (1, 1), (1, 1), 0;
}

/// Marker for ops with a variable number of regions (`case`): the table stores this in `regions`.
pub const MANY_REGIONS: u8 = u8::MAX;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_indexed_by_kind_and_names_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for (i, d) in OP_TABLE.iter().enumerate() {
            assert_eq!(d.kind as usize, i);
            assert!(seen.insert(d.name), "duplicate op name {}", d.name);
            assert_eq!(OpKind::from_name(d.name), Some(d.kind));
        }
    }

    #[test]
    fn every_spec_op_is_declared() {
        let spec = include_str!("../tests/spec_ops.txt");
        for op in spec.lines().map(str::trim).filter(|l| !l.is_empty()) {
            assert!(OpKind::from_name(&format!("stablehlo.{op}")).is_some(), "missing spec op {op}");
        }
    }
}
