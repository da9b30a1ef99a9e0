//! Totality: every public function on arbitrary valid formats and arbitrary
//! inputs returns without panicking (overflow checks are on in tests), and
//! results stay inside the format's width.

use oxhlo_dtype::*;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

fn random_format(rng: &mut Rng) -> Option<FloatFormat> {
    let nan = match rng.next() % 4 {
        0 => NanEncoding::Ieee,
        1 => NanEncoding::AllOnes,
        2 => NanEncoding::NegativeZero,
        _ => NanEncoding::None,
    };
    let e = (rng.next() % 14) as u32;
    let m = (rng.next() % 56) as u32;
    let bias = (rng.next() % 2400) as i32 - 1200;
    FloatFormat::new("random", e, m, bias, nan, !rng.next().is_multiple_of(4), !rng.next().is_multiple_of(8))
}

#[test]
fn random_formats_and_inputs_never_panic() {
    let mut rng = Rng(7);
    let mut formats: Vec<FloatFormat> = ALL_FORMATS.to_vec();
    while formats.len() < 400 {
        if let Some(f) = random_format(&mut rng) {
            formats.push(f);
        }
    }
    let specials = [0.0, -0.0, f64::INFINITY, f64::NEG_INFINITY, f64::NAN, -f64::NAN, f64::MAX, f64::MIN,
        f64::MIN_POSITIVE, 5e-324, -5e-324, 1.0, -1.0, 0.5];
    for (i, f) in formats.iter().enumerate() {
        let g = &formats[(i * 7 + 3) % formats.len()];
        for j in 0..600 {
            let x = if j < specials.len() { specials[j] } else { f64::from_bits(rng.next()) };
            let bits = encode(f, x);
            assert_eq!(bits & !f.mask(), 0, "{f:?} {x:e}");
            let v = decode(f, bits);
            if f.is_finite(bits) {
                assert!(v.is_finite());
            }
            let _ = decode_f32(f, rng.next());
            let _ = encode_f32(f, f32::from_bits(rng.next() as u32));
            let c = convert_bits(f, g, rng.next());
            assert_eq!(c & !g.mask(), 0);
            let r = reduce_precision(f, rng.next(), (rng.next() % 80) as i32 - 10, (rng.next() % 80) as i32 - 10);
            assert_eq!(r & !f.mask(), 0);
            let k = rng.next();
            let iv = ((k as i128) << 64 | rng.next() as i128) >> (k % 128);
            assert_eq!(encode_i128(f, iv) & !f.mask(), 0);
            let w = (k % 70) as u32;
            let _ = (float_to_signed(x, w), float_to_unsigned(x, w), wrap_signed(iv, w), wrap_unsigned(iv, w));
            let _ = (float_bits_to_signed(f, bits, w), float_bits_to_unsigned(f, bits, w));
            let _ = (signed_min(w), signed_max(w), unsigned_max(w), f.classify(k));
        }
    }
}
