//! Deterministic mutation test: real artifacts (the checked-in fixtures, plus jaxlib
//! ones when available) get thousands of seeded byte mutations and truncations;
//! decoding (and mapping onto oxhlo IR) must return Ok or Err, never panic, never take long, and never allocate
//! far more than the input's size (a counting global allocator watches the peak).

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = CURRENT.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// xorshift64*: small, seeded, deterministic.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

fn mutate(rng: &mut Rng, input: &[u8]) -> Vec<u8> {
    let mut v = input.to_vec();
    let rounds = 1 + rng.below(4);
    for _ in 0..rounds {
        let len = v.len();
        let at = rng.below(len.max(1));
        match rng.below(9) {
            0 => {
                if let Some(b) = v.get_mut(at) {
                    *b ^= 1 << rng.below(8);
                }
            }
            1 => {
                if let Some(b) = v.get_mut(at) {
                    *b = rng.next() as u8;
                }
            }
            2 => v.truncate(at),
            3 => {
                let b = rng.next() as u8;
                v.insert(at.min(len), b);
            }
            4 => {
                if at < len {
                    v.remove(at);
                }
            }
            5 => {
                // A varint claiming a huge count: 0x00 then 8 bytes.
                let big = [0u8, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x0f];
                for (i, b) in big.iter().enumerate() {
                    if let Some(x) = v.get_mut(at + i) {
                        *x = *b;
                    }
                }
            }
            6 => {
                if let Some(b) = v.get_mut(at) {
                    *b = [0x00, 0x01, 0x03, 0x7f, 0x80, 0xfe, 0xff][rng.below(7)];
                }
            }
            7 => {
                // Duplicate a chunk.
                let n = rng.below(16).min(len - at.min(len));
                let chunk: Vec<u8> = v[at.min(len)..at.min(len) + n].to_vec();
                let pos = rng.below(len + 1);
                v.splice(pos..pos, chunk);
            }
            _ => {
                // Small varint tweak: +-1 on a byte.
                if let Some(b) = v.get_mut(at) {
                    *b = if rng.below(2) == 0 { b.wrapping_add(2) } else { b.wrapping_sub(2) };
                }
            }
        }
    }
    v
}

/// Decodes `bytes` under the guards; returns Err(description) on a violation.
fn check(bytes: &[u8]) -> Result<bool, String> {
    let before = CURRENT.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let start = Instant::now();
    let r = catch_unwind(AssertUnwindSafe(|| {
        let m = oxhlo_bytecode::read(bytes);
        if let Ok(m) = &m {
            let _ = oxhlo_bytecode::print_module(m);
            // Phase 2 must not panic either (Ok or a located error).
            let _ = oxhlo_bytecode::raw_to_ir(m);
        }
        m.is_ok()
    }));
    let took = start.elapsed();
    let peak = PEAK.load(Ordering::Relaxed).saturating_sub(before);
    let ok = r.map_err(|_| "panicked".to_string())?;
    if took > Duration::from_secs(2) {
        return Err(format!("took {took:?}"));
    }
    // The raw tree and the print can be a few dozen times the input, never more.
    let limit = 200 * bytes.len() + (4 << 20);
    if peak > limit {
        return Err(format!("peak allocation {peak} bytes for {} input bytes", bytes.len()));
    }
    Ok(ok)
}

#[test]
fn seeded_mutations_never_panic_hang_or_overallocate() {
    std::panic::set_hook(Box::new(|_| {}));
    let mut inputs = common::fixtures();
    if let Some(arts) = common::artifacts() {
        for a in arts.iter().filter(|a| a.name.starts_with("control") || a.name.starts_with("reductions.vhlo_1.13")) {
            inputs.push((a.name.clone(), a.bytes.clone()));
        }
    }
    let mut total = 0;
    let mut still_ok = 0;
    let mut failures = Vec::new();
    for (i, (name, bytes)) in inputs.iter().enumerate() {
        assert_eq!(check(bytes), Ok(true), "{name} must decode unmutated");
        // Every truncation of the smaller inputs.
        if bytes.len() < 2500 {
            for cut in 0..bytes.len() {
                total += 1;
                match check(&bytes[..cut]) {
                    Ok(true) => still_ok += 1,
                    Ok(false) => {}
                    Err(e) => failures.push(format!("{name} truncated at {cut}: {e}")),
                }
            }
        }
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ (i as u64 + 1));
        for k in 0..1500 {
            let m = mutate(&mut rng, bytes);
            total += 1;
            match check(&m) {
                Ok(true) => still_ok += 1,
                Ok(false) => {}
                Err(e) => failures.push(format!("{name} mutation #{k}: {e}")),
            }
        }
    }
    let _ = std::panic::take_hook();
    assert!(failures.is_empty(), "{} violations, first: {:?}", failures.len(), &failures[..failures.len().min(10)]);
    assert!(total >= 10_000, "only {total} mutated inputs");
    eprintln!("{total} mutated inputs, {still_ok} still decoded");
}
