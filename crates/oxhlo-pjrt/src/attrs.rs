//! Named-value lists handed to the framework (plugin, device and topology attributes) with the storage
//! their pointers point into, and reading the framework's named values (client create options).

use crate::abi::{named_type, NamedValue, NamedValueUnion};
use crate::util;
use std::ffi::c_char;

/// An attribute value in Rust form.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Str(String),
    Int(i64),
    Ints(Vec<i64>),
    Float(f32),
    Bool(bool),
}

/// A `PJRT_NamedValue` array that owns what it points to.
pub struct NamedValues {
    values: Vec<NamedValue>,
    _names: Vec<Box<[u8]>>,
    _strings: Vec<Box<[u8]>>,
    _lists: Vec<Box<[i64]>>,
}

// SAFETY: the raw pointers point into the boxes owned alongside them, which are never mutated.
unsafe impl Send for NamedValues {}
unsafe impl Sync for NamedValues {}

impl NamedValues {
    pub fn new(items: &[(&str, Value)]) -> NamedValues {
        let mut nv = NamedValues { values: Vec::new(), _names: Vec::new(), _strings: Vec::new(), _lists: Vec::new() };
        for (name, v) in items {
            let name: Box<[u8]> = name.as_bytes().into();
            let (kind, value, size) = match v {
                Value::Str(s) => {
                    let b: Box<[u8]> = s.as_bytes().into();
                    let r = (named_type::STRING, NamedValueUnion { string_value: b.as_ptr() as *const c_char }, b.len());
                    nv._strings.push(b);
                    r
                }
                Value::Int(i) => (named_type::INT64, NamedValueUnion { int64_value: *i }, 1),
                Value::Ints(l) => {
                    let b: Box<[i64]> = l.clone().into();
                    let r = (named_type::INT64_LIST, NamedValueUnion { int64_array_value: b.as_ptr() }, b.len());
                    nv._lists.push(b);
                    r
                }
                Value::Float(f) => (named_type::FLOAT, NamedValueUnion { float_value: *f }, 1),
                Value::Bool(b) => (named_type::BOOL, NamedValueUnion { bool_value: *b }, 1),
            };
            nv.values.push(NamedValue {
                struct_size: std::mem::size_of::<NamedValue>(),
                extension_start: std::ptr::null_mut(),
                name: name.as_ptr() as *const c_char,
                name_size: name.len(),
                kind,
                value,
                value_size: size,
            });
            nv._names.push(name);
        }
        nv
    }

    pub fn as_ptr(&self) -> *const NamedValue {
        if self.values.is_empty() {
            std::ptr::null()
        } else {
            self.values.as_ptr()
        }
    }

    pub fn len(&self) -> usize {
        self.values.len()
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}

/// Reads a framework-provided named-value array.
///
/// # Safety
/// `p` must be null or point to `n` valid `PJRT_NamedValue`s whose pointers are valid.
pub unsafe fn read(p: *const NamedValue, n: usize) -> Vec<(String, Value)> {
    util::slice(p, n)
        .iter()
        .map(|nv| {
            let name = util::string(nv.name, nv.name_size);
            let v = match nv.kind {
                named_type::STRING => Value::Str(util::string(nv.value.string_value, nv.value_size)),
                named_type::INT64 => Value::Int(nv.value.int64_value),
                named_type::INT64_LIST => Value::Ints(util::slice(nv.value.int64_array_value, nv.value_size).to_vec()),
                named_type::FLOAT => Value::Float(nv.value.float_value),
                named_type::BOOL => Value::Bool(nv.value.bool_value),
                _ => Value::Str(String::new()),
            };
            (name, v)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_values_round_trip() {
        let nv = NamedValues::new(&[
            ("a", Value::Str("hello".into())),
            ("b", Value::Int(-3)),
            ("c", Value::Ints(vec![1, 17, 0])),
            ("d", Value::Bool(true)),
            ("e", Value::Float(0.5)),
        ]);
        let back = unsafe { read(nv.as_ptr(), nv.len()) };
        assert_eq!(back[0], ("a".into(), Value::Str("hello".into())));
        assert_eq!(back[1], ("b".into(), Value::Int(-3)));
        assert_eq!(back[2], ("c".into(), Value::Ints(vec![1, 17, 0])));
        assert_eq!(back[3], ("d".into(), Value::Bool(true)));
        assert_eq!(back[4], ("e".into(), Value::Float(0.5)));
    }
}
