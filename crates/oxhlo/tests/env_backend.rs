//! `Client::new()` reads OXHLO_BACKEND. One test, because the environment is shared by the whole process.

use oxhlo::{Backend, Client, ErrorKind, BACKEND_ENV};

#[test]
fn client_new_reads_the_environment() {
    // Unset or empty: the GPU where one is usable, else the CPU.
    let preferred = if Backend::Cuda.is_available() { Backend::Cuda } else { Backend::Cpu };
    assert_eq!(Backend::preferred(), preferred);
    std::env::remove_var(BACKEND_ENV);
    assert_eq!(Client::new().unwrap().backend(), preferred);
    std::env::set_var(BACKEND_ENV, "interpreter");
    assert_eq!(Client::new().unwrap().backend(), Backend::Interpreter);
    std::env::set_var(BACKEND_ENV, " CPU ");
    assert_eq!(Client::new().unwrap().backend(), Backend::Cpu);
    std::env::set_var(BACKEND_ENV, "");
    assert_eq!(Client::new().unwrap().backend(), preferred);
    std::env::set_var(BACKEND_ENV, "cuda");
    if Backend::Cuda.is_available() {
        assert_eq!(Client::new().unwrap().backend(), Backend::Cuda);
    } else {
        let err = Client::new().unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Unsupported);
        assert!(err.message().contains("no usable CUDA device"), "{err}");
    }
    std::env::set_var(BACKEND_ENV, "tpu");
    let err = Client::new().unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidArgument);
    assert_eq!(err.message(), "OXHLO_BACKEND: `tpu` is not a backend; expected one of interpreter, cpu, cuda");
    // The builder ignores the environment.
    assert_eq!(Client::builder().backend(Backend::Interpreter).build().unwrap().backend(), Backend::Interpreter);
    std::env::remove_var(BACKEND_ENV);
}
