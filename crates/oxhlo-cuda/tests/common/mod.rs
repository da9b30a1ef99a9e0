//! Helpers shared by the CUDA backend's test binaries.

use oxhlo_interp::{Data, RtValue};

/// A tensor value's elements as f64 (floats as they are, integers converted).
pub fn as_f64(v: &RtValue) -> Vec<f64> {
    match v {
        RtValue::Tensor(t) => match &t.data {
            Data::Float(x) => x.clone(),
            Data::Int(x) => x.iter().map(|&i| i as f64).collect(),
            Data::UInt(x) => x.iter().map(|&i| i as f64).collect(),
            other => panic!("unexpected data {other:?}"),
        },
        other => panic!("unexpected value {other:?}"),
    }
}
