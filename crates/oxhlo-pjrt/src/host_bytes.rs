//! The storage behind every buffer and host array of the plugin: dense row-major little-endian bytes,
//! shared by reference. Where the element type has a CPU-backend layout the bytes live in a typed
//! `oxhlo_cpu::Buf`, so the CPU backend takes inputs and hands back results without a copy; other element
//! types (sub-byte, f8, bool) are plain bytes.

use crate::dtype::BufferType;
use oxhlo_cpu::{Buf, Kind};
use std::ops::Deref;
use std::sync::Arc;

/// Shared, immutable array bytes (clone is a reference count).
#[derive(Clone)]
pub struct HostBytes(Storage);

#[derive(Clone)]
enum Storage {
    Bytes(Arc<Vec<u8>>),
    Native(Arc<Buf>),
}

impl HostBytes {
    /// Wraps a CPU-backend buffer without copying.
    pub fn native(buf: Arc<Buf>) -> HostBytes {
        HostBytes(Storage::Native(buf))
    }

    /// The typed buffer, when the bytes live in one.
    pub fn as_native(&self) -> Option<&Arc<Buf>> {
        match &self.0 {
            Storage::Native(b) => Some(b),
            Storage::Bytes(_) => None,
        }
    }

    /// `len` bytes of elements of `ty`, written by `fill` (which receives zeroed bytes): typed storage where
    /// the element type has one and the length is whole elements, plain bytes otherwise.
    pub fn build(ty: BufferType, len: usize, fill: impl FnOnce(&mut [u8])) -> HostBytes {
        let kind = ty.to_ir().as_ref().and_then(Kind::of).filter(|&k| k != Kind::Bool && len.is_multiple_of(k.size()));
        if let Some(kind) = kind {
            let mut buf = Buf::zeros(kind, len / kind.size());
            if let Some(bytes) = buf.as_le_bytes_mut() {
                fill(bytes);
                return HostBytes::native(Arc::new(buf));
            }
        }
        let mut v = vec![0u8; len];
        fill(&mut v);
        HostBytes::from(v)
    }
}

impl From<Vec<u8>> for HostBytes {
    fn from(v: Vec<u8>) -> HostBytes {
        HostBytes(Storage::Bytes(Arc::new(v)))
    }
}

impl Deref for HostBytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match &self.0 {
            Storage::Bytes(v) => v,
            Storage::Native(b) => b.as_le_bytes(),
        }
    }
}

impl PartialEq for HostBytes {
    fn eq(&self, other: &HostBytes) -> bool {
        **self == **other
    }
}

impl std::fmt::Debug for HostBytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = if self.as_native().is_some() { "native" } else { "bytes" };
        write!(f, "HostBytes({kind}, {} bytes)", self.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_storage_reads_back_the_bytes_written() {
        let data: Vec<u8> = [1.5f32, -2.0, 3.25].iter().flat_map(|v| v.to_le_bytes()).collect();
        let b = HostBytes::build(BufferType::F32, data.len(), |dst| dst.copy_from_slice(&data));
        assert!(b.as_native().is_some());
        assert_eq!(&*b, &data[..]);
        assert_eq!(**b.as_native().unwrap(), Buf::F32(vec![1.5, -2.0, 3.25]));
    }

    #[test]
    fn bool_and_ragged_lengths_stay_plain_bytes() {
        let b = HostBytes::build(BufferType::PRED, 3, |dst| dst.copy_from_slice(&[1, 0, 1]));
        assert!(b.as_native().is_none());
        assert_eq!(&*b, &[1, 0, 1]);
        let odd = HostBytes::build(BufferType::F32, 3, |dst| dst[0] = 7);
        assert!(odd.as_native().is_none());
        assert_eq!(&*odd, &[7, 0, 0]);
    }
}
