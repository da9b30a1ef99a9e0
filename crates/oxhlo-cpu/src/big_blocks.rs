//! A global allocator that keeps freed big blocks (1 MiB and more) for reuse by the next allocation of
//! the same size and alignment, as XLA's own allocator keeps its buffers: a program's runs allocate the
//! same tensor sizes run after run, and a block fresh from the C library faults its pages in (zeroed by
//! the kernel) on first write: a third of a softmax run through the JAX plugin. glibc's own tuning
//! ([`crate::alloc`]) cannot cover the plugin: inside a JAX process other threads have made their own
//! malloc arenas before oxhlo runs, and a thread's arena gives big free blocks back to the OS.
//!
//! At most [`SLOTS`] blocks and [`CAP`] bytes (512 MiB) are kept: a block freed when the cache is full
//! pushes the longest-kept ones back to the C library (blocks of sizes a process stopped using do not
//! stay). Measured through JAX on the 2-core dev machine, the anchor suite's op benchmarks: the same
//! times with 1 GiB, peak RSS 1.59 -> 1.17 GB (XLA:CPU 0.86 GB).
//! Front doors that own their process's allocator declare it (`#[global_allocator] static A:
//! BigBlockCache = BigBlockCache;`: the plugin library and the `oxhlo` command line).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::Mutex;

/// Smallest block kept.
const BIG: usize = 1 << 20;
/// Most blocks kept.
const SLOTS: usize = 256;
/// Most bytes kept.
const CAP: usize = 512 << 20;

struct Cache {
    /// (address, size, alignment, when kept); address 0 marks a free slot.
    blocks: [(usize, usize, usize, u64); SLOTS],
    bytes: usize,
    /// Blocks kept so far (the clock of `blocks`' last field).
    kept: u64,
}

static CACHE: Mutex<Cache> = Mutex::new(Cache { blocks: [(0, 0, 0, 0); SLOTS], bytes: 0, kept: 0 });

/// The allocator: [`System`] with big freed blocks kept for reuse.
pub struct BigBlockCache;

fn cache() -> std::sync::MutexGuard<'static, Cache> {
    // The cache holds plain numbers: a panic elsewhere leaves it consistent.
    CACHE.lock().unwrap_or_else(|e| e.into_inner())
}

impl BigBlockCache {
    /// A kept block of exactly this size and alignment, taken out of the cache.
    fn take(layout: Layout) -> Option<*mut u8> {
        let mut c = cache();
        let slot = c.blocks.iter().position(|&(p, s, a, _)| p != 0 && s == layout.size() && a == layout.align())?;
        let (p, s, _, _) = c.blocks[slot];
        c.blocks[slot] = (0, 0, 0, 0);
        c.bytes -= s;
        Some(p as *mut u8)
    }

    /// Keeps a freed block, first giving the longest-kept blocks back while it would not fit; false when
    /// it is bigger than the whole cache.
    fn keep(ptr: *mut u8, layout: Layout) -> bool {
        if layout.size() > CAP {
            return false;
        }
        let mut c = cache();
        loop {
            let free = c.blocks.iter().position(|&(p, _, _, _)| p == 0);
            if free.is_some() && c.bytes + layout.size() <= CAP {
                break;
            }
            let Some(old) = c.blocks.iter().enumerate().filter(|(_, b)| b.0 != 0).min_by_key(|(_, b)| b.3).map(|(i, _)| i) else { return false };
            let (p, s, a, _) = c.blocks[old];
            c.blocks[old] = (0, 0, 0, 0);
            c.bytes -= s;
            // SAFETY: a kept block came from `System` with exactly this size and alignment.
            unsafe { System.dealloc(p as *mut u8, Layout::from_size_align_unchecked(s, a)) };
        }
        let Some(slot) = c.blocks.iter().position(|&(p, _, _, _)| p == 0) else { return false };
        c.kept += 1;
        let when = c.kept;
        c.blocks[slot] = (ptr as usize, layout.size(), layout.align(), when);
        c.bytes += layout.size();
        true
    }
}

// SAFETY: every block handed out comes from `System` with the same size and alignment as the request
// (kept blocks are matched exactly), is handed out once (taken out of the cache under its lock), and is
// returned to `System` with its own layout when it is not kept.
unsafe impl GlobalAlloc for BigBlockCache {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.size() >= BIG {
            if let Some(p) = Self::take(layout) {
                return p;
            }
        }
        // SAFETY: forwarded with the caller's (non-zero-size) layout.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if layout.size() >= BIG {
            if let Some(p) = Self::take(layout) {
                // SAFETY: a kept block of exactly `layout.size()` bytes, now the caller's.
                unsafe { p.write_bytes(0, layout.size()) };
                return p;
            }
        }
        // SAFETY: forwarded with the caller's (non-zero-size) layout; fresh memory may come zeroed
        // from the OS without a pass over it.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if layout.size() >= BIG && Self::keep(ptr, layout) {
            return;
        }
        // SAFETY: `ptr` came from `System` with this layout (kept blocks are matched exactly).
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if layout.size() < BIG && new_size < BIG {
            // SAFETY: small blocks are always `System`'s, with this layout.
            return unsafe { System.realloc(ptr, layout, new_size) };
        }
        // SAFETY: the new layout is valid (same alignment, `new_size` checked by the caller's contract).
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        // SAFETY: a fresh block of the new layout; both blocks are live and do not overlap.
        unsafe {
            let p = self.alloc(new_layout);
            if !p.is_null() {
                std::ptr::copy_nonoverlapping(ptr, p, layout.size().min(new_size));
                self.dealloc(ptr, layout);
            }
            p
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn big_blocks_are_reused_and_small_ones_pass_through() {
        let a = BigBlockCache;
        let big = Layout::from_size_align(3 << 20, 64).unwrap();
        // SAFETY: allocations and frees with matching layouts; the block is written within its size.
        unsafe {
            let p = a.alloc(big);
            assert!(!p.is_null());
            p.write_bytes(7, big.size());
            a.dealloc(p, big);
            let q = a.alloc(big);
            assert_eq!(p, q, "the freed block of the same layout is handed out again");
            let other = Layout::from_size_align(3 << 20, 128).unwrap();
            let r = a.alloc(other);
            assert_ne!(r, q, "another alignment gets another block");
            let grown = a.realloc(q, big, 5 << 20);
            assert_eq!(*grown.add(big.size() - 1), 7, "realloc keeps the contents");
            a.dealloc(grown, Layout::from_size_align(5 << 20, 64).unwrap());
            a.dealloc(r, other);
            let small = Layout::from_size_align(64, 8).unwrap();
            let s = a.alloc(small);
            a.dealloc(s, small);
            // A kept block handed out zeroed is zeroed.
            let z = a.alloc(big);
            z.write_bytes(9, big.size());
            a.dealloc(z, big);
            let z = a.alloc_zeroed(big);
            assert!(std::slice::from_raw_parts(z, big.size()).iter().all(|&b| b == 0));
            a.dealloc(z, big);
        }
    }
}
