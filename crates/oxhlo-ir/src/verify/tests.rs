//! Unit tests of the verifier on modules built by hand with a tiny builder.
