"""Linear algebra and FFT on oxhlo as JAX lowers them for a plugin platform (custom calls Qr,
ProductOfElementaryHouseholderReflectors and Eigh run natively in oxhlo), compared with CPU."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from conftest import assert_same, run_on

pytestmark = pytest.mark.usefixtures("compiles")

rng = np.random.default_rng(2)
TOL = dict(rtol=2e-4, atol=2e-4)


def mat(*shape, dtype=np.float32):
    return rng.standard_normal(shape).astype(dtype)


def spd(n, batch=()):
    a = mat(*batch, n, n)
    return (a @ np.swapaxes(a, -1, -2) + n * np.eye(n, dtype=np.float32)).astype(np.float32)


def test_cholesky_and_triangular_solve():
    a = spd(5)
    assert_same(jnp.linalg.cholesky, a, **TOL)
    assert_same(lambda l, b: jax.scipy.linalg.solve_triangular(l, b, lower=True), np.tril(a), mat(5, 3), **TOL)


def test_qr_matches_lapack():
    for shape in [(5, 3), (3, 5), (2, 4, 4)]:
        assert_same(jnp.linalg.qr, mat(*shape), **TOL)


def test_qr_complex():
    a = (mat(4, 3) + 1j * mat(4, 3)).astype(np.complex64)
    q, r = run_on(jax.devices("oxhlo")[0], jnp.linalg.qr, a)
    np.testing.assert_allclose(q @ r, a, **TOL)
    np.testing.assert_allclose(q.conj().T @ q, np.eye(3), **TOL)


def test_eigh():
    a = spd(6, batch=(2,))
    w, v = run_on(jax.devices("oxhlo")[0], jnp.linalg.eigh, a)
    w_ref, _ = run_on(jax.devices("cpu")[0], jnp.linalg.eigh, a)
    np.testing.assert_allclose(w, w_ref, rtol=1e-4, atol=1e-3)
    np.testing.assert_allclose(a @ v, v * w[..., None, :], rtol=1e-3, atol=1e-3)


def test_svd():
    a = mat(5, 4)
    u, s, vh = run_on(jax.devices("oxhlo")[0], lambda x: jnp.linalg.svd(x, full_matrices=False), a)
    s_ref = np.linalg.svd(a, compute_uv=False)
    np.testing.assert_allclose(s, s_ref, rtol=1e-3, atol=1e-3)
    np.testing.assert_allclose((u * s) @ vh, a, rtol=1e-3, atol=1e-3)


def test_lu_inv_det_solve():
    a = mat(4, 4) + 4 * np.eye(4, dtype=np.float32)
    assert_same(lambda x: jax.scipy.linalg.lu(x), a, **TOL)
    assert_same(jnp.linalg.inv, a, **TOL)
    assert_same(jnp.linalg.det, a, **TOL)
    assert_same(jnp.linalg.solve, a, mat(4, 2), **TOL)
    assert_same(jnp.linalg.slogdet, a, **TOL)


def test_fft():
    x = mat(4, 8)
    c = (x + 1j * mat(4, 8)).astype(np.complex64)
    assert_same(lambda a: (jnp.fft.fft(a), jnp.fft.ifft(a), jnp.fft.fft2(a)), c, **TOL)
    assert_same(lambda a: (jnp.fft.rfft(a), jnp.fft.irfft(jnp.fft.rfft(a), n=8)), x, **TOL)
