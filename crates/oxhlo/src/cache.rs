//! The in-memory compile cache of a [`Client`](crate::Client): executables keyed by the program's bytes and
//! every option that changes the result, evicting the least recently used entry past its capacity.

use crate::backend::{Backend, OptLevel};
use crate::executable::Executable;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

/// What makes two compilations give the same executable.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct CacheKey {
    hash: u64,
    program: Vec<u8>,
    backend: Backend,
    opt_level: OptLevel,
    source_name: String,
}

impl CacheKey {
    pub(crate) fn new(program: &[u8], backend: Backend, opt_level: OptLevel, source_name: &str) -> CacheKey {
        let mut h = DefaultHasher::new();
        program.hash(&mut h);
        backend.hash(&mut h);
        opt_level.hash(&mut h);
        source_name.hash(&mut h);
        CacheKey { hash: h.finish(), program: program.to_vec(), backend, opt_level, source_name: source_name.to_string() }
    }
}

/// Counters of a client's compile cache.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// Compilations answered from the cache.
    pub hits: u64,
    /// Compilations that looked in the cache and compiled.
    pub misses: u64,
    /// Executables held now.
    pub entries: usize,
    /// The most executables it holds.
    pub capacity: usize,
}

pub(crate) struct Cache {
    entries: Vec<(CacheKey, Executable, u64)>,
    capacity: usize,
    clock: u64,
    hits: u64,
    misses: u64,
}

impl Cache {
    pub(crate) fn new(capacity: usize) -> Cache {
        Cache { entries: Vec::new(), capacity, clock: 0, hits: 0, misses: 0 }
    }

    /// The cached executable for `key`, counting a hit or a miss.
    pub(crate) fn get(&mut self, key: &CacheKey) -> Option<Executable> {
        self.clock += 1;
        let clock = self.clock;
        match self.entries.iter_mut().find(|(k, _, _)| k.hash == key.hash && k == key) {
            Some((_, exe, used)) => {
                *used = clock;
                self.hits += 1;
                Some(exe.clone())
            }
            None => {
                self.misses += 1;
                None
            }
        }
    }

    /// Stores an executable, evicting the least recently used one when full.
    pub(crate) fn insert(&mut self, key: CacheKey, exe: Executable) {
        if self.capacity == 0 || self.entries.iter().any(|(k, _, _)| k == &key) {
            return;
        }
        if self.entries.len() >= self.capacity {
            if let Some(oldest) = self.entries.iter().enumerate().min_by_key(|(_, e)| e.2).map(|(i, _)| i) {
                self.entries.swap_remove(oldest);
            }
        }
        self.clock += 1;
        self.entries.push((key, exe, self.clock));
    }

    pub(crate) fn clear(&mut self) {
        self.entries.clear();
    }

    pub(crate) fn stats(&self) -> CacheStats {
        CacheStats { hits: self.hits, misses: self.misses, entries: self.entries.len(), capacity: self.capacity }
    }
}
