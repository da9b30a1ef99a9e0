//! A tiny protobuf wire-format reader and writer, and the parts of `xla.CompileOptionsProto` and
//! `xla.DeviceAssignmentProto` the plugin needs (replicas, partitions, device assignment, portability).
//!
//! Field numbers (from `xla/pjrt/proto/compile_options.proto` and `xla/xla_data.proto`):
//! - CompileOptionsProto: 3 executable_build_options, 4 compile_portable_executable.
//! - ExecutableBuildOptionsProto: 1 device_ordinal, 4 num_replicas, 5 num_partitions,
//!   6 use_spmd_partitioning, 9 device_assignment, 19 use_shardy_partitioner.
//! - DeviceAssignmentProto: 1 replica_count, 2 computation_count, 3 computation_devices
//!   (ComputationDevice: 1 replica_device_ids, repeated int64, packed or not).

use crate::error::{Error, Result};

/// One field's payload.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Wire<'a> {
    Varint(u64),
    Fixed64(u64),
    Bytes(&'a [u8]),
    Fixed32(u32),
}

/// Reads fields one after another.
pub struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
    what: &'static str,
}

impl<'a> Reader<'a> {
    pub fn new(buf: &'a [u8], what: &'static str) -> Reader<'a> {
        Reader { buf, pos: 0, what }
    }

    fn err(&self, msg: &str) -> Error {
        Error::invalid(format!("malformed {} at byte {}: {msg}", self.what, self.pos))
    }

    pub fn varint(&mut self) -> Result<u64> {
        let mut v: u64 = 0;
        for i in 0..10 {
            let b = *self.buf.get(self.pos).ok_or_else(|| self.err("truncated varint"))?;
            self.pos += 1;
            v |= ((b & 0x7f) as u64) << (7 * i);
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(self.err("varint longer than 10 bytes"))
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.buf.len()).ok_or_else(|| self.err("truncated field"))?;
        let s = &self.buf[self.pos..end];
        self.pos = end;
        Ok(s)
    }

    /// The next (field number, payload), or None at the end.
    pub fn next_field(&mut self) -> Result<Option<(u32, Wire<'a>)>> {
        if self.pos >= self.buf.len() {
            return Ok(None);
        }
        let key = self.varint()?;
        let field = u32::try_from(key >> 3).map_err(|_| self.err("field number too large"))?;
        let w = match key & 7 {
            0 => Wire::Varint(self.varint()?),
            1 => Wire::Fixed64(u64::from_le_bytes(self.take(8)?.try_into().unwrap_or_default())),
            2 => {
                let n = usize::try_from(self.varint()?).map_err(|_| self.err("length too large"))?;
                Wire::Bytes(self.take(n)?)
            }
            5 => Wire::Fixed32(u32::from_le_bytes(self.take(4)?.try_into().unwrap_or_default())),
            t => return Err(self.err(&format!("unsupported wire type {t}"))),
        };
        Ok(Some((field, w)))
    }
}

fn as_int(w: Wire) -> Option<i64> {
    match w {
        Wire::Varint(v) | Wire::Fixed64(v) => Some(v as i64),
        Wire::Fixed32(v) => Some(v as i32 as i64),
        Wire::Bytes(_) => None,
    }
}

/// Appends a repeated int64 field, packed or not.
fn push_ints(out: &mut Vec<i64>, w: Wire, what: &'static str) -> Result<()> {
    match w {
        Wire::Bytes(b) => {
            let mut r = Reader::new(b, what);
            while r.pos < b.len() {
                out.push(r.varint()? as i64);
            }
        }
        other => out.extend(as_int(other)),
    }
    Ok(())
}

/// Appends fields to a buffer.
#[derive(Default)]
pub struct Writer {
    pub buf: Vec<u8>,
}

impl Writer {
    pub fn varint(&mut self, mut v: u64) {
        loop {
            let b = (v & 0x7f) as u8;
            v >>= 7;
            if v == 0 {
                self.buf.push(b);
                return;
            }
            self.buf.push(b | 0x80);
        }
    }
    pub fn int(&mut self, field: u32, v: i64) {
        self.varint((field as u64) << 3);
        self.varint(v as u64);
    }
    pub fn bytes(&mut self, field: u32, b: &[u8]) {
        self.varint(((field as u64) << 3) | 2);
        self.varint(b.len() as u64);
        self.buf.extend_from_slice(b);
    }
    pub fn packed(&mut self, field: u32, vs: &[i64]) {
        let mut inner = Writer::default();
        for &v in vs {
            inner.varint(v as u64);
        }
        self.bytes(field, &inner.buf);
    }
}

/// `xla.DeviceAssignmentProto`: `devices[computation][replica]` is a device id.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct DeviceAssignment {
    pub replica_count: i64,
    pub computation_count: i64,
    pub devices: Vec<Vec<i64>>,
}

impl DeviceAssignment {
    /// Replica r, partition p on device `r * partitions + p` (the default assignment).
    pub fn default_for(replicas: i64, partitions: i64) -> DeviceAssignment {
        let devices = (0..partitions).map(|p| (0..replicas).map(|r| r * partitions + p).collect()).collect();
        DeviceAssignment { replica_count: replicas, computation_count: partitions, devices }
    }

    pub fn parse(b: &[u8]) -> Result<DeviceAssignment> {
        let mut da = DeviceAssignment::default();
        let mut r = Reader::new(b, "DeviceAssignmentProto");
        while let Some((f, w)) = r.next_field()? {
            match f {
                1 => da.replica_count = as_int(w).unwrap_or(0),
                2 => da.computation_count = as_int(w).unwrap_or(0),
                3 => {
                    let Wire::Bytes(cb) = w else { continue };
                    let mut ids = Vec::new();
                    let mut cr = Reader::new(cb, "DeviceAssignmentProto.ComputationDevice");
                    while let Some((cf, cw)) = cr.next_field()? {
                        if cf == 1 {
                            push_ints(&mut ids, cw, "replica_device_ids")?;
                        }
                    }
                    da.devices.push(ids);
                }
                _ => {}
            }
        }
        da.check()?;
        Ok(da)
    }

    /// Consistency of the counts with the table.
    pub fn check(&self) -> Result<()> {
        if self.devices.len() as i64 != self.computation_count
            || self.devices.iter().any(|c| c.len() as i64 != self.replica_count)
        {
            return Err(Error::invalid(format!(
                "device assignment has {} computations of sizes {:?}, but says {} replicas x {} computations",
                self.devices.len(),
                self.devices.iter().map(Vec::len).collect::<Vec<_>>(),
                self.replica_count,
                self.computation_count
            )));
        }
        Ok(())
    }

    pub fn serialize(&self) -> Vec<u8> {
        let mut w = Writer::default();
        w.int(1, self.replica_count);
        w.int(2, self.computation_count);
        for c in &self.devices {
            let mut cw = Writer::default();
            cw.packed(1, c);
            w.bytes(3, &cw.buf);
        }
        w.buf
    }

    /// The device of (replica, partition).
    pub fn device(&self, replica: usize, partition: usize) -> Option<i64> {
        self.devices.get(partition)?.get(replica).copied()
    }
}

/// The fields of `xla.CompileOptionsProto` the plugin uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompileOptions {
    pub num_replicas: i64,
    pub num_partitions: i64,
    pub device_ordinal: i64,
    pub use_spmd_partitioning: bool,
    pub use_shardy_partitioner: bool,
    pub compile_portable_executable: bool,
    pub device_assignment: Option<DeviceAssignment>,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            num_replicas: 1,
            num_partitions: 1,
            device_ordinal: -1,
            use_spmd_partitioning: false,
            use_shardy_partitioner: false,
            compile_portable_executable: false,
            device_assignment: None,
        }
    }
}

impl CompileOptions {
    /// Parses a serialized `xla.CompileOptionsProto` (empty bytes give the defaults).
    pub fn parse(b: &[u8]) -> Result<CompileOptions> {
        let mut o = CompileOptions::default();
        let mut r = Reader::new(b, "CompileOptionsProto");
        while let Some((f, w)) = r.next_field()? {
            match (f, w) {
                (3, Wire::Bytes(eb)) => o.parse_build_options(eb)?,
                (4, w) => o.compile_portable_executable = as_int(w).unwrap_or(0) != 0,
                _ => {}
            }
        }
        if o.num_replicas < 1 || o.num_partitions < 1 {
            return Err(Error::invalid(format!(
                "compile options ask for {} replicas and {} partitions; both must be at least 1",
                o.num_replicas, o.num_partitions
            )));
        }
        if let Some(da) = &o.device_assignment {
            if da.replica_count != o.num_replicas || da.computation_count != o.num_partitions {
                return Err(Error::invalid(format!(
                    "device assignment is {} replicas x {} partitions but the compile options ask for {} x {}",
                    da.replica_count, da.computation_count, o.num_replicas, o.num_partitions
                )));
            }
        }
        Ok(o)
    }

    fn parse_build_options(&mut self, b: &[u8]) -> Result<()> {
        let mut r = Reader::new(b, "ExecutableBuildOptionsProto");
        while let Some((f, w)) = r.next_field()? {
            match (f, w) {
                (1, w) => self.device_ordinal = as_int(w).unwrap_or(-1),
                (4, w) => self.num_replicas = as_int(w).unwrap_or(1),
                (5, w) => self.num_partitions = as_int(w).unwrap_or(1),
                (6, w) => self.use_spmd_partitioning = as_int(w).unwrap_or(0) != 0,
                (9, Wire::Bytes(db)) => self.device_assignment = Some(DeviceAssignment::parse(db)?),
                (19, w) => self.use_shardy_partitioner = as_int(w).unwrap_or(0) != 0,
                _ => {}
            }
        }
        Ok(())
    }

    /// The assignment to use: the given one, else the default one for the counts.
    pub fn assignment(&self) -> DeviceAssignment {
        self.device_assignment.clone().unwrap_or_else(|| DeviceAssignment::default_for(self.num_replicas, self.num_partitions))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_round_trip() {
        for v in [0u64, 1, 127, 128, 300, u64::MAX, (-1i64) as u64] {
            let mut w = Writer::default();
            w.varint(v);
            assert_eq!(Reader::new(&w.buf, "t").varint().unwrap(), v);
        }
    }

    #[test]
    fn device_assignment_round_trips() {
        let da = DeviceAssignment::default_for(2, 3);
        assert_eq!(da.device(1, 2), Some(5));
        assert_eq!(DeviceAssignment::parse(&da.serialize()).unwrap(), da);
    }

    #[test]
    fn unpacked_ids_are_read() {
        // replica_count 2, computation_count 1, one computation with ids 4 and 7 written unpacked.
        let mut c = Writer::default();
        c.int(1, 4);
        c.int(1, 7);
        let mut w = Writer::default();
        w.int(1, 2);
        w.int(2, 1);
        w.bytes(3, &c.buf);
        let da = DeviceAssignment::parse(&w.buf).unwrap();
        assert_eq!(da.devices, vec![vec![4, 7]]);
    }

    #[test]
    fn truncated_input_is_an_error() {
        let mut w = Writer::default();
        w.bytes(3, &[8, 1, 0x20]);
        let mut b = w.buf.clone();
        b.pop();
        assert!(CompileOptions::parse(&b).is_err());
        assert!(CompileOptions::parse(&[0x0b]).is_err()); // wire type 3 (group)
    }

    #[test]
    fn inconsistent_assignment_is_an_error() {
        let mut w = Writer::default();
        w.int(1, 2);
        w.int(2, 1);
        assert!(DeviceAssignment::parse(&w.buf).is_err());
    }
}
