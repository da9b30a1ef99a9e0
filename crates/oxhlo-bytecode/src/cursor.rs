//! A bounds-checked byte cursor over part of the input: the bytecode primitives
//! (PrefixVarInt, zigzag signed varints, varint-with-flag, NUL-terminated strings,
//! blobs, section headers, APInt words) with absolute byte offsets for errors.
//!
//! Nothing here panics on any input, and every count read from the input is bounded by
//! the bytes that remain before anything is allocated for it.

use crate::error::{BytecodeError, Result};

/// A cursor over `data`, which starts at absolute offset `base` in the whole input.
#[derive(Clone, Copy, Debug)]
pub struct Cursor<'a> {
    data: &'a [u8],
    pos: usize,
    base: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor over `data` whose first byte is at absolute offset `base`.
    pub fn new(data: &'a [u8], base: usize) -> Self {
        Cursor { data, pos: 0, base }
    }

    /// Absolute offset of the next byte to read.
    pub fn offset(&self) -> usize {
        self.base.saturating_add(self.pos)
    }

    /// Absolute offset of the first byte of this cursor's data.
    pub fn base(&self) -> usize {
        self.base
    }

    pub fn remaining(&self) -> usize {
        self.data.len().saturating_sub(self.pos)
    }

    pub fn is_empty(&self) -> bool {
        self.remaining() == 0
    }

    /// All the bytes of this cursor (read or not).
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// An error at the current offset.
    pub fn err(&self, message: impl Into<String>) -> BytecodeError {
        BytecodeError::new(self.offset(), message)
    }

    pub fn byte(&mut self, what: &str) -> Result<u8> {
        match self.data.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                Ok(b)
            }
            None => Err(self.err(format!("expected {what}, found end of data"))),
        }
    }

    pub fn bytes(&mut self, n: usize, what: &str) -> Result<&'a [u8]> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.data.len());
        match end.and_then(|e| self.data.get(self.pos..e)) {
            Some(s) => {
                self.pos += n;
                Ok(s)
            }
            None => Err(self.err(format!(
                "expected {what} of {n} bytes, only {} bytes left",
                self.remaining()
            ))),
        }
    }

    /// A PrefixVarInt: the trailing zero bits of the first byte count the extra bytes.
    pub fn varint(&mut self, what: &str) -> Result<u64> {
        let start = self.offset();
        let first = self.byte(what)?;
        if first & 1 == 1 {
            return Ok(u64::from(first >> 1));
        }
        if first == 0 {
            let b = self.bytes(8, what)?;
            let mut w = [0u8; 8];
            w.copy_from_slice(b);
            return Ok(u64::from_le_bytes(w));
        }
        let extra = first.trailing_zeros() as usize; // 1..=7
        let rest = self.bytes(extra, what).map_err(|e| {
            BytecodeError::new(start, format!("truncated varint for {what}: {}", e.message))
        })?;
        let mut w = [0u8; 8];
        w[0] = first;
        for (dst, src) in w.iter_mut().skip(1).zip(rest) {
            *dst = *src;
        }
        Ok(u64::from_le_bytes(w) >> (extra + 1))
    }

    /// A zigzag-encoded signed varint.
    pub fn svarint(&mut self, what: &str) -> Result<i64> {
        let v = self.varint(what)?;
        Ok(((v >> 1) as i64) ^ -((v & 1) as i64))
    }

    /// `(value << 1) | flag`.
    pub fn varint_flag(&mut self, what: &str) -> Result<(u64, bool)> {
        let v = self.varint(what)?;
        Ok((v >> 1, v & 1 == 1))
    }

    /// A varint used as an index or size, converted to usize.
    pub fn index(&mut self, what: &str) -> Result<usize> {
        let at = self.offset();
        let v = self.varint(what)?;
        usize::try_from(v).map_err(|_| BytecodeError::new(at, format!("{what} {v} is too large")))
    }

    /// A count of items that each take at least `min_bytes` bytes of this cursor: fails
    /// fast when the remaining bytes cannot hold that many.
    pub fn count(&mut self, what: &str, min_bytes: usize) -> Result<usize> {
        let at = self.offset();
        let n = self.varint(what)?;
        let cap = self.remaining() / min_bytes.max(1);
        if n > cap as u64 {
            return Err(BytecodeError::new(
                at,
                format!("{what} claims {n} items but only {} bytes remain", self.remaining()),
            ));
        }
        Ok(n as usize)
    }

    /// A NUL-terminated string (producer string, asm fallback entries).
    pub fn cstr(&mut self, what: &str) -> Result<&'a [u8]> {
        let rest = self.data.get(self.pos..).unwrap_or_default();
        match rest.iter().position(|&b| b == 0) {
            Some(n) => {
                let s = rest.get(..n).unwrap_or_default();
                self.pos += n + 1;
                Ok(s)
            }
            None => Err(self.err(format!("expected NUL-terminated {what}"))),
        }
    }

    /// A blob: varint size then that many bytes.
    pub fn blob(&mut self, what: &str) -> Result<&'a [u8]> {
        let at = self.offset();
        let n = self.varint(what)?;
        if n > self.remaining() as u64 {
            return Err(BytecodeError::new(
                at,
                format!("{what} claims {n} bytes but only {} remain", self.remaining()),
            ));
        }
        self.bytes(n as usize, what)
    }

    /// Skips `0xCB` padding until the absolute offset is a multiple of `align`.
    pub fn align(&mut self, align: u64) -> Result<()> {
        if align == 0 || !align.is_power_of_two() {
            return Err(self.err(format!("invalid alignment {align}")));
        }
        while !(self.offset() as u64).is_multiple_of(align) {
            let at = self.offset();
            let b = self.byte("alignment padding")?;
            if b != 0xCB {
                return Err(BytecodeError::new(at, format!("expected padding byte 0xCB, found 0x{b:02x}")));
            }
        }
        Ok(())
    }

    /// A section header and body: `id | hasAlign<<7`, varint length, optional alignment.
    /// Returns the section id and a cursor over its body.
    pub fn section(&mut self) -> Result<(u8, Cursor<'a>)> {
        let id_byte = self.byte("section id")?;
        let at = self.offset();
        let len = self.varint("section length")?;
        if id_byte & 0x80 != 0 {
            let align = self.varint("section alignment")?;
            self.align(align)?;
        }
        if len > self.remaining() as u64 {
            return Err(BytecodeError::new(
                at,
                format!("section {} claims {len} bytes but only {} remain", id_byte & 0x7f, self.remaining()),
            ));
        }
        let base = self.offset();
        let body = self.bytes(len as usize, "section body")?;
        Ok((id_byte & 0x7f, Cursor::new(body, base)))
    }

    /// An APInt of known bit width, as little-endian 64-bit words (only the words the
    /// encoding holds, at most `ceil(width / 64)`), masked to `width` bits.
    pub fn apint(&mut self, width: u32) -> Result<Vec<u64>> {
        let words = if width <= 8 {
            vec![u64::from(self.byte("8-bit integer")?)]
        } else if width <= 64 {
            vec![self.svarint("integer")? as u64]
        } else {
            let max_words = width.div_ceil(64) as usize;
            let at = self.offset();
            let n = self.count("integer word count", 1)?;
            if n > max_words {
                return Err(BytecodeError::new(at, format!("integer of width {width} claims {n} words")));
            }
            let mut v = Vec::with_capacity(n);
            for _ in 0..n {
                v.push(self.svarint("integer word")? as u64);
            }
            v
        };
        Ok(truncate_words(words, width))
    }
}

/// Masks `words` to `width` bits (the top word when it straddles `width`).
pub fn truncate_words(mut words: Vec<u64>, width: u32) -> Vec<u64> {
    let nwords = width.div_ceil(64) as usize;
    words.truncate(nwords.max(1));
    if width == 0 {
        words.iter_mut().for_each(|w| *w = 0);
    } else if words.len() == nwords && !width.is_multiple_of(64) {
        if let Some(last) = words.last_mut() {
            *last &= (1u64 << (width % 64)) - 1;
        }
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints() {
        let mut c = Cursor::new(&[0x03, 0x02, 0x01, 0x00, 1, 2, 3, 4, 5, 6, 7, 8], 10);
        assert_eq!(c.varint("a").ok(), Some(1));
        // 0x02: one extra byte: (0x0102 >> 2)
        assert_eq!(c.varint("b").ok(), Some(0x0102 >> 2));
        assert_eq!(c.varint("c").ok(), Some(0x0807060504030201));
        let e = c.varint("d").err().map(|e| e.offset);
        assert_eq!(e, Some(22));
    }

    #[test]
    fn counts_are_bounded() {
        // 0x00 + 8 bytes: 2^60
        let mut data = vec![0u8];
        data.extend_from_slice(&(1u64 << 60).to_le_bytes());
        let mut c = Cursor::new(&data, 0);
        assert!(c.count("things", 1).is_err());
    }

    #[test]
    fn svarint_and_apint() {
        let mut c = Cursor::new(&[0x07, 0x05, 0xff], 0);
        assert_eq!(c.svarint("x").ok(), Some(-2));
        assert_eq!(c.apint(16).ok(), Some(vec![1]));
        assert_eq!(c.apint(8).ok(), Some(vec![0xff]));
    }
}
