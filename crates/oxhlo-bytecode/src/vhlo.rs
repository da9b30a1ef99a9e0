//! Decoders for the VHLO dialect's attribute (codes 1-25) and type (codes 0-42)
//! encodings (`stablehlo/dialect/VhloBytecode.cpp`), into the raw [`VhloAttr`] /
//! [`VhloType`] forms.

use crate::cursor::Cursor;
use crate::decoder::Decoder;
use crate::error::{BytecodeError, Result};
use crate::model::{ApInt, FloatKind, VhloAttr, VhloEnum, VhloType};

impl<'a> Decoder<'a> {
    pub(crate) fn vhlo_attr(&mut self, c: &mut Cursor<'a>) -> Result<VhloAttr> {
        let at = c.offset();
        let code = c.varint("vhlo attribute code")?;
        let en = |kind: VhloEnum, c: &mut Cursor<'a>| -> Result<VhloAttr> {
            let vat = c.offset();
            let value = c.varint("enum value")?;
            if kind.case(value).is_none() {
                return Err(BytecodeError::new(vat, format!("invalid {} value {value}", kind.mnemonic())));
            }
            Ok(VhloAttr::Enum { kind, value })
        };
        Ok(match code {
            1 => VhloAttr::Array(self.read_attrs(c)?),
            2 => VhloAttr::Bool(c.varint("boolean")? != 0),
            3 => en(VhloEnum::ComparisonDirection, c)?,
            4 => en(VhloEnum::ComparisonType, c)?,
            5 => en(VhloEnum::CustomCallApiVersion, c)?,
            6 => {
                let n = c.count("dictionary size", 2)?;
                let mut v = Vec::with_capacity(n);
                for _ in 0..n {
                    let k = self.read_attr(c)?;
                    v.push((k, self.read_attr(c)?));
                }
                VhloAttr::Dictionary(v)
            }
            7 => en(VhloEnum::FftType, c)?,
            8 => {
                let tat = c.offset();
                let ty = self.read_type(c)?;
                let width = self.float_kind(ty, tat)?.bit_width();
                VhloAttr::Float { ty, bits: ApInt { width, words: c.apint(width)? } }
            }
            9 => {
                let tat = c.offset();
                let ty = self.read_type(c)?;
                let width = self.int_width(ty, tat)?;
                VhloAttr::Integer { ty, value: ApInt { width, words: c.apint(width)? } }
            }
            10 => {
                let output_tuple_indices = Self::read_svarints(c, "output tuple indices")?;
                let operand_index = c.svarint("operand index")?;
                let operand_tuple_indices = Self::read_svarints(c, "operand tuple indices")?;
                VhloAttr::OutputOperandAlias { output_tuple_indices, operand_index, operand_tuple_indices }
            }
            11 => en(VhloEnum::Precision, c)?,
            12 => en(VhloEnum::RngAlgorithm, c)?,
            13 => en(VhloEnum::RngDistribution, c)?,
            14 => VhloAttr::String(self.c.read_string(c, "string")?.to_vec()),
            15 => {
                let ty = self.read_type(c)?;
                VhloAttr::Tensor { ty, data: c.blob("tensor data")?.to_vec() }
            }
            16 => en(VhloEnum::Transpose, c)?,
            17 => VhloAttr::Type(self.read_type(c)?),
            18 => VhloAttr::TypeExtensions { bounds: Self::read_svarints(c, "bounds")? },
            19 => en(VhloEnum::ResultAccuracyMode, c)?,
            20 => {
                let atol = f64::from_bits(c.apint(64)?.first().copied().unwrap_or(0));
                let rtol = f64::from_bits(c.apint(64)?.first().copied().unwrap_or(0));
                let ulps = c.svarint("ulps")?;
                VhloAttr::ResultAccuracy { atol, rtol, ulps, mode: self.read_attr(c)? }
            }
            21 => {
                let pre_size = c.svarint("sub-axis pre-size")?;
                VhloAttr::SubAxisInfo { pre_size, size: c.svarint("sub-axis size")? }
            }
            22 => {
                let name = self.read_attr(c)?;
                let has = c.varint("sub-axis flag")?;
                let sub_axis_info = if has != 0 { Some(self.read_attr(c)?) } else { None };
                VhloAttr::AxisRef { name, sub_axis_info }
            }
            23 => {
                let mesh_name = self.read_attr(c)?;
                VhloAttr::ReplicaGroupMeshAxes { mesh_name, axes: self.read_attr(c)? }
            }
            24 => {
                let name = self.read_attr(c)?;
                VhloAttr::MeshAxis { name, size: c.svarint("mesh axis size")? }
            }
            25 => {
                let axes = self.read_attr(c)?;
                VhloAttr::Mesh { axes, device_ids: self.read_opt_attr(c)? }
            }
            _ => return Err(BytecodeError::new(at, format!("unknown vhlo attribute code {code}"))),
        })
    }

    pub(crate) fn vhlo_type(&mut self, c: &mut Cursor<'a>) -> Result<VhloType> {
        let at = c.offset();
        let code = c.varint("vhlo type code")?;
        use FloatKind::*;
        let f = |k| Ok(VhloType::Float(k));
        let int = |width, unsigned| Ok(VhloType::Integer { width, unsigned });
        match code {
            0 => Ok(VhloType::Bool),
            1 => Ok(VhloType::Complex(self.read_type(c)?)),
            2 => f(BF16),
            3 => f(F16),
            4 => f(F32),
            5 => f(F64),
            6 => f(F8E4M3FN),
            7 => f(F8E5M2),
            8 => {
                let inputs = self.read_types(c)?;
                Ok(VhloType::Function { inputs, outputs: self.read_types(c)? })
            }
            9 => Ok(VhloType::Index),
            10 => int(4, false),
            11 => int(8, false),
            12 => int(16, false),
            13 => int(32, false),
            14 => int(64, false),
            15 => int(4, true),
            16 => int(8, true),
            17 => int(16, true),
            18 => int(32, true),
            19 => int(64, true),
            20 | 21 => {
                let encoding = if code == 21 { Some(self.read_attr(c)?) } else { None };
                let shape = Self::read_svarints(c, "tensor shape")?;
                Ok(VhloType::RankedTensor { shape, elem: self.read_type(c)?, encoding })
            }
            22 => Ok(VhloType::Token),
            23 => Ok(VhloType::Tuple(self.read_types(c)?)),
            24 => {
                let flags = c.varint("quantization flags")?;
                let storage = self.read_type(c)?;
                let expressed = self.read_type(c)?;
                let scale = f64::from_bits(c.apint(64)?.first().copied().unwrap_or(0));
                let zero_point = c.svarint("zero point")?;
                let storage_min = c.svarint("storage min")?;
                let storage_max = c.svarint("storage max")?;
                Ok(VhloType::UniformQuantized { flags, storage, expressed, scale, zero_point, storage_min, storage_max })
            }
            25 => Ok(VhloType::UnrankedTensor(self.read_type(c)?)),
            26 => Ok(VhloType::Witness),
            27 => f(F8E4M3FNUZ),
            28 => f(F8E5M2FNUZ),
            29 => f(F8E4M3B11FNUZ),
            30 => {
                let flags = c.varint("quantization flags")?;
                let storage = self.read_type(c)?;
                let expressed = self.read_type(c)?;
                let quantized_dimension = c.varint("quantized dimension")?;
                let storage_min = c.svarint("storage min")?;
                let storage_max = c.svarint("storage max")?;
                let n = c.count("scales", 1)?;
                let mut scales = Vec::with_capacity(n);
                for _ in 0..n {
                    scales.push(f64::from_bits(c.apint(64)?.first().copied().unwrap_or(0)));
                }
                let zero_points = Self::read_svarints(c, "zero points")?;
                Ok(VhloType::UniformQuantizedPerAxis {
                    flags,
                    storage,
                    expressed,
                    quantized_dimension,
                    storage_min,
                    storage_max,
                    scales,
                    zero_points,
                })
            }
            31 => int(2, false),
            32 => int(2, true),
            33 => Ok(VhloType::None),
            34 => f(TF32),
            35 => f(F8E4M3),
            36 => f(F8E3M4),
            37 => f(F4E2M1FN),
            38 => f(F6E2M3FN),
            39 => f(F6E3M2FN),
            40 => f(F8E8M0FNU),
            41 => {
                let shape = Self::read_svarints(c, "buffer shape")?;
                Ok(VhloType::Buffer { shape, elem: self.read_type(c)? })
            }
            42 => Ok(VhloType::Future(self.read_types(c)?)),
            _ => Err(BytecodeError::new(at, format!("unknown vhlo type code {code}"))),
        }
    }
}
