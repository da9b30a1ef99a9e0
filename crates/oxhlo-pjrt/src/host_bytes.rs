//! The storage behind every buffer and host array of the plugin: dense row-major little-endian bytes,
//! shared by reference. Where the element type has a CPU-backend layout the bytes live in a typed
//! `oxhlo_cpu::Buf`, so the CPU backend takes inputs and hands back results without a copy; other element
//! types (sub-byte, f8, bool) are plain bytes.
//!
//! With the CUDA backend a storage can also hold a tensor in device memory: results of a GPU run start
//! there (device-resident; the host copy is downloaded once, on first host access), and host storage a
//! GPU run reads keeps the device copy it was uploaded to (a device mirror), so an array used by many runs
//! crosses to the device once. Both copies hold the same elements: the storage is immutable.

use crate::dtype::BufferType;
use oxhlo_cpu::{Buf, Kind};
use oxhlo_cuda::DTensor;
use std::ops::Deref;
use std::sync::{Arc, OnceLock};

/// Shared, immutable array bytes (clone is a reference count).
#[derive(Clone)]
pub struct HostBytes(Arc<Inner>);

struct Inner {
    /// The host copy: set at creation for host storage, downloaded on first use for device storage (the
    /// error, if the download failed).
    host: OnceLock<Result<Host, String>>,
    /// The device copy: set at creation for device storage, uploaded on first GPU use for host storage.
    device: OnceLock<DTensor>,
}

enum Host {
    Bytes(Vec<u8>),
    Native(Arc<Buf>),
}

impl Drop for Inner {
    fn drop(&mut self) {
        // Device memory is freed on the calling thread's CUDA context, which a framework thread may never
        // have made current.
        if self.device.get().is_some() {
            if let Ok(gpu) = oxhlo_cuda::device::gpu() {
                let _ = gpu.bind_thread();
            }
        }
    }
}

impl HostBytes {
    fn host(h: Host) -> HostBytes {
        HostBytes(Arc::new(Inner { host: OnceLock::from(Ok(h)), device: OnceLock::new() }))
    }

    /// Wraps a CPU-backend buffer without copying.
    pub fn native(buf: Arc<Buf>) -> HostBytes {
        HostBytes::host(Host::Native(buf))
    }

    /// Wraps a tensor in device memory; the host copy is made on first host access.
    pub fn device(t: DTensor) -> HostBytes {
        HostBytes(Arc::new(Inner { host: OnceLock::new(), device: OnceLock::from(t) }))
    }

    /// The host copy, downloading it first for device storage.
    fn host_data(&self) -> Result<&Host, &str> {
        let h = self.0.host.get_or_init(|| {
            let d = self.0.device.get().ok_or("internal error: a storage without data")?;
            let gpu = oxhlo_cuda::device::gpu()?;
            let t = gpu.download(d).map_err(|e| format!("copying a result from the GPU: {e}"))?;
            Ok(Host::Native(t.buf))
        });
        h.as_ref().map_err(|e| e.as_str())
    }

    /// The bytes on the host (downloaded once for device storage), or why they cannot be had.
    pub fn try_bytes(&self) -> Result<&[u8], String> {
        match self.host_data() {
            Ok(Host::Bytes(v)) => Ok(v),
            Ok(Host::Native(b)) => Ok(b.as_le_bytes()),
            Err(e) => Err(e.to_string()),
        }
    }

    /// The typed buffer, when the bytes live in one (device storage is downloaded first).
    pub fn as_native(&self) -> Option<&Arc<Buf>> {
        match self.host_data() {
            Ok(Host::Native(b)) => Some(b),
            _ => None,
        }
    }

    /// The device copy, if there is one yet (device storage, or host storage a GPU run has read).
    pub fn device_copy(&self) -> Option<&DTensor> {
        self.0.device.get()
    }

    /// Whether the data lives on the device and has not been copied to the host.
    pub fn is_device_only(&self) -> bool {
        self.0.host.get().is_none()
    }

    /// The device copy, made by `upload` on first use and kept with the storage (every clone shares it).
    pub fn device_or_upload<E>(&self, upload: impl FnOnce() -> Result<DTensor, E>) -> Result<DTensor, E> {
        if let Some(d) = self.0.device.get() {
            return Ok(d.clone());
        }
        let d = upload()?;
        // Another thread may have uploaded meanwhile: either copy holds the same elements.
        Ok(self.0.device.get_or_init(|| d).clone())
    }

    /// Byte length (without copying device storage to the host).
    pub fn len(&self) -> usize {
        match self.0.host.get() {
            Some(Ok(Host::Bytes(v))) => v.len(),
            Some(Ok(Host::Native(b))) => b.as_le_bytes().len(),
            _ => self.0.device.get().map_or(0, DTensor::bytes),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
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
        HostBytes::host(Host::Bytes(v))
    }
}

impl Deref for HostBytes {
    type Target = [u8];
    /// The host bytes; device storage is downloaded on first access. If that download fails the bytes
    /// are empty (the error is printed; [`HostBytes::try_bytes`] returns it).
    fn deref(&self) -> &[u8] {
        match self.try_bytes() {
            Ok(b) => b,
            Err(e) => {
                eprintln!("oxhlo: {e}");
                &[]
            }
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
        let kind = match self.0.host.get() {
            None => "device",
            Some(Ok(Host::Native(_))) => "native",
            Some(Ok(Host::Bytes(_))) => "bytes",
            Some(Err(_)) => "failed download",
        };
        let mirror = if self.0.device.get().is_some() && self.0.host.get().is_some() { " + device copy" } else { "" };
        write!(f, "HostBytes({kind}{mirror}, {} bytes)", self.len())
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
        assert_eq!(b.len(), 12);
        assert_eq!(**b.as_native().unwrap(), Buf::F32(vec![1.5, -2.0, 3.25]));
        assert!(!b.is_device_only() && b.device_copy().is_none());
    }

    #[test]
    fn bool_and_ragged_lengths_stay_plain_bytes() {
        let b = HostBytes::build(BufferType::PRED, 3, |dst| dst.copy_from_slice(&[1, 0, 1]));
        assert!(b.as_native().is_none());
        assert_eq!(&*b, &[1, 0, 1]);
        let odd = HostBytes::build(BufferType::F32, 3, |dst| dst[0] = 7);
        assert!(odd.as_native().is_none());
        assert_eq!(&*odd, &[7, 0, 0]);
        assert_eq!(odd.len(), 3);
    }

    #[test]
    fn a_failed_upload_leaves_no_device_copy_and_clones_share_storage() {
        let b = HostBytes::from(vec![1u8, 2, 3, 4]);
        let c = b.clone();
        let r: Result<DTensor, String> = b.device_or_upload(|| Err("no GPU here".into()));
        assert_eq!(r.unwrap_err(), "no GPU here");
        assert!(c.device_copy().is_none());
        assert_eq!(c.try_bytes().unwrap(), &[1, 2, 3, 4]);
        assert!(Arc::ptr_eq(&b.0, &c.0));
    }
}
