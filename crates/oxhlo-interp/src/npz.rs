//! `.npz` archives (NumPy's `np.savez`): a zip of `.npy` members. Reads stored (uncompressed) members,
//! including the zip64 records NumPy writes; writes stored members. `np.savez_compressed` archives (deflate)
//! are refused with a clear error.

const LOCAL: u32 = 0x0403_4b50;
const CENTRAL: u32 = 0x0201_4b50;
const END: u32 = 0x0605_4b50;
const END64: u32 = 0x0606_4b50;
const END64_LOCATOR: u32 = 0x0706_4b50;

fn u16_at(b: &[u8], at: usize) -> Result<u16, String> {
    b.get(at..at + 2).map(|s| u16::from_le_bytes([s[0], s[1]])).ok_or_else(|| format!("truncated .npz at byte {at}"))
}
fn u32_at(b: &[u8], at: usize) -> Result<u32, String> {
    b.get(at..at + 4).map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]])).ok_or_else(|| format!("truncated .npz at byte {at}"))
}
fn u64_at(b: &[u8], at: usize) -> Result<u64, String> {
    let lo = u32_at(b, at)? as u64;
    let hi = u32_at(b, at + 4)? as u64;
    Ok(lo | (hi << 32))
}

/// The members of an archive: (name without `.npy`, the member's bytes), in archive order.
pub fn read_npz(bytes: &[u8]) -> Result<Vec<(String, Vec<u8>)>, String> {
    let start = bytes.len().saturating_sub(22 + 65535);
    let end = (start..bytes.len().saturating_sub(21))
        .rev()
        .find(|&i| u32_at(bytes, i) == Ok(END))
        .ok_or("not a zip archive (no end-of-central-directory record)")?;
    let mut count = u16_at(bytes, end + 10)? as u64;
    let mut cd_offset = u32_at(bytes, end + 16)? as u64;
    if (count == 0xFFFF || cd_offset == 0xFFFF_FFFF) && end >= 20 && u32_at(bytes, end - 20)? == END64_LOCATOR {
        let rec = u64_at(bytes, end - 20 + 8)? as usize;
        if u32_at(bytes, rec)? != END64 {
            return Err(format!("bad zip64 end record at byte {rec}"));
        }
        count = u64_at(bytes, rec + 32)?;
        cd_offset = u64_at(bytes, rec + 48)?;
    }
    let mut at = usize::try_from(cd_offset).map_err(|_| "central directory offset out of range")?;
    let mut out = Vec::new();
    for _ in 0..count {
        if u32_at(bytes, at)? != CENTRAL {
            return Err(format!("bad central directory entry at byte {at}"));
        }
        let method = u16_at(bytes, at + 10)?;
        let mut csize = u32_at(bytes, at + 20)? as u64;
        let mut usize_ = u32_at(bytes, at + 24)? as u64;
        let (nlen, xlen, clen) = (u16_at(bytes, at + 28)? as usize, u16_at(bytes, at + 30)? as usize, u16_at(bytes, at + 32)? as usize);
        let mut local = u32_at(bytes, at + 42)? as u64;
        let name_bytes = bytes.get(at + 46..at + 46 + nlen).ok_or("truncated member name")?;
        let name = String::from_utf8_lossy(name_bytes).into_owned();
        // zip64 extra field: the 64-bit values of the fields that hold 0xFFFFFFFF, in this order.
        let mut x = at + 46 + nlen;
        let x_end = x + xlen;
        while x + 4 <= x_end {
            let (id, len) = (u16_at(bytes, x)?, u16_at(bytes, x + 2)? as usize);
            if id == 1 {
                let mut f = x + 4;
                for field in [&mut usize_, &mut csize, &mut local] {
                    if *field == 0xFFFF_FFFF {
                        *field = u64_at(bytes, f)?;
                        f += 8;
                    }
                }
            }
            x += 4 + len;
        }
        if method != 0 {
            return Err(format!("member {name} is compressed (np.savez_compressed); save the arrays with np.savez"));
        }
        if csize != usize_ {
            return Err(format!("member {name}: stored sizes differ ({csize} vs {usize_})"));
        }
        let l = usize::try_from(local).map_err(|_| "member offset out of range")?;
        if u32_at(bytes, l)? != LOCAL {
            return Err(format!("bad local header of {name} at byte {l}"));
        }
        let data = l + 30 + u16_at(bytes, l + 26)? as usize + u16_at(bytes, l + 28)? as usize;
        let len = usize::try_from(csize).map_err(|_| "member size out of range")?;
        let body = bytes.get(data..data.saturating_add(len)).ok_or_else(|| format!("member {name} is truncated"))?;
        out.push((name.strip_suffix(".npy").unwrap_or(&name).to_string(), body.to_vec()));
        at += 46 + nlen + xlen + clen;
    }
    Ok(out)
}

/// An archive of stored members (`name.npy` for each (name, npy bytes)), as `np.load` reads it.
pub fn write_npz(members: &[(String, Vec<u8>)]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for (name, data) in members {
        let file = format!("{name}.npy");
        let (size, offset) = (u32::try_from(data.len()), u32::try_from(out.len()));
        let (Ok(size), Ok(offset)) = (size, offset) else { return Err(".npz members over 4 GiB are not supported".into()) };
        let crc = crc32(data);
        let header = |sig: u32, central: bool| {
            let mut h = Vec::new();
            h.extend_from_slice(&sig.to_le_bytes());
            if central {
                h.extend_from_slice(&20u16.to_le_bytes()); // made by
            }
            for v in [20u16, 0, 0, 0, 0x21] {
                h.extend_from_slice(&v.to_le_bytes()); // version, flags, method (stored), time, date
            }
            h.extend_from_slice(&crc.to_le_bytes());
            h.extend_from_slice(&size.to_le_bytes());
            h.extend_from_slice(&size.to_le_bytes());
            h.extend_from_slice(&(file.len() as u16).to_le_bytes());
            h.extend_from_slice(&0u16.to_le_bytes()); // extra length
            if central {
                for v in [0u16, 0, 0] {
                    h.extend_from_slice(&v.to_le_bytes()); // comment length, disk, internal attributes
                }
                h.extend_from_slice(&0u32.to_le_bytes()); // external attributes
                h.extend_from_slice(&offset.to_le_bytes());
            }
            h.extend_from_slice(file.as_bytes());
            h
        };
        out.extend(header(LOCAL, false));
        out.extend_from_slice(data);
        central.extend(header(CENTRAL, true));
    }
    let cd_offset = u32::try_from(out.len()).map_err(|_| ".npz over 4 GiB is not supported")?;
    let n = u16::try_from(members.len()).map_err(|_| "too many .npz members")?;
    out.extend_from_slice(&central);
    out.extend_from_slice(&END.to_le_bytes());
    for v in [0u16, 0, n, n] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&(central.len() as u32).to_le_bytes());
    out.extend_from_slice(&cd_offset.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    Ok(out)
}

/// CRC-32 (IEEE, reflected), as zip requires.
pub fn crc32(data: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &b in data {
        crc ^= b as u32;
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32_of_the_standard_check_string() {
        // The CRC-32 check value of "123456789" is 0xCBF43926 (the zip/IEEE polynomial's published check).
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    }

    #[test]
    fn garbage_is_an_error() {
        assert!(read_npz(b"not a zip").is_err());
        assert!(read_npz(&[]).is_err());
    }
}
