//! Direct tests of the data-movement and heavy op families (shape, gather/scatter, dot, conv, reduce,
//! sort, fft, linalg, rng, tuple), calling each `eval_*` with a hand-built op and a mock region
//! evaluator. Expected values come from the StableHLO spec's examples, from JAX (quoted where used), or
//! from independent formulas (naive DFT, matrix products); end-to-end `.mlir` suites live in
//! tests/conformance.

mod harness;
mod movement;
mod collective;
mod numeric;
mod robust;
