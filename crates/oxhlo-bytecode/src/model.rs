//! The raw, dialect-agnostic data model of a decoded bytecode file: attribute and type
//! entries (builtin, VHLO, or kept opaque for other dialects), referenced by index.
//!
//! The IR tree that uses them lives in `raw.rs`.

/// Index of an attribute entry in [`crate::RawModule::attrs`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AttrId(pub u32);

/// Index of a type entry in [`crate::RawModule::types`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypeId(pub u32);

/// An arbitrary-width integer: little-endian 64-bit words, masked to `width` bits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApInt {
    pub width: u32,
    pub words: Vec<u64>,
}

impl ApInt {
    /// The low 64 bits.
    pub fn low_u64(&self) -> u64 {
        self.words.first().copied().unwrap_or(0)
    }

    /// The value sign-extended from `width` bits, when it fits in an i64. Words past
    /// `words.len()` are zero.
    pub fn as_i64(&self) -> Option<i64> {
        if self.width == 0 {
            return Some(0);
        }
        if self.width <= 64 {
            let shift = 64 - self.width;
            return Some(((self.low_u64() << shift) as i64) >> shift);
        }
        let top = (self.width - 1) as usize;
        let negative = self.words.get(top / 64).is_some_and(|w| (w >> (top % 64)) & 1 == 1);
        let lo = self.low_u64() as i64;
        let nwords = self.width.div_ceil(64) as usize;
        let high_ok = (1..nwords).all(|i| {
            let w = self.words.get(i).copied().unwrap_or(0);
            if !negative {
                return w == 0;
            }
            let bits = if i + 1 == nwords && !self.width.is_multiple_of(64) { self.width % 64 } else { 64 };
            let ones = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
            w == ones
        });
        (high_ok && (lo < 0) == negative).then_some(lo)
    }
}

/// Every float semantics that builtin or VHLO types name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatKind {
    BF16,
    F16,
    F32,
    F64,
    F80,
    F128,
    TF32,
    F8E5M2,
    F8E4M3,
    F8E4M3FN,
    F8E5M2FNUZ,
    F8E4M3FNUZ,
    F8E4M3B11FNUZ,
    F8E3M4,
    F4E2M1FN,
    F6E2M3FN,
    F6E3M2FN,
    F8E8M0FNU,
}

impl FloatKind {
    /// Storage width in bits (the APFloat bit pattern width).
    pub fn bit_width(self) -> u32 {
        use FloatKind::*;
        match self {
            BF16 | F16 => 16,
            F32 => 32,
            F64 => 64,
            F80 => 80,
            F128 => 128,
            TF32 => 19,
            F8E5M2 | F8E4M3 | F8E4M3FN | F8E5M2FNUZ | F8E4M3FNUZ | F8E4M3B11FNUZ | F8E3M4
            | F8E8M0FNU => 8,
            F6E2M3FN | F6E3M2FN => 6,
            F4E2M1FN => 4,
        }
    }

    /// The MLIR spelling (`f32`, `f8E4M3FN`, ...).
    pub fn name(self) -> &'static str {
        use FloatKind::*;
        match self {
            BF16 => "bf16",
            F16 => "f16",
            F32 => "f32",
            F64 => "f64",
            F80 => "f80",
            F128 => "f128",
            TF32 => "tf32",
            F8E5M2 => "f8E5M2",
            F8E4M3 => "f8E4M3",
            F8E4M3FN => "f8E4M3FN",
            F8E5M2FNUZ => "f8E5M2FNUZ",
            F8E4M3FNUZ => "f8E4M3FNUZ",
            F8E4M3B11FNUZ => "f8E4M3B11FNUZ",
            F8E3M4 => "f8E3M4",
            F4E2M1FN => "f4E2M1FN",
            F6E2M3FN => "f6E2M3FN",
            F6E3M2FN => "f6E3M2FN",
            F8E8M0FNU => "f8E8M0FNU",
        }
    }
}

/// Builtin integer signedness (`i`, `si`, `ui`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Signedness {
    Signless,
    Signed,
    Unsigned,
}

/// A decoded attribute entry.
#[derive(Clone, Debug, PartialEq)]
pub enum Attr {
    Builtin(BuiltinAttr),
    Vhlo(VhloAttr),
    /// A custom-encoded entry of stablehlo, chlo or sdy, decoded by its schema.
    Dialect(DialectEntry),
    /// A custom-encoded entry of a dialect this reader does not decode: its bytes.
    Opaque { dialect: String, bytes: Vec<u8> },
    /// The textual-assembly fallback form (`#foo.bar<...>`).
    Asm { dialect: String, text: String },
}

/// A decoded type entry.
#[derive(Clone, Debug, PartialEq)]
pub enum Type {
    Builtin(BuiltinType),
    Vhlo(VhloType),
    /// A custom-encoded type of stablehlo (token, future) or quant, decoded by its schema.
    Dialect(DialectEntry),
    Opaque { dialect: String, bytes: Vec<u8> },
    Asm { dialect: String, text: String },
}

/// Builtin dialect attributes (codes of `BuiltinDialectBytecode.td`), locations included.
#[derive(Clone, Debug, PartialEq)]
pub enum BuiltinAttr {
    Array(Vec<AttrId>),
    /// Named attributes: the key (a StringAttr) resolved to its text.
    Dictionary(Vec<(String, AttrId)>),
    /// A StringAttr (bytes: it may hold binary data); `ty` for StringAttrWithType.
    String { value: Vec<u8>, ty: Option<TypeId> },
    FlatSymbolRef(String),
    SymbolRef { root: String, nested: Vec<String> },
    Type(TypeId),
    Unit,
    Integer { ty: TypeId, value: ApInt },
    /// The float's bit pattern (width from its type's semantics).
    Float { ty: TypeId, bits: ApInt },
    CallSiteLoc { callee: AttrId, caller: AttrId },
    FileLineColLoc { file: String, line: u64, col: u64 },
    FileLineColRange { file: String, start_line: u64, start_col: u64, end_line: u64, end_col: u64 },
    FusedLoc { locations: Vec<AttrId>, metadata: Option<AttrId> },
    NameLoc { name: String, child: AttrId },
    UnknownLoc,
    /// `dense_resource<key>`: `handle` indexes the builtin dialect's resources.
    DenseResourceElements { ty: TypeId, handle: u64, key: Option<String> },
    DenseArray { elem_ty: TypeId, count: u64, data: Vec<u8> },
    DenseElements { ty: TypeId, data: Vec<u8> },
    DenseStringElements { ty: TypeId, splat: bool, values: Vec<Vec<u8>> },
    SparseElements { ty: TypeId, indices: AttrId, values: AttrId },
    Distinct(AttrId),
}

/// Builtin dialect types.
#[derive(Clone, Debug, PartialEq)]
pub enum BuiltinType {
    Integer { width: u32, signedness: Signedness },
    Index,
    Function { inputs: Vec<TypeId>, results: Vec<TypeId> },
    Float(FloatKind),
    Complex(TypeId),
    MemRef { shape: Vec<i64>, elem: TypeId, layout: AttrId, memory_space: Option<AttrId> },
    None,
    /// Dynamic dimensions are `i64::MIN` (MLIR's `ShapedType::kDynamic`).
    RankedTensor { shape: Vec<i64>, elem: TypeId, encoding: Option<AttrId> },
    Tuple(Vec<TypeId>),
    UnrankedMemRef { elem: TypeId, memory_space: Option<AttrId> },
    UnrankedTensor(TypeId),
    Vector { shape: Vec<i64>, elem: TypeId, scalable: Vec<bool> },
}

/// The enum-valued VHLO attributes: which enum, and the raw value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VhloEnum {
    ComparisonDirection,
    ComparisonType,
    CustomCallApiVersion,
    FftType,
    Precision,
    RngAlgorithm,
    RngDistribution,
    Transpose,
    ResultAccuracyMode,
}

impl VhloEnum {
    /// The attribute mnemonic (`comparison_direction_v1`, ...).
    pub fn mnemonic(self) -> &'static str {
        use VhloEnum::*;
        match self {
            ComparisonDirection => "comparison_direction_v1",
            ComparisonType => "comparison_type_v1",
            CustomCallApiVersion => "api_version_v1",
            FftType => "fft_type_v1",
            Precision => "precision_v1",
            RngAlgorithm => "rng_algorithm_v1",
            RngDistribution => "rng_distribution_v1",
            Transpose => "transpose_v1",
            ResultAccuracyMode => "result_accuracy_mode_v1",
        }
    }

    /// The case names, indexed by value (`VhloEnums.td`).
    pub fn cases(self) -> &'static [&'static str] {
        use VhloEnum::*;
        match self {
            ComparisonDirection => &["EQ", "NE", "GE", "GT", "LE", "LT"],
            ComparisonType => &["NOTYPE", "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"],
            CustomCallApiVersion => &[
                "API_VERSION_UNSPECIFIED",
                "API_VERSION_ORIGINAL",
                "API_VERSION_STATUS_RETURNING",
                "API_VERSION_STATUS_RETURNING_UNIFIED",
                "API_VERSION_TYPED_FFI",
            ],
            FftType => &["FFT", "IFFT", "RFFT", "IRFFT"],
            Precision => &["DEFAULT", "HIGH", "HIGHEST"],
            RngAlgorithm => &["DEFAULT", "THREE_FRY", "PHILOX"],
            RngDistribution => &["UNSPECIFIED", "UNIFORM", "NORMAL"],
            Transpose => &["TRANSPOSE_INVALID", "NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"],
            ResultAccuracyMode => &["DEFAULT", "HIGHEST", "TOLERANCE"],
        }
    }

    /// The case name of `value`, if it is one.
    pub fn case(self, value: u64) -> Option<&'static str> {
        usize::try_from(value).ok().and_then(|i| self.cases().get(i).copied())
    }
}

/// VHLO attributes (codes of `VhloBytecode.cpp`).
#[derive(Clone, Debug, PartialEq)]
pub enum VhloAttr {
    Array(Vec<AttrId>),
    Bool(bool),
    Enum { kind: VhloEnum, value: u64 },
    Dictionary(Vec<(AttrId, AttrId)>),
    Float { ty: TypeId, bits: ApInt },
    Integer { ty: TypeId, value: ApInt },
    OutputOperandAlias { output_tuple_indices: Vec<i64>, operand_index: i64, operand_tuple_indices: Vec<i64> },
    String(Vec<u8>),
    /// A dense tensor: raw little-endian element data (splat = one element; i1 may be
    /// bit-packed).
    Tensor { ty: TypeId, data: Vec<u8> },
    Type(TypeId),
    TypeExtensions { bounds: Vec<i64> },
    ResultAccuracy { atol: f64, rtol: f64, ulps: i64, mode: AttrId },
    SubAxisInfo { pre_size: i64, size: i64 },
    AxisRef { name: AttrId, sub_axis_info: Option<AttrId> },
    ReplicaGroupMeshAxes { mesh_name: AttrId, axes: AttrId },
    MeshAxis { name: AttrId, size: i64 },
    Mesh { axes: AttrId, device_ids: Option<AttrId> },
}

/// VHLO types (codes of `VhloBytecode.cpp`).
#[derive(Clone, Debug, PartialEq)]
pub enum VhloType {
    Bool,
    Complex(TypeId),
    Float(FloatKind),
    Function { inputs: Vec<TypeId>, outputs: Vec<TypeId> },
    Index,
    /// `!vhlo.iN_v1` (signed) or `!vhlo.uiN_v1`.
    Integer { width: u32, unsigned: bool },
    /// Dynamic dimensions are `i64::MIN`.
    RankedTensor { shape: Vec<i64>, elem: TypeId, encoding: Option<AttrId> },
    Token,
    Tuple(Vec<TypeId>),
    UniformQuantized {
        flags: u64,
        storage: TypeId,
        expressed: TypeId,
        scale: f64,
        zero_point: i64,
        storage_min: i64,
        storage_max: i64,
    },
    UniformQuantizedPerAxis {
        flags: u64,
        storage: TypeId,
        expressed: TypeId,
        quantized_dimension: u64,
        storage_min: i64,
        storage_max: i64,
        scales: Vec<f64>,
        zero_points: Vec<i64>,
    },
    UnrankedTensor(TypeId),
    Witness,
    None,
    Buffer { shape: Vec<i64>, elem: TypeId },
    Future(Vec<TypeId>),
}

/// A custom-encoded attribute or type of the stablehlo, chlo, sdy or quant dialect:
/// its kind code and fields in encoding order (see `dialects.rs` for the schemas).
#[derive(Clone, Debug, PartialEq)]
pub struct DialectEntry {
    pub dialect: String,
    pub code: u64,
    pub fields: Vec<Field>,
}

/// One decoded field of a [`DialectEntry`].
#[derive(Clone, Debug, PartialEq)]
pub enum Field {
    U(u64),
    S(i64),
    Ints(Vec<i64>),
    Bool(bool),
    F64(f64),
    F64s(Vec<f64>),
    Str(String),
    Attr(AttrId),
    OptAttr(Option<AttrId>),
    Attrs(Vec<AttrId>),
    Type(TypeId),
    Types(Vec<TypeId>),
    OptU(Option<u64>),
}
