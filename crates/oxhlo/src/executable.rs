//! [`Executable`]: a compiled program ready to run, its signature ([`TensorSpec`]s of the entry function's
//! arguments and results), and the input checks every execution goes through.

use crate::backend::{Backend, OptLevel};
use crate::buffer::Buffer;
use crate::dtype::{ir_name, DType};
use crate::engine::{Profile, Program};
use crate::error::{Error, Result};
use crate::timing::ExecutionTiming;
use oxhlo_ir::{Func, Type, DYN};
use std::fmt;
use std::sync::Arc;
use std::time::Instant;

/// The element type and shape an argument or result of a program has; `None` dimensions are dynamic (`?`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TensorSpec {
    /// The element type.
    pub dtype: DType,
    /// The dimensions, `None` for a dynamic one.
    pub shape: Vec<Option<usize>>,
}

impl TensorSpec {
    /// True when a buffer has this element type and a shape that fits (equal rank, equal static dimensions).
    pub fn accepts(&self, b: &Buffer) -> bool {
        b.element_type() == self.dtype
            && b.rank() == self.shape.len()
            && self.shape.iter().zip(b.shape()).all(|(s, &d)| s.is_none_or(|s| s == d))
    }

    /// The spec of a value type of the entry function, or why the API cannot carry it.
    fn from_ir(ty: &Type, what: &str) -> Result<TensorSpec> {
        let unsupported = |why: String| Error::unsupported(format!("{what} has type {why}, which the API cannot pass"));
        let t = match ty {
            Type::Tensor(t) => t,
            Type::Token => return Err(unsupported("!stablehlo.token".into())),
            Type::Tuple(_) => return Err(unsupported("tuple<...>".into())),
            Type::UnrankedTensor(e) => return Err(unsupported(format!("tensor<*x{}>", ir_name(e)))),
            other => return Err(unsupported(format!("{other:?}"))),
        };
        let dtype = DType::from_ir(&t.elem).map_err(|e| Error::unsupported(format!("{what}: {}", e.message())))?;
        let shape = t.shape.iter().map(|&d| if d == DYN || d < 0 { None } else { Some(d as usize) }).collect();
        Ok(TensorSpec { dtype, shape })
    }
}

/// Prints the MLIR type, `tensor<2x?xf32>`.
impl fmt::Display for TensorSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("tensor<")?;
        for d in &self.shape {
            match d {
                Some(n) => write!(f, "{n}x")?,
                None => f.write_str("?x")?,
            }
        }
        write!(f, "{}>", self.dtype)
    }
}

/// Prints a buffer's type the way a [`TensorSpec`] prints.
fn buffer_type(b: &Buffer) -> String {
    let dims: String = b.shape().iter().map(|d| format!("{d}x")).collect();
    format!("tensor<{dims}{}>", b.element_type())
}

/// The entry function's name, argument and result specs.
pub(crate) struct Signature {
    entry: String,
    inputs: Vec<TensorSpec>,
    outputs: Vec<TensorSpec>,
}

impl Signature {
    /// The signature of an entry function, or an [`Unsupported`](crate::ErrorKind::Unsupported) error naming
    /// the first argument or result the API cannot carry (tokens, tuples, quantized types).
    pub(crate) fn of(entry: &Func) -> Result<Signature> {
        let specs = |types: &[Type], what: &str| -> Result<Vec<TensorSpec>> {
            types
                .iter()
                .enumerate()
                .map(|(i, t)| TensorSpec::from_ir(t, &format!("{what} {i} of @{}", entry.name)))
                .collect()
        };
        Ok(Signature {
            entry: entry.name.clone(),
            inputs: specs(&entry.ty.inputs, "argument")?,
            outputs: specs(&entry.ty.results, "result")?,
        })
    }
}

/// A compiled program. Cheap to clone (shared), `Send + Sync`: any number of threads may call
/// [`execute`](Executable::execute) on one executable at the same time.
///
/// ```
/// use oxhlo::{Buffer, Client};
/// let client = Client::new().unwrap();
/// let exe = client.compile(r#"
///   func.func @main(%x: tensor<3xi32>) -> tensor<3xi32> {
///     %0 = stablehlo.multiply %x, %x : tensor<3xi32>
///     return %0 : tensor<3xi32>
///   }"#).unwrap();
/// assert_eq!(exe.inputs()[0].to_string(), "tensor<3xi32>");
/// let out = exe.execute(&[&Buffer::from_slice(&[1, -2, 3], &[3]).unwrap()]).unwrap();
/// assert_eq!(out[0].to_vec::<i32>().unwrap(), vec![1, 4, 9]);
/// ```
#[derive(Clone)]
pub struct Executable {
    inner: Arc<Inner>,
}

struct Inner {
    program: Box<dyn Program>,
    entry: String,
    inputs: Vec<TensorSpec>,
    outputs: Vec<TensorSpec>,
    backend: Backend,
    opt_level: OptLevel,
}

impl Executable {
    /// Wraps a backend's compiled program with its entry function's signature.
    pub(crate) fn new(program: Box<dyn Program>, sig: Signature, backend: Backend, opt_level: OptLevel) -> Executable {
        let Signature { entry, inputs, outputs } = sig;
        let inner = Inner { program, entry, inputs, outputs, backend, opt_level };
        Executable { inner: Arc::new(inner) }
    }

    /// The arguments the entry function takes, in order.
    pub fn inputs(&self) -> &[TensorSpec] {
        &self.inner.inputs
    }

    /// The results the entry function returns, in order (dynamic dimensions are known once it ran).
    pub fn outputs(&self) -> &[TensorSpec] {
        &self.inner.outputs
    }

    /// The name of the entry function (`main`).
    pub fn entry_name(&self) -> &str {
        &self.inner.entry
    }

    /// The backend that executes this program (after [`Backend::resolve`]).
    pub fn backend(&self) -> Backend {
        self.inner.backend
    }

    /// The optimization level it was compiled at.
    pub fn opt_level(&self) -> OptLevel {
        self.inner.opt_level
    }

    /// Runs the program on `inputs` (one buffer per argument of the entry function) and returns one buffer
    /// per result.
    ///
    /// Fails with [`InvalidArgument`](crate::ErrorKind::InvalidArgument) when the inputs do not match
    /// [`inputs`](Executable::inputs) (count, element type, shape), and with [`Runtime`](crate::ErrorKind::Runtime)
    /// when execution fails (the error's diagnostics name the op and its location).
    pub fn execute(&self, inputs: &[&Buffer]) -> Result<Vec<Buffer>> {
        self.check_inputs(inputs)?;
        self.inner.program.execute(inputs, None)
    }

    /// As [`execute`](Executable::execute), also returning how long the whole execution and each kernel took.
    ///
    /// On the interpreter a kernel is an op; until the interpreter reports per-op times, the entry function
    /// is reported as one kernel (`@main`).
    ///
    /// ```
    /// use oxhlo::{Buffer, Client};
    /// let client = Client::new().unwrap();
    /// let exe = client.compile(r#"
    ///   func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
    ///     %0 = stablehlo.add %x, %x : tensor<2xf32>
    ///     %1 = stablehlo.multiply %0, %x : tensor<2xf32>
    ///     return %1 : tensor<2xf32>
    ///   }"#).unwrap();
    /// let x = Buffer::from_slice(&[1.0f32, 2.0], &[2]).unwrap();
    /// let (out, timing) = exe.execute_with_timing(&[&x]).unwrap();
    /// assert_eq!(out[0].to_vec::<f32>().unwrap(), vec![2.0, 8.0]);
    /// assert!(!timing.kernels.is_empty() && timing.kernel_time() <= timing.total);
    /// println!("{timing}");
    /// ```
    pub fn execute_with_timing(&self, inputs: &[&Buffer]) -> Result<(Vec<Buffer>, ExecutionTiming)> {
        let start = Instant::now();
        self.check_inputs(inputs)?;
        let mut profile = Profile::default();
        let outputs = self.inner.program.execute(inputs, Some(&mut profile))?;
        let total = start.elapsed();
        Ok((outputs, ExecutionTiming { total, kernels: profile.into_kernels() }))
    }

    /// Checks the inputs against the signature, with an error that says which input and what differs.
    fn check_inputs(&self, inputs: &[&Buffer]) -> Result<()> {
        let specs = &self.inner.inputs;
        let entry = &self.inner.entry;
        if inputs.len() != specs.len() {
            let list: Vec<String> = specs.iter().map(|s| s.to_string()).collect();
            return Err(Error::invalid(format!(
                "@{entry} takes {} input(s) ({}) but {} were given",
                specs.len(),
                list.join(", "),
                inputs.len()
            )));
        }
        for (i, (b, spec)) in inputs.iter().zip(specs).enumerate() {
            if spec.accepts(b) {
                continue;
            }
            let what = if b.element_type() != spec.dtype {
                format!("element type {} where {} is expected", b.element_type(), spec.dtype)
            } else if b.rank() != spec.shape.len() {
                format!("rank {} where rank {} is expected", b.rank(), spec.shape.len())
            } else {
                format!("shape {:?} where {spec} is expected", b.shape())
            };
            return Err(Error::invalid(format!(
                "input {i} of @{entry}: a {} buffer has {what}",
                buffer_type(b)
            )));
        }
        Ok(())
    }
}

impl fmt::Debug for Executable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Executable")
            .field("entry", &self.inner.entry)
            .field("inputs", &self.inner.inputs)
            .field("outputs", &self.inner.outputs)
            .field("backend", &self.inner.backend)
            .field("opt_level", &self.inner.opt_level)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_display_and_accepts() {
        let s = TensorSpec { dtype: DType::F32, shape: vec![Some(2), None] };
        assert_eq!(s.to_string(), "tensor<2x?xf32>");
        assert!(s.accepts(&Buffer::zeros(DType::F32, &[2, 7]).unwrap()));
        assert!(!s.accepts(&Buffer::zeros(DType::F32, &[3, 7]).unwrap()));
        assert!(!s.accepts(&Buffer::zeros(DType::F64, &[2, 7]).unwrap()));
        assert!(!s.accepts(&Buffer::zeros(DType::F32, &[2]).unwrap()));
        let scalar = TensorSpec { dtype: DType::Bool, shape: vec![] };
        assert_eq!(scalar.to_string(), "tensor<i1>");
    }

    #[test]
    fn executable_is_send_sync() {
        fn check<T: Send + Sync + Clone + 'static>() {}
        check::<Executable>();
    }
}
