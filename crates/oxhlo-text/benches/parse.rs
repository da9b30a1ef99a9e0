//! Placeholder; replaced by the criterion bench.
fn main() {}
