//! Unit tests for `float.rs`: known bit patterns of every format (from the
//! format definitions), ties-to-even and special-value rules, exhaustive
//! round trips, hardware cross-checks (f32, bf16, tf32) and a property
//! check that `encode` picks the nearest representable value.

use super::*;
use crate::format::*;

fn p2(k: i32) -> f64 {
    2f64.powi(k)
}

/// A tiny deterministic generator (xorshift64*), so the tests need no crates.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

#[test]
fn format_table() {
    // (format, total bits, max finite, smallest positive, max bits)
    let table: [(FloatFormat, u32, f64, f64, u64); 16] = [
        (F4E2M1FN, 4, 6.0, 0.5, 0x7),
        (F6E2M3FN, 6, 7.5, 0.125, 0x1F),
        (F6E3M2FN, 6, 28.0, 0.0625, 0x1F),
        (F8E3M4, 8, 15.5, p2(-6), 0x6F),
        (F8E4M3, 8, 240.0, p2(-9), 0x77),
        (F8E4M3FN, 8, 448.0, p2(-9), 0x7E),
        (F8E4M3FNUZ, 8, 240.0, p2(-10), 0x7F),
        (F8E4M3B11FNUZ, 8, 30.0, p2(-13), 0x7F),
        (F8E5M2, 8, 57344.0, p2(-16), 0x7B),
        (F8E5M2FNUZ, 8, 57344.0, p2(-17), 0x7F),
        (F8E8M0FNU, 8, p2(127), p2(-127), 0xFE),
        (BF16, 16, (2.0 - p2(-7)) * p2(127), p2(-133), 0x7F7F),
        (F16, 16, 65504.0, p2(-24), 0x7BFF),
        (TF32, 19, (2.0 - p2(-10)) * p2(127), p2(-136), 0x3FBFF),
        (F32, 32, f32::MAX as f64, p2(-149), 0x7F7F_FFFF),
        (F64, 64, f64::MAX, p2(-1074), 0x7FEF_FFFF_FFFF_FFFF),
    ];
    for (f, bits, max, min_pos, max_bits) in table {
        assert_eq!(f.total_bits(), bits, "{}", f.name());
        assert_eq!(f.max_bits(), max_bits, "{}", f.name());
        assert_eq!(decode(&f, f.max_bits()), max, "{}", f.name());
        assert_eq!(decode(&f, f.min_positive_bits()), min_pos, "{}", f.name());
        assert_eq!(encode(&f, max), max_bits, "{}", f.name());
        assert_eq!(encode(&f, min_pos), f.min_positive_bits(), "{}", f.name());
        if f.is_signed() {
            assert_eq!(decode(&f, f.lowest_bits()), -max, "{}", f.name());
        }
        assert_eq!(FloatFormat::by_name(f.name()), Some(f));
    }
    assert_eq!(FloatFormat::by_name("f8E4M3fn"), None);
}

#[test]
fn validation() {
    use NanEncoding::*;
    assert!(FloatFormat::new("x", 1, 2, 0, Ieee, true, true).is_none());
    assert!(FloatFormat::new("x", 12, 2, 0, Ieee, true, true).is_none());
    assert!(FloatFormat::new("x", 8, 0, 127, Ieee, true, true).is_none());
    assert!(FloatFormat::new("x", 4, 3, 8, NegativeZero, false, true).is_none());
    assert!(FloatFormat::new("x", 8, 1, 127, AllOnes, false, false).is_none());
    assert!(FloatFormat::new("x", 11, 52, 0, Ieee, true, true).is_none());
    assert!(FloatFormat::new("x", 11, 52, 1023, Ieee, true, true).is_some());
    assert!(FloatFormat::new("x", 4, 3, i32::MIN, Ieee, true, true).is_none());
    assert!(FloatFormat::new("x", 4, 3, i32::MAX, Ieee, true, true).is_none());
}

#[test]
fn special_patterns() {
    // NaN / infinity layout from the definitions.
    assert_eq!(F8E4M3FN.nan_bits(false), Some(0x7F));
    assert_eq!(F8E4M3FN.nan_bits(true), Some(0xFF));
    assert_eq!(F8E4M3FN.inf_bits(false), None);
    assert_eq!(F8E4M3FNUZ.nan_bits(true), Some(0x80));
    assert_eq!(F8E5M2FNUZ.zero_bits(true), Some(0x00));
    assert_eq!(F8E5M2.inf_bits(true), Some(0xFC));
    assert_eq!(F8E5M2.nan_bits(false), Some(0x7E));
    assert_eq!(F8E4M3.inf_bits(false), Some(0x78));
    assert_eq!(F8E3M4.inf_bits(false), Some(0x70));
    assert_eq!(F8E8M0FNU.nan_bits(false), Some(0xFF));
    assert_eq!(F8E8M0FNU.zero_bits(false), None);
    assert_eq!(F4E2M1FN.nan_bits(false), None);
    assert_eq!(F16.nan_bits(false), Some(0x7E00));
    assert_eq!(BF16.nan_bits(true), Some(0xFFC0));
    assert_eq!(TF32.inf_bits(false), Some(0x3FC00));
    assert_eq!(F8E4M3FN.classify(0x7E), FloatClass::Normal);
    assert_eq!(F8E4M3FN.classify(0x07), FloatClass::Subnormal);
    assert_eq!(F8E4M3FN.classify(0x80), FloatClass::Zero);
    assert_eq!(F8E4M3FNUZ.classify(0x80), FloatClass::Nan);
    assert_eq!(F8E8M0FNU.classify(0x00), FloatClass::Normal);
    assert_eq!(F8E5M2.classify(0x7D), FloatClass::Nan);
    assert_eq!(F8E5M2.classify(0x7C), FloatClass::Infinite);
    assert!(F8E5M2.is_finite(0x7B) && !F8E5M2.is_finite(0xFC));
    // Bits above the width are ignored.
    assert_eq!(decode(&F4E2M1FN, 0xF1), 0.5);
    assert!(F4E2M1FN.classify(0xFFFF_FFF8) == FloatClass::Zero);
}

#[test]
fn decode_specials() {
    assert!(decode(&F8E4M3FN, 0x7F).is_nan());
    assert!(decode(&F8E4M3FN, 0xFF).is_sign_negative());
    assert!(decode(&F8E4M3FNUZ, 0x80).is_nan());
    assert!(decode(&F8E8M0FNU, 0xFF).is_nan());
    assert_eq!(decode(&F8E8M0FNU, 0x7F), 1.0);
    assert_eq!(decode(&F8E8M0FNU, 0x00), p2(-127));
    assert_eq!(decode(&F8E5M2, 0xFC), f64::NEG_INFINITY);
    assert_eq!(decode(&F8E4M3, 0x78), f64::INFINITY);
    assert_eq!(decode(&F8E4M3FN, 0x80).to_bits(), (-0.0f64).to_bits());
    assert_eq!(decode(&F4E2M1FN, 0xF), -6.0);
    assert_eq!(decode(&F6E3M2FN, 0x20).to_bits(), (-0.0f64).to_bits());
    // IEEE NaN payloads are kept, not quieted: f16 sNaN 0x7D00.
    assert_eq!(decode(&F16, 0x7D00).to_bits(), 0x7FF4_0000_0000_0000);
    assert_eq!(decode(&F64, 0x7FF0_0000_0000_0001).to_bits(), 0x7FF0_0000_0000_0001);
}

#[test]
fn encode_special_rules() {
    let nan = f64::NAN;
    let (inf, ninf) = (f64::INFINITY, f64::NEG_INFINITY);
    // FN: inf and overflow -> NaN of that sign.
    assert_eq!(encode(&F8E4M3FN, inf), 0x7F);
    assert_eq!(encode(&F8E4M3FN, ninf), 0xFF);
    assert_eq!(encode(&F8E4M3FN, -nan), 0xFF);
    assert_eq!(encode(&F8E4M3FN, 1e30), 0x7F);
    assert_eq!(encode(&F8E4M3FN, -0.0), 0x80);
    // FNUZ: one NaN, no -0.
    for f in [F8E4M3FNUZ, F8E4M3B11FNUZ, F8E5M2FNUZ] {
        assert_eq!(encode(&f, inf), 0x80);
        assert_eq!(encode(&f, ninf), 0x80);
        assert_eq!(encode(&f, -nan), 0x80);
        assert_eq!(encode(&f, -1e30), 0x80);
        assert_eq!(encode(&f, -0.0), 0x00);
        assert_eq!(encode(&f, -1e-30), 0x00);
    }
    // Finite-only: saturate; NaN -> the -0 pattern.
    assert_eq!(encode(&F4E2M1FN, inf), 0x7);
    assert_eq!(encode(&F4E2M1FN, ninf), 0xF);
    assert_eq!(encode(&F4E2M1FN, 1e300), 0x7);
    assert_eq!(encode(&F4E2M1FN, 7.0), 0x7);
    assert_eq!(encode(&F4E2M1FN, nan), 0x8);
    assert_eq!(encode(&F4E2M1FN, -nan), 0x8);
    assert_eq!(encode(&F6E2M3FN, -100.0), 0x3F);
    assert_eq!(encode(&F6E3M2FN, nan), 0x20);
    assert_eq!(encode(&F4E2M1FN, -1e-30), 0x8);
    // IEEE: inf, overflow -> inf, NaN keeps sign.
    assert_eq!(encode(&F8E5M2, 1e6), 0x7C);
    assert_eq!(encode(&F8E5M2, -nan), 0xFE);
    assert_eq!(encode(&F8E4M3, nan), 0x7C);
    assert_eq!(encode(&F8E3M4, ninf), 0xF0);
    assert_eq!(encode(&F16, -1e-30), 0x8000);
    // E8M0FNU: positive only, no zero.
    assert_eq!(encode(&F8E8M0FNU, 0.0), 0xFF);
    assert_eq!(encode(&F8E8M0FNU, -0.0), 0xFF);
    assert_eq!(encode(&F8E8M0FNU, -1.0), 0xFF);
    assert_eq!(encode(&F8E8M0FNU, inf), 0xFF);
    assert_eq!(encode(&F8E8M0FNU, nan), 0xFF);
    assert_eq!(encode(&F8E8M0FNU, 1.0), 0x7F);
    assert_eq!(encode(&F8E8M0FNU, 3.0), 0x81); // tie 2|4 goes up
    assert_eq!(encode(&F8E8M0FNU, 1.5), 0x80);
    assert_eq!(encode(&F8E8M0FNU, 1.4999), 0x7F);
    assert_eq!(encode(&F8E8M0FNU, 1.5 * p2(127)), 0xFF);
    assert_eq!(encode(&F8E8M0FNU, 1.49 * p2(127)), 0xFE);
    assert_eq!(encode(&F8E8M0FNU, 1e-300), 0x00);
    assert_eq!(encode(&F8E8M0FNU, p2(-128)), 0x00);
    // Between 2^-127 and 2^-126 nearest rounding applies (the tie goes up).
    assert_eq!(encode(&F8E8M0FNU, 1.2 * p2(-127)), 0x00);
    assert_eq!(encode(&F8E8M0FNU, 1.49 * p2(-127)), 0x00);
    assert_eq!(encode(&F8E8M0FNU, 1.5 * p2(-127)), 0x01);
    // NaN payloads into IEEE formats: top bits kept, quiet bit set.
    assert_eq!(encode(&F32, f64::from_bits(0x7FF0_0000_0000_0001)), 0x7FC0_0000);
    assert_eq!(encode(&F32, f64::from_bits(0xFFF4_0000_2000_0000)), 0xFFE0_0001);
    assert_eq!(encode(&F64, f64::from_bits(0x7FF0_0000_0000_0001)), 0x7FF0_0000_0000_0001);
}

#[test]
fn ties_to_even() {
    // f8E4M3FN around 1.0 (ulp 1/8): 1 + 1/16 is a tie -> 1.0; 1 + 3/16 -> 1.25.
    assert_eq!(encode(&F8E4M3FN, 1.0 + 1.0 / 16.0), 0x38);
    assert_eq!(encode(&F8E4M3FN, 1.0 + 3.0 / 16.0), 0x3A);
    assert_eq!(encode(&F8E4M3FN, 464.0), 0x7E); // max 448 (mantissa 110, even) keeps the tie
    assert_eq!(encode(&F8E4M3FN, 464.0001), 0x7F);
    assert_eq!(encode(&F8E4M3FN, p2(-10)), 0x00); // half the min subnormal
    assert_eq!(encode(&F8E4M3FN, 3.0 * p2(-10)), 0x02);
    // Direct rounding from f64, no f32 step: above a tie by 2^-40.
    assert_eq!(encode(&F8E4M3FN, 1.0 + 1.0 / 16.0 + p2(-40)), 0x39);
    assert_eq!(encode(&BF16, 1.0 + p2(-8) + p2(-40)), 0x3F81);
    assert_eq!(encode(&BF16, 1.0 + p2(-8)), 0x3F80);
    assert_eq!(encode(&F16, 1.0 + p2(-11) + p2(-40)), 0x3C01);
    assert_eq!(encode(&F16, p2(-25)), 0x0000);
    assert_eq!(encode(&F16, p2(-25) + p2(-60)), 0x0001);
    assert_eq!(encode(&F16, 65520.0), 0x7C00);
    assert_eq!(encode(&F16, 65519.99), 0x7BFF);
    assert_eq!(encode(&TF32, 1.0 + p2(-11)), 127 << 10);
    assert_eq!(encode(&TF32, 1.0 + p2(-11) + p2(-30)), (127 << 10) | 1);
    assert_eq!(encode(&F32, 1.0 + p2(-24) + p2(-50)), 0x3F80_0001);
    // Overflow ties: IEEE max mantissas are odd, so the tie overflows.
    assert_eq!(encode(&F8E5M2, 61440.0), 0x7C);
    assert_eq!(encode(&F8E5M2, 61439.0), 0x7B);
    assert_eq!(encode(&F8E4M3FNUZ, 248.0), 0x80);
    assert_eq!(encode(&F8E3M4, 15.75), 0x70);
    assert_eq!(encode(&F8E3M4, -15.7), 0xEF);
    // F4: 0.25 ties to 0, 5 ties to 4, 2.5 ties to 2, 0.75 ties to 1.
    assert_eq!(encode(&F4E2M1FN, 0.25), 0x0);
    assert_eq!(encode(&F4E2M1FN, 0.2500001), 0x1);
    assert_eq!(encode(&F4E2M1FN, 5.0), 0x6);
    assert_eq!(encode(&F4E2M1FN, -2.5), 0xC);
    assert_eq!(encode(&F4E2M1FN, 0.75), 0x2);
    // Subnormal to normal carry: f16 just below the min normal.
    assert_eq!(encode(&F16, p2(-14) - p2(-26)), 0x0400);
    // f64 subnormal inputs.
    assert_eq!(encode(&F32, p2(-1074)), 0);
    assert_eq!(encode(&F32, -p2(-1074)), 0x8000_0000);
}

#[test]
fn f32_matches_hardware() {
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    for i in 0..300_000 {
        let bits = rng.next();
        // Every third value lands near the f32 range so that subnormals,
        // ties and overflow are exercised, the rest are arbitrary.
        let x = match i % 3 {
            0 => f64::from_bits(bits),
            1 => f64::from_bits((bits & 0x800F_FFFF_FFFF_FFFF) | ((0x380 + (bits >> 52) % 0x100) << 52)),
            _ => f64::from(f32::from_bits(bits as u32)) * (1.0 + ((bits >> 40) % 3) as f64 * p2(-25)),
        };
        if x.is_nan() {
            continue;
        }
        assert_eq!(encode(&F32, x), u64::from((x as f32).to_bits()), "{x:e} {:#x}", x.to_bits());
    }
}

#[test]
fn exhaustive_round_trips() {
    for f in ALL_FORMATS {
        if f.total_bits() > 19 {
            continue;
        }
        for b in 0..(1u64 << f.total_bits()) {
            let v = decode(&f, b);
            let back = encode(&f, v);
            if f.is_nan(b) {
                assert!(v.is_nan() && f.is_nan(back), "{} {b:#x}", f.name());
                if f.has_inf() {
                    let quiet = 1u64 << (f.mantissa_bits() - 1);
                    assert_eq!(back, b | quiet, "{} {b:#x}", f.name());
                }
            } else {
                assert_eq!(back, b, "{} {b:#x} {v}", f.name());
                assert_eq!(decode_f32(&f, b) as f64, v);
                assert_eq!(encode_f32(&f, v as f32), b);
            }
        }
    }
}

#[test]
fn bf16_tf32_decode_match_f32_hardware() {
    for b in 0..(1u64 << 16) {
        let want = f32::from_bits((b as u32) << 16);
        let got = decode(&BF16, b);
        assert!(got.to_bits() == (want as f64).to_bits() || (got.is_nan() && want.is_nan()));
        assert_eq!(convert_bits(&BF16, &F32, b) >> 16, b | if BF16.is_nan(b) { 0x40 } else { 0 });
    }
    for b in 0..(1u64 << 19) {
        let want = f32::from_bits((b as u32) << 13);
        let got = decode(&TF32, b);
        assert!(got.to_bits() == (want as f64).to_bits() || (got.is_nan() && want.is_nan()));
    }
}

#[test]
fn convert_between_formats() {
    // Same format: identity, even for signalling NaN.
    assert_eq!(convert_bits(&F32, &F32, 0x7F80_0001), 0x7F80_0001);
    assert_eq!(encode_f32(&F32, f32::from_bits(0x7F80_0001)), 0x7F80_0001);
    // f16 sNaN -> f32: quieted, payload kept (what F16C hardware does).
    assert_eq!(convert_bits(&F16, &F32, 0x7D00), 0x7FE0_0000);
    // FNUZ NaN -> FN NaN; FN NaN -> IEEE NaN.
    assert_eq!(convert_bits(&F8E4M3FNUZ, &F8E4M3FN, 0x80), 0xFF);
    assert_eq!(convert_bits(&F8E4M3FN, &F8E5M2, 0x7F), 0x7E);
    // E4M3FN max 448 = 1.75 * 2^8 is exact in E5M2: exponent 23, mantissa 11.
    assert_eq!(convert_bits(&F8E4M3FN, &F8E5M2, 0x7E), 0x5F);
    // E4M3FN 0x7D = 416 = 1.625 * 2^8: a tie between 384 and 448 -> 384 (even).
    assert_eq!(convert_bits(&F8E4M3FN, &F8E5M2, 0x7D), 0x5E);
    // E5M2 max 57344 -> E4M3FN: NaN (overflow).
    assert_eq!(convert_bits(&F8E5M2, &F8E4M3FN, 0x7B), 0x7F);
    // E8M0 0x00 (2^-127) -> f32 subnormal 2^-127 = bit 22.
    assert_eq!(convert_bits(&F8E8M0FNU, &F32, 0x00), 0x0040_0000);
    assert_eq!(decode_f32(&F64, 1e300f64.to_bits()), f32::INFINITY);
    assert_eq!(decode_f32(&F64, (1.0 + p2(-24)).to_bits()), 1.0);
}

/// Checks that `encode` returns the representable value nearest to `x`
/// (ties to even significand), judged through `decode` of neighbouring
/// patterns and exact f64 midpoints rather than the rounding code.
fn check_nearest(f: &FloatFormat, x: f64) {
    let r = encode(f, x);
    let name = f.name();
    let mag = r & f.magnitude_mask();
    let ax = x.abs();
    let max = decode(f, f.max_bits());
    // The value one ulp above max, as if the exponent range went on.
    let beyond = max + p2(f.max_exponent() - f.mantissa_bits() as i32);
    let max_even = f.mantissa_bits() > 0 && f.max_bits() & 1 == 0;
    if f.overflow_rule() == OverflowRule::Saturate && ax >= max {
        assert_eq!(mag, f.max_bits(), "{name} {x:e} should saturate");
        return;
    }
    if !f.is_finite(r) {
        let mid = (max + beyond) / 2.0;
        assert!(ax > mid || (ax == mid && !max_even), "{name} {x:e} overflowed");
        return;
    }
    let v = decode(f, r).abs();
    assert_eq!(decode(f, r).is_sign_negative() || v == 0.0, x < 0.0 || v == 0.0, "{name} {x:e} sign");
    if v == ax {
        return;
    }
    let even = |p: u64| if f.mantissa_bits() == 0 { false } else { p & 1 == 0 };
    if v < ax {
        let hi = if mag == f.max_bits() { beyond } else { decode(f, mag + 1) };
        let mid = (v + hi) / 2.0;
        assert!(hi > ax && (ax < mid || (ax == mid && even(mag))), "{name} {x:e} -> {v:e}");
        if mag == f.max_bits() {
            assert!(ax < mid || (ax == mid && max_even), "{name} {x:e} should overflow");
        }
    } else {
        if mag == f.min_positive_bits() && !f.has_zero() {
            return; // E8M0FNU saturates below its smallest value.
        }
        let lo = if mag == f.min_positive_bits() { 0.0 } else { decode(f, mag - 1) };
        let mid = (lo + v) / 2.0;
        assert!(lo < ax && (ax > mid || (ax == mid && (even(mag) || f.mantissa_bits() == 0))), "{name} {x:e} -> {v:e}");
    }
}

#[test]
fn encode_is_nearest_for_every_format() {
    let mut rng = Rng(42);
    for f in ALL_FORMATS {
        if f == F64 {
            continue;
        }
        let lo_exp = f.min_normal_exponent() - f.mantissa_bits() as i32 - 3;
        let span = (f.max_exponent() + 3 - lo_exp) as u64;
        for i in 0..20_000 {
            let bits = rng.next();
            let e = lo_exp + (bits % span) as i32;
            let frac = rng.next() >> 12;
            let mut x = f64::from_bits(((e + 1023) as u64) << 52 | frac);
            if i % 4 == 0 {
                // Exact midpoints between neighbours, and one f64 ulp either side.
                let p = (bits >> 8) % (f.max_bits() + 1);
                if !f.is_finite(p) || !f.is_finite(p + 1) {
                    continue;
                }
                let mid = (decode(&f, p) + decode(&f, p + 1)) / 2.0;
                x = match (bits >> 4) % 3 {
                    0 => mid,
                    1 => f64::from_bits(mid.to_bits() + 1),
                    _ => f64::from_bits(mid.to_bits().saturating_sub(1)),
                };
            }
            if f.is_signed() && bits & 1 == 1 {
                x = -x;
            }
            if x.is_finite() && x != 0.0 {
                check_nearest(&f, x);
            }
        }
    }
}
