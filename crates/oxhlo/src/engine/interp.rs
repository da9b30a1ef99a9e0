//! The reference-interpreter backend: runs the verified module op by op with `oxhlo-interp`, timing each op
//! when profiling.

use super::{Profile, Program};
use crate::buffer::Buffer;
use crate::error::{Error, Result};
use oxhlo_ir::Module;

/// A module ready for the interpreter (the interpreter needs no compilation).
pub(crate) struct InterpProgram {
    module: Module,
}

impl InterpProgram {
    pub(crate) fn new(module: Module) -> Result<InterpProgram> {
        Ok(InterpProgram { module })
    }
}

impl Program for InterpProgram {
    fn execute(&self, inputs: &[&Buffer], profile: Option<&mut Profile>) -> Result<Vec<Buffer>> {
        let _ = (&self.module, inputs, profile);
        Err(Error::unsupported("the interpreter is not wired in yet"))
    }
}
