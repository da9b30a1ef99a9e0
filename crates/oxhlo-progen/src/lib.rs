//! Random StableHLO program generator (placeholder while the generator is written).
