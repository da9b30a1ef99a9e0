//! Types: element types (every StableHLO scalar type, quantized types), tensor types with static, dynamic
//! and bounded dimensions, tokens, tuples and function types.

use crate::attr::Attr;

/// The marker for a dynamic (`?`) dimension size, as MLIR's `ShapedType::kDynamic`.
pub const DYN: i64 = i64::MIN;

/// How an integer type's bits are read. StableHLO treats signless (`i32`) as signed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Signedness {
    /// `iN`: signless, read as signed by StableHLO.
    Signless,
    /// `siN`
    Signed,
    /// `uiN`
    Unsigned,
}

/// Every binary floating-point format StableHLO has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatType {
    F4E2M1FN,
    F6E2M3FN,
    F6E3M2FN,
    F8E3M4,
    F8E4M3,
    F8E4M3FN,
    F8E4M3FNUZ,
    F8E4M3B11FNUZ,
    F8E5M2,
    F8E5M2FNUZ,
    F8E8M0FNU,
    BF16,
    F16,
    TF32,
    F32,
    F64,
}

impl FloatType {
    /// All float types, in the order of the spec's grammar.
    pub const ALL: [FloatType; 16] = [
        FloatType::F4E2M1FN,
        FloatType::F6E2M3FN,
        FloatType::F6E3M2FN,
        FloatType::F8E3M4,
        FloatType::F8E4M3,
        FloatType::F8E4M3FN,
        FloatType::F8E4M3FNUZ,
        FloatType::F8E4M3B11FNUZ,
        FloatType::F8E5M2,
        FloatType::F8E5M2FNUZ,
        FloatType::F8E8M0FNU,
        FloatType::BF16,
        FloatType::F16,
        FloatType::TF32,
        FloatType::F32,
        FloatType::F64,
    ];

    /// The MLIR spelling (`f8E4M3FN`, `bf16`, ...), as the format defines it.
    pub fn name(self) -> &'static str {
        self.format().name()
    }

    /// Parses an MLIR float type keyword.
    pub fn from_name(s: &str) -> Option<FloatType> {
        FloatType::ALL.into_iter().find(|f| f.name() == s)
    }

    /// Width of the format in bits.
    pub fn bits(self) -> u32 {
        self.format().total_bits()
    }

    /// The exact numeric format, for encoding and decoding values.
    pub fn format(self) -> &'static oxhlo_dtype::FloatFormat {
        use oxhlo_dtype as d;
        match self {
            FloatType::F4E2M1FN => &d::F4E2M1FN,
            FloatType::F6E2M3FN => &d::F6E2M3FN,
            FloatType::F6E3M2FN => &d::F6E3M2FN,
            FloatType::F8E3M4 => &d::F8E3M4,
            FloatType::F8E4M3 => &d::F8E4M3,
            FloatType::F8E4M3FN => &d::F8E4M3FN,
            FloatType::F8E4M3FNUZ => &d::F8E4M3FNUZ,
            FloatType::F8E4M3B11FNUZ => &d::F8E4M3B11FNUZ,
            FloatType::F8E5M2 => &d::F8E5M2,
            FloatType::F8E5M2FNUZ => &d::F8E5M2FNUZ,
            FloatType::F8E8M0FNU => &d::F8E8M0FNU,
            FloatType::BF16 => &d::BF16,
            FloatType::F16 => &d::F16,
            FloatType::TF32 => &d::TF32,
            FloatType::F32 => &d::F32,
            FloatType::F64 => &d::F64,
        }
    }
}

/// A uniform quantized element type (`!quant.uniform<...>`), per-tensor or per-axis.
#[derive(Clone, Debug, PartialEq)]
pub struct QuantType {
    /// The integer storage type (`i8`, `u8`, `i4`, ...).
    pub storage: ElementType,
    /// Optional narrowed storage range `i8<-127:127>`.
    pub storage_min: Option<i64>,
    pub storage_max: Option<i64>,
    /// The float type values are expressed in.
    pub expressed: ElementType,
    /// `Some(axis)` for per-axis quantization.
    pub quantized_dimension: Option<i64>,
    /// One scale (per-tensor) or one per slice along the axis.
    pub scales: Vec<f64>,
    /// Zero points, one per scale.
    pub zero_points: Vec<i64>,
}

impl QuantType {
    /// The smallest storable value (the narrowed range or the storage type's range).
    pub fn storage_range(&self) -> (i64, i64) {
        let (lo, hi) = self.storage.int_range().unwrap_or((i64::MIN, i64::MAX));
        (self.storage_min.unwrap_or(lo), self.storage_max.unwrap_or(hi))
    }
}

/// A scalar element type of a tensor.
#[derive(Clone, Debug, PartialEq)]
pub enum ElementType {
    /// `i1`, the boolean type.
    Bool,
    /// An integer of 2..=64 bits.
    Int { bits: u32, signedness: Signedness },
    Float(FloatType),
    /// `complex<f32>` or `complex<f64>`.
    Complex(FloatType),
    Quant(Box<QuantType>),
    /// MLIR's `index` (appears in some attributes).
    Index,
}

impl ElementType {
    pub const F32: ElementType = ElementType::Float(FloatType::F32);
    pub const F64: ElementType = ElementType::Float(FloatType::F64);
    pub const I64: ElementType = ElementType::Int { bits: 64, signedness: Signedness::Signless };
    pub const I32: ElementType = ElementType::Int { bits: 32, signedness: Signedness::Signless };

    /// Signless integer of the given width (`i1` gives `Bool`).
    pub fn int(bits: u32) -> ElementType {
        if bits == 1 {
            ElementType::Bool
        } else {
            ElementType::Int { bits, signedness: Signedness::Signless }
        }
    }

    /// Unsigned integer of the given width.
    pub fn uint(bits: u32) -> ElementType {
        ElementType::Int { bits, signedness: Signedness::Unsigned }
    }

    pub fn is_bool(&self) -> bool {
        matches!(self, ElementType::Bool)
    }
    /// Integer types other than bool.
    pub fn is_integer(&self) -> bool {
        matches!(self, ElementType::Int { .. })
    }
    pub fn is_signed_integer(&self) -> bool {
        matches!(self, ElementType::Int { signedness, .. } if *signedness != Signedness::Unsigned)
    }
    pub fn is_unsigned_integer(&self) -> bool {
        matches!(self, ElementType::Int { signedness: Signedness::Unsigned, .. })
    }
    pub fn is_float(&self) -> bool {
        matches!(self, ElementType::Float(_))
    }
    pub fn is_complex(&self) -> bool {
        matches!(self, ElementType::Complex(_))
    }
    pub fn is_quantized(&self) -> bool {
        matches!(self, ElementType::Quant(_))
    }

    /// Bit width of one element (complex counts both parts; quantized counts storage).
    pub fn bits(&self) -> u32 {
        match self {
            ElementType::Bool => 1,
            ElementType::Int { bits, .. } => *bits,
            ElementType::Float(f) => f.bits(),
            ElementType::Complex(f) => 2 * f.bits(),
            ElementType::Quant(q) => q.storage.bits(),
            ElementType::Index => 64,
        }
    }

    /// Bytes one element takes in oxhlo's dense storage (sub-byte types take a whole byte; tf32 takes 4).
    pub fn storage_bytes(&self) -> usize {
        match self {
            ElementType::Complex(f) => 2 * ElementType::Float(*f).storage_bytes(),
            other => (other.bits() as usize).div_ceil(8).next_power_of_two(),
        }
    }

    /// The representable range of an integer or bool type.
    pub fn int_range(&self) -> Option<(i64, i64)> {
        match self {
            ElementType::Bool => Some((0, 1)),
            ElementType::Int { bits, signedness } => {
                let b = *bits;
                if *signedness == Signedness::Unsigned {
                    let hi = if b >= 64 { i64::MAX } else { ((1u64 << b) - 1) as i64 };
                    Some((0, hi))
                } else {
                    let hi = if b >= 64 { i64::MAX } else { (1i64 << (b - 1)) - 1 };
                    Some((-hi - 1, hi))
                }
            }
            ElementType::Index => Some((i64::MIN, i64::MAX)),
            _ => None,
        }
    }

    /// The float type of a float, the part type of a complex.
    pub fn float_type(&self) -> Option<FloatType> {
        match self {
            ElementType::Float(f) | ElementType::Complex(f) => Some(*f),
            _ => None,
        }
    }
}

/// A ranked tensor type `tensor<2x?x3xf32, #encoding>`.
#[derive(Clone, Debug, PartialEq)]
pub struct TensorType {
    /// Dimension sizes; [`DYN`] marks a dynamic one.
    pub shape: Vec<i64>,
    pub elem: ElementType,
    /// The encoding attribute, e.g. `#stablehlo.bounds<?, 4>` for bounded dynamism.
    pub encoding: Option<Box<Attr>>,
}

impl TensorType {
    pub fn new(shape: Vec<i64>, elem: ElementType) -> TensorType {
        TensorType { shape, elem, encoding: None }
    }
    pub fn rank(&self) -> usize {
        self.shape.len()
    }
    /// True when no dimension is dynamic.
    pub fn is_static(&self) -> bool {
        self.shape.iter().all(|&d| d != DYN)
    }
    /// Number of elements, or None if dynamic or overflowing.
    pub fn num_elements(&self) -> Option<usize> {
        let mut n: usize = 1;
        for &d in &self.shape {
            if d < 0 {
                return None;
            }
            n = n.checked_mul(usize::try_from(d).ok()?)?;
        }
        Some(n)
    }
}

/// A function type `(T0, T1) -> (R0)`.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionType {
    pub inputs: Vec<Type>,
    pub results: Vec<Type>,
}

/// Any type a value or attribute can have.
#[derive(Clone, Debug, PartialEq)]
pub enum Type {
    Tensor(TensorType),
    /// `tensor<*xf32>`
    UnrankedTensor(ElementType),
    /// `!stablehlo.token`
    Token,
    /// `tuple<...>`
    Tuple(Vec<Type>),
    Function(FunctionType),
    /// A bare scalar type where MLIR allows one (attribute types, `index`).
    Scalar(ElementType),
    /// A type of a dialect oxhlo does not model, kept verbatim (`!sdy.foo<...>`).
    Opaque(String),
}

impl Type {
    /// Shorthand for a static tensor type.
    pub fn tensor(shape: &[i64], elem: ElementType) -> Type {
        Type::Tensor(TensorType::new(shape.to_vec(), elem))
    }
    pub fn as_tensor(&self) -> Option<&TensorType> {
        match self {
            Type::Tensor(t) => Some(t),
            _ => None,
        }
    }
    /// The element type of a ranked or unranked tensor or scalar.
    pub fn elem(&self) -> Option<&ElementType> {
        match self {
            Type::Tensor(t) => Some(&t.elem),
            Type::UnrankedTensor(e) | Type::Scalar(e) => Some(e),
            _ => None,
        }
    }
}

/// The MLIR spelling (`f32`, `si8`, `complex<f64>`, `!quant.uniform<i8:f32, 0.5:3>`).
impl std::fmt::Display for ElementType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::verify::fmt::elem(self))
    }
}
