//! Keeping large buffers in the process heap. glibc serves every allocation above its mmap threshold (at
//! most 32 MiB) with a fresh `mmap`, so each run of a program over big tensors pays a page fault per 4 KiB
//! of every output (measured: ~110 ms of faults against ~20 ms of copying for one fresh 64 MB output).
//! Telling glibc once to keep big blocks in its heap, not to trim freed memory back to the OS, and to
//! serve every thread from the main heap (worker threads' arenas are trimmed on every large free) lets
//! the next run reuse the same pages, as XLA's own allocator does. `OXHLO_MALLOC_TUNE=0` leaves malloc as
//! it is. Other C libraries and platforms: nothing to do. [`advise_huge_pages`] asks for transparent huge
//! pages on a big fresh output before it is first written.

/// Applies the tuning once per process (no-op after the first call, and off glibc).
pub fn tune_once() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        if std::env::var("OXHLO_MALLOC_TUNE").is_ok_and(|v| v == "0") {
            return;
        }
        glibc::tune();
    });
}

/// Asks Linux to back the 2 MiB-aligned middle of a large, not yet touched allocation (`bytes` from `addr`)
/// with transparent huge pages. A fresh 64 MiB output otherwise takes 16K page faults when first written,
/// which costs more than the whole computation (measured: 110 ms of faults vs 20 ms for the copy itself).
/// Elsewhere, and for small ranges, nothing happens.
pub fn advise_huge_pages(addr: usize, bytes: usize) {
    const HUGE: usize = 2 << 20;
    if bytes < 2 * HUGE {
        return;
    }
    let (start, end) = ((addr + HUGE - 1) & !(HUGE - 1), (addr + bytes) & !(HUGE - 1));
    if end <= start {
        return;
    }
    #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
    {
        extern "C" {
            fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
        }
        const MADV_HUGEPAGE: i32 = 14;
        // SAFETY: madvise(MADV_HUGEPAGE) only changes how the kernel backs pages of the range on later
        // faults; it never changes their contents or validity. Callers pass a range inside one live
        // allocation they own (rounded inward to whole huge pages here). A failure (THP off) is harmless.
        unsafe {
            madvise(start as *mut std::ffi::c_void, end - start, MADV_HUGEPAGE);
        }
    }
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
mod glibc {
    use std::os::raw::c_int;
    extern "C" {
        fn mallopt(param: c_int, value: c_int) -> c_int;
    }
    const M_TRIM_THRESHOLD: c_int = -1;
    const M_MMAP_MAX: c_int = -4;
    const M_ARENA_MAX: c_int = -8;

    pub fn tune() {
        // SAFETY: mallopt only changes glibc's allocation policy; it is thread-safe and takes plain ints.
        unsafe {
            mallopt(M_MMAP_MAX, 0);
            mallopt(M_TRIM_THRESHOLD, 1 << 30);
            // One arena: a worker thread's own arena lives in 64 MiB heaps that glibc trims (returns to
            // the OS) on every large free whatever the threshold, so each run faulted its tensors' pages
            // in again (the attention benchmark: ~2400 faults and a third of its time per run).
            mallopt(M_ARENA_MAX, 1);
        }
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
mod glibc {
    pub fn tune() {}
}
