//! A global allocator that keeps freed big blocks (1 MiB and more) for reuse by the next allocation of
//! the same size and alignment, as XLA's own allocator keeps its buffers: a program's runs allocate the
//! same tensor sizes run after run, and a block fresh from the C library faults its pages in (zeroed by
//! the kernel) on first write: a third of a softmax run through the JAX plugin. glibc's own tuning
//! ([`crate::alloc`]) cannot cover the plugin: inside a JAX process other threads have made their own
//! malloc arenas before oxhlo runs, and a thread's arena gives big free blocks back to the OS.
//!
//! At most [`SLOTS`] blocks and [`CAP`] bytes (512 MiB) are kept: a block freed when the cache is full
//! pushes the longest-kept ones back to the C library. A block kept longer than the program's own reuse
//! distance (twice the longest wait between keeping a block and handing it out again, at least
//! [`MIN_AGE_NS`]) goes back too: sizes a process stopped using (an earlier program's) do not stay
//! while nothing needs them. A request that finds no kept block of its size first gives back the
//! longest-kept blocks bigger than itself (`BigBlockCache::make_room`; `OXHLO_BIG_BLOCKS_ROOM=0` turns
//! that off): the anchor suite's op benchmarks' peak RSS 580-711 -> 511-580 MiB, XLA:CPU's 491-622.
//! Measured through JAX on the 2-core dev machine, the anchor suite's op benchmarks: the same
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
/// A kept block is always kept this long (1 s) before it may go back for age.
const MIN_AGE_NS: u64 = 1_000_000_000;

struct Cache {
    /// (address, size, alignment, when kept in [`now_ns`]); address 0 marks a free slot.
    blocks: [(usize, usize, usize, u64); SLOTS],
    bytes: usize,
    /// The longest a block handed out again had been kept (ns).
    longest_reuse: u64,
}

static CACHE: Mutex<Cache> = Mutex::new(Cache { blocks: [(0, 0, 0, 0); SLOTS], bytes: 0, longest_reuse: 0 });

/// Nanoseconds since the cache was first used (monotonic; no allocation).
fn now_ns() -> u64 {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START.get_or_init(std::time::Instant::now).elapsed().as_nanos() as u64
}

impl Cache {
    /// Gives back the blocks kept longer than twice the longest reuse seen (and [`MIN_AGE_NS`]).
    fn drop_stale(&mut self, now: u64) {
        let limit = MIN_AGE_NS.max(self.longest_reuse.saturating_mul(2));
        for slot in 0..SLOTS {
            let (p, _, _, when) = self.blocks[slot];
            if p != 0 && now.saturating_sub(when) > limit {
                self.release(slot);
            }
        }
    }

    /// The longest-kept block whose size `pick` accepts.
    fn oldest(&self, pick: impl Fn(usize) -> bool) -> Option<usize> {
        self.blocks.iter().enumerate().filter(|(_, b)| b.0 != 0 && pick(b.1)).min_by_key(|(_, b)| b.3).map(|(i, _)| i)
    }

    /// Gives kept block `slot` back to the C library; returns its size.
    fn release(&mut self, slot: usize) -> usize {
        let (p, s, a, _) = self.blocks[slot];
        self.blocks[slot] = (0, 0, 0, 0);
        self.bytes -= s;
        // SAFETY: a kept block came from `System` with exactly this size and alignment.
        unsafe { System.dealloc(p as *mut u8, Layout::from_size_align_unchecked(s, a)) };
        s
    }
}

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
        let (p, s, _, when) = c.blocks[slot];
        c.blocks[slot] = (0, 0, 0, 0);
        c.bytes -= s;
        c.longest_reuse = c.longest_reuse.max(now_ns().saturating_sub(when));
        Some(p as *mut u8)
    }

    /// Keeps a freed block, first giving back stale blocks ([`Cache::drop_stale`]) and the longest-kept
    /// ones while it would not fit; false when it is bigger than the whole cache.
    fn keep(ptr: *mut u8, layout: Layout) -> bool {
        if layout.size() > CAP {
            return false;
        }
        let mut c = cache();
        let now = now_ns();
        c.drop_stale(now);
        loop {
            let free = c.blocks.iter().position(|&(p, _, _, _)| p == 0);
            if free.is_some() && c.bytes + layout.size() <= CAP {
                break;
            }
            let Some(old) = c.oldest(|_| true) else { return false };
            c.release(old);
        }
        let Some(slot) = c.blocks.iter().position(|&(p, _, _, _)| p == 0) else { return false };
        c.blocks[slot] = (ptr as usize, layout.size(), layout.align(), now);
        c.bytes += layout.size();
        true
    }
}

/// Whether a miss first gives back kept blocks bigger than the request (`OXHLO_BIG_BLOCKS_ROOM=0`: no;
/// read once, outside the cache's lock).
fn make_room_on_miss() -> bool {
    static ON: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(2);
    let on = ON.load(std::sync::atomic::Ordering::Relaxed);
    if on != 2 {
        return on == 1;
    }
    let v = std::env::var_os("OXHLO_BIG_BLOCKS_ROOM").is_none_or(|v| v != "0");
    ON.store(v as u8, std::sync::atomic::Ordering::Relaxed);
    v
}

impl BigBlockCache {
    /// Before a big block is allocated fresh (no kept block fits): gives back stale blocks, then the
    /// longest-kept blocks bigger than `size` until `size` bytes went back. A kept block bigger than a
    /// request cannot serve it but its memory can, and a new program's first runs would otherwise
    /// allocate beside blocks only the program before used: `jax.random.normal` of a [4096, 4096] input
    /// left two 128 MiB blocks kept while each softmax run over it allocated its 64 MiB anew (peak RSS
    /// of that benchmark 705 MiB, XLA:CPU 490 MiB).
    fn make_room(size: usize) {
        let mut c = cache();
        c.drop_stale(now_ns());
        let mut given = 0;
        while given < size {
            let Some(i) = c.oldest(|s| s > size) else { break };
            given += c.release(i);
        }
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
            if make_room_on_miss() {
                Self::make_room(layout.size());
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
            if make_room_on_miss() {
                Self::make_room(layout.size());
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

    /// The tests share the one cache (a miss in one gives back blocks another keeps): one at a time.
    static SERIAL: Mutex<()> = Mutex::new(());

    fn serial() -> std::sync::MutexGuard<'static, ()> {
        SERIAL.lock().unwrap_or_else(|e| e.into_inner())
    }

    #[test]
    fn a_miss_gives_back_kept_blocks_bigger_than_it() {
        let _one = serial();
        let a = BigBlockCache;
        // Sizes no other test uses.
        let big = Layout::from_size_align((9 << 20) + 4096, 64).unwrap();
        let small = Layout::from_size_align((5 << 20) + 4096, 64).unwrap();
        let kept = |l: Layout| cache().blocks.iter().any(|b| b.0 != 0 && b.1 == l.size());
        // SAFETY: allocations and frees with matching layouts.
        unsafe {
            let p = a.alloc(big);
            a.dealloc(p, big);
            assert!(kept(big), "a freed big block is kept");
            let q = a.alloc(small);
            assert!(!kept(big), "a smaller request that found no kept block of its size took the bigger one's place");
            a.dealloc(q, small);
            assert!(kept(small));
            // A bigger request leaves smaller kept blocks alone.
            let r = a.alloc(big);
            assert!(kept(small));
            a.dealloc(r, big);
            let q = a.alloc(small);
            a.dealloc(q, small);
        }
    }

    #[test]
    fn big_blocks_are_reused_and_small_ones_pass_through() {
        let _one = serial();
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

    #[test]
    fn blocks_kept_past_the_reuse_distance_go_back() {
        let _one = serial();
        let a = BigBlockCache;
        // Sizes no other test uses.
        let old = Layout::from_size_align((7 << 20) + 4096, 64).unwrap();
        let new = Layout::from_size_align((7 << 20) + 8192, 64).unwrap();
        let kept = |l: Layout| cache().blocks.iter().any(|b| b.0 != 0 && b.1 == l.size());
        // SAFETY: allocations and frees with matching layouts.
        unsafe {
            let p = a.alloc(old);
            a.dealloc(p, old);
            assert!(kept(old), "a freed big block is kept");
            std::thread::sleep(std::time::Duration::from_millis(1200));
            let q = a.alloc(new);
            a.dealloc(q, new);
            assert!(!kept(old), "kept past the reuse distance (1 s here): given back when another block is kept");
            assert!(kept(new));
            let q = a.alloc(new);
            a.dealloc(q, new);
        }
    }
}
