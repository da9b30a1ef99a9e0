//! Attributes: MLIR builtin attributes (integers, floats, strings, arrays, dense elements, dictionaries,
//! symbol references, types) and the StableHLO dialect's own attributes (comparison directions, dimension
//! numbers, precision configs, ...), in typed form so later layers never re-parse text.

use crate::dense::DenseElements;
use crate::types::{ElementType, Type};

/// A named attribute `name = value`.
pub type NamedAttr = (String, Attr);

/// Any attribute value.
#[derive(Clone, Debug, PartialEq)]
pub enum Attr {
    /// `unit` (the presence of a name).
    Unit,
    Bool(bool),
    /// `42 : i64` (the element type is `Index` for `: index`).
    Int(i64, ElementType),
    /// `1.5 : f32`, stored exactly as f64.
    Float(f64, ElementType),
    Str(String),
    Type(Type),
    Array(Vec<Attr>),
    /// `array<i64: 1, 2>` (also i1 / i32 / f32 / f64 element kinds).
    DenseArray(DenseArray),
    /// `dense<...> : tensor<...>`
    Dense(DenseElements),
    /// `dense_resource<name> : tensor<...>`, resolved against the module's resources when used.
    DenseResource(String, Type),
    Dict(Vec<NamedAttr>),
    /// `@name` (nested references `@a::@b` kept as the joined text `a::@b`).
    SymbolRef(String),
    ComparisonDirection(ComparisonDirection),
    ComparisonType(ComparisonType),
    Precision(Precision),
    FftType(FftType),
    Transpose(Transpose),
    RngDistribution(RngDistribution),
    RngAlgorithm(RngAlgorithm),
    DotDims(DotDims),
    GatherDims(GatherDims),
    ScatterDims(ScatterDims),
    ConvDims(ConvDims),
    OutputOperandAlias(OutputOperandAlias),
    ChannelHandle { handle: i64, kind: i64 },
    DotAlgorithm(Box<DotAlgorithm>),
    ResultAccuracy(ResultAccuracy),
    /// `#stablehlo.bounds<?, 4>` (type extensions for bounded dynamism; [`crate::DYN`] for `?`).
    Bounds(Vec<i64>),
    /// An attribute of a dialect oxhlo does not model (`#sdy.sharding<...>`), kept verbatim.
    Opaque(String),
}

/// A dense array attribute's payload. Equality compares float elements bit for bit (a NaN equals the
/// same NaN), as attribute equality in MLIR does.
#[derive(Clone, Debug)]
pub enum DenseArray {
    Bool(Vec<bool>),
    I8(Vec<i64>),
    I16(Vec<i64>),
    I32(Vec<i64>),
    I64(Vec<i64>),
    F32(Vec<f64>),
    F64(Vec<f64>),
}

impl PartialEq for DenseArray {
    fn eq(&self, other: &DenseArray) -> bool {
        use DenseArray as D;
        let bits = |a: &[f64], b: &[f64]| a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits());
        match (self, other) {
            (D::Bool(a), D::Bool(b)) => a == b,
            (D::I8(a), D::I8(b)) | (D::I16(a), D::I16(b)) | (D::I32(a), D::I32(b)) | (D::I64(a), D::I64(b)) => a == b,
            (D::F32(a), D::F32(b)) | (D::F64(a), D::F64(b)) => bits(a, b),
            _ => false,
        }
    }
}

impl Attr {
    /// Integer value of an `Int` or `Bool` attribute.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Attr::Int(v, _) => Some(*v),
            Attr::Bool(b) => Some(*b as i64),
            _ => None,
        }
    }
    /// The i64 list of an `array<i64: ...>` (or of an array of integer attributes, or a 1-D dense int attr).
    pub fn as_i64_list(&self) -> Option<Vec<i64>> {
        match self {
            Attr::DenseArray(
                DenseArray::I8(v) | DenseArray::I16(v) | DenseArray::I32(v) | DenseArray::I64(v),
            ) => Some(v.clone()),
            Attr::Array(items) => items.iter().map(Attr::as_int).collect(),
            Attr::Dense(d) if d.ty.elem.is_integer() => d.to_i64_vec(),
            _ => None,
        }
    }
    /// The bool list of an `array<i1: ...>`.
    pub fn as_bool_list(&self) -> Option<Vec<bool>> {
        match self {
            Attr::DenseArray(DenseArray::Bool(v)) => Some(v.clone()),
            Attr::Array(items) => items
                .iter()
                .map(|a| if let Attr::Bool(b) = a { Some(*b) } else { None })
                .collect(),
            Attr::Dense(d) if d.ty.elem.is_bool() => {
                d.to_i64_vec().map(|v| v.into_iter().map(|x| x != 0).collect())
            }
            _ => None,
        }
    }
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Attr::Str(s) => Some(s),
            _ => None,
        }
    }
    pub fn as_symbol(&self) -> Option<&str> {
        match self {
            Attr::SymbolRef(s) => Some(s),
            _ => None,
        }
    }
    pub fn as_type(&self) -> Option<&Type> {
        match self {
            Attr::Type(t) => Some(t),
            _ => None,
        }
    }
    pub fn as_dense(&self) -> Option<&DenseElements> {
        match self {
            Attr::Dense(d) => Some(d),
            _ => None,
        }
    }
}

/// Declares a StableHLO enum attribute with its keyword spellings.
macro_rules! ir_enum {
    ($(#[$m:meta])* $name:ident { $($variant:ident = $text:literal),* $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name { $($variant),* }
        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),*];
            /// The keyword as written in StableHLO text.
            pub fn keyword(self) -> &'static str {
                match self { $($name::$variant => $text),* }
            }
            /// Parses the keyword.
            pub fn from_keyword(s: &str) -> Option<$name> {
                match s { $($text => Some($name::$variant),)* _ => None }
            }
        }
    };
}

ir_enum!(
    /// `#stablehlo<comparison_direction EQ>`
    ComparisonDirection { Eq = "EQ", Ne = "NE", Ge = "GE", Gt = "GT", Le = "LE", Lt = "LT" }
);
ir_enum!(
    /// `#stablehlo<comparison_type TOTALORDER>`; `WEAKORDER` (floats: all NaNs equal and greater than
    /// every number, `-0 == +0`) is the newer upstream spelling used by StableHLO's interpreter tests.
    ComparisonType {
        NotType = "NOTYPE",
        Float = "FLOAT",
        TotalOrder = "TOTALORDER",
        WeakOrder = "WEAKORDER",
        Signed = "SIGNED",
        Unsigned = "UNSIGNED",
    }
);
ir_enum!(
    /// `#stablehlo<precision HIGHEST>`
    Precision { Default = "DEFAULT", High = "HIGH", Highest = "HIGHEST" }
);
ir_enum!(
    /// `#stablehlo<fft_type RFFT>`
    FftType { Fft = "FFT", Ifft = "IFFT", Rfft = "RFFT", Irfft = "IRFFT" }
);
ir_enum!(
    /// `#stablehlo<transpose ADJOINT>` (triangular_solve)
    Transpose { TransposeInvalid = "TRANSPOSE_INVALID", NoTranspose = "NO_TRANSPOSE", Transpose = "TRANSPOSE", Adjoint = "ADJOINT" }
);
ir_enum!(
    /// `#stablehlo<rng_distribution UNIFORM>`
    RngDistribution { Uniform = "UNIFORM", Normal = "NORMAL" }
);
ir_enum!(
    /// `#stablehlo<rng_algorithm THREE_FRY>`
    RngAlgorithm { Default = "DEFAULT", ThreeFry = "THREE_FRY", Philox = "PHILOX" }
);
ir_enum!(
    /// `#stablehlo.result_accuracy_mode<DEFAULT>`
    ResultAccuracyMode { Default = "DEFAULT", Highest = "HIGHEST", Tolerance = "TOLERANCE" }
);

/// `#stablehlo.dot<...>`: dot_general's dimension numbers.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct DotDims {
    pub lhs_batching_dimensions: Vec<i64>,
    pub rhs_batching_dimensions: Vec<i64>,
    pub lhs_contracting_dimensions: Vec<i64>,
    pub rhs_contracting_dimensions: Vec<i64>,
}

/// `#stablehlo.gather<...>`
#[derive(Clone, Debug, PartialEq, Default)]
pub struct GatherDims {
    pub offset_dims: Vec<i64>,
    pub collapsed_slice_dims: Vec<i64>,
    pub operand_batching_dims: Vec<i64>,
    pub start_indices_batching_dims: Vec<i64>,
    pub start_index_map: Vec<i64>,
    pub index_vector_dim: i64,
}

/// `#stablehlo.scatter<...>`
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ScatterDims {
    pub update_window_dims: Vec<i64>,
    pub inserted_window_dims: Vec<i64>,
    pub input_batching_dims: Vec<i64>,
    pub scatter_indices_batching_dims: Vec<i64>,
    pub scatter_dims_to_operand_dims: Vec<i64>,
    pub index_vector_dim: i64,
}

/// `#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>`
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ConvDims {
    pub input_batch_dimension: i64,
    pub input_feature_dimension: i64,
    pub input_spatial_dimensions: Vec<i64>,
    pub kernel_input_feature_dimension: i64,
    pub kernel_output_feature_dimension: i64,
    pub kernel_spatial_dimensions: Vec<i64>,
    pub output_batch_dimension: i64,
    pub output_feature_dimension: i64,
    pub output_spatial_dimensions: Vec<i64>,
}

/// `#stablehlo.output_operand_alias<...>` (custom_call)
#[derive(Clone, Debug, PartialEq, Default)]
pub struct OutputOperandAlias {
    pub output_tuple_indices: Vec<i64>,
    pub operand_index: i64,
    pub operand_tuple_indices: Vec<i64>,
}

/// `#stablehlo.dot_algorithm<...>`
#[derive(Clone, Debug, PartialEq)]
pub struct DotAlgorithm {
    pub lhs_precision_type: Type,
    pub rhs_precision_type: Type,
    pub accumulation_type: Type,
    pub lhs_component_count: i64,
    pub rhs_component_count: i64,
    pub num_primitive_operations: i64,
    pub allow_imprecise_accumulation: bool,
}

/// `#stablehlo.result_accuracy<atol = .., rtol = .., ulps = .., mode = ..>`
#[derive(Clone, Debug, PartialEq)]
pub struct ResultAccuracy {
    pub atol: f64,
    pub rtol: f64,
    pub ulps: i64,
    pub mode: ResultAccuracyMode,
}
