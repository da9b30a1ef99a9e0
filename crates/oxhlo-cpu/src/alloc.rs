//! Keeping large buffers in the process heap. glibc serves every allocation above its mmap threshold (at
//! most 32 MiB) with a fresh `mmap`, so each run of a program over big tensors pays a page fault per 4 KiB
//! of every output (measured: ~110 ms of faults against ~20 ms of copying for one fresh 64 MB output).
//! Telling glibc once to keep big blocks in its heap, and not to trim freed memory back to the OS, lets
//! the next run reuse the same pages, as XLA's own allocator does. `OXHLO_MALLOC_TUNE=0` leaves malloc as
//! it is. Other C libraries and platforms: nothing to do.

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

#[cfg(all(target_os = "linux", target_env = "gnu"))]
mod glibc {
    use std::os::raw::c_int;
    extern "C" {
        fn mallopt(param: c_int, value: c_int) -> c_int;
    }
    const M_TRIM_THRESHOLD: c_int = -1;
    const M_MMAP_MAX: c_int = -4;

    pub fn tune() {
        // SAFETY: mallopt only changes glibc's allocation policy; it is thread-safe and takes plain ints.
        unsafe {
            mallopt(M_MMAP_MAX, 0);
            mallopt(M_TRIM_THRESHOLD, 1 << 30);
        }
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
mod glibc {
    pub fn tune() {}
}
