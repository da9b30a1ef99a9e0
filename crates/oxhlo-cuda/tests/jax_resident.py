"""Device-resident arrays through the oxhlo PJRT plugin with OXHLO_BACKEND=cuda (run by scripts/gpu_run.sh).

Calls jitted functions repeatedly on arrays that stay on the GPU between calls (results fed back as
inputs, parameters reused, donated inputs, results read on the host in the middle of a loop, integer and
boolean results) and checks every result against the same computation by JAX on the CPU. Then times a
16M-element elementwise chain on resident inputs. Needs JAX_PLATFORMS=oxhlo,cpu (oxhlo first). Exits 1 on
any mismatch; prints SKIP and exits 0 when the oxhlo platform is not the default device.
"""
import sys, time
import numpy as np
import jax, jax.numpy as jnp

failures = []


def check(name, got, want, rtol):
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape or got.dtype != want.dtype:
        failures.append(f"{name}: {got.shape} {got.dtype} vs {want.shape} {want.dtype}")
        print(f"FAIL {name}: shape/dtype {got.shape} {got.dtype} vs {want.shape} {want.dtype}", flush=True)
        return
    if got.dtype.kind in "biu":
        ok = np.array_equal(got, want)
        err = float(np.sum(got != want))
    else:
        g, w = got.astype(np.float64), want.astype(np.float64)
        err = float(np.max(np.abs(g - w)) / max(np.max(np.abs(w)), 1e-30)) if w.size else 0.0
        ok = bool(np.all(np.isfinite(g) == np.isfinite(w))) and err <= rtol
    print(f"{'PASS' if ok else 'FAIL'} {name}: err {err:.3g} (tol {rtol:g})", flush=True)
    if not ok:
        failures.append(name)


def main():
    dev = jax.devices()[0]
    if dev.platform == "cpu":
        print("SKIP: the default JAX device is the CPU, not the oxhlo plugin")
        return 0
    cpu = jax.devices("cpu")[0]
    print(f"# jax {jax.__version__}: testing on {dev} against {cpu}", flush=True)
    rng = np.random.default_rng(7)

    # 1. A loop whose state never leaves the device; w is one buffer used by every call.
    step = lambda x, w: jnp.tanh(jnp.dot(x, w, precision="highest")) * 0.5 + x * 0.9
    f_dev = f_cpu = jax.jit(step)  # runs where its (committed) arguments are
    x0 = rng.standard_normal((256, 128), dtype=np.float32)
    w0 = (rng.standard_normal((128, 128), dtype=np.float32) * 0.1).astype(np.float32)
    x, w = jax.device_put(x0, dev), jax.device_put(w0, dev)
    xc, wc = jax.device_put(x0, cpu), jax.device_put(w0, cpu)
    for i in range(30):
        x, xc = f_dev(x, w), f_cpu(xc, wc)
        if i % 10 == 9:
            check(f"loop step {i + 1}", x, xc, 1e-4)

    # 2. Results read on the host mid-loop, then used again (host and device copies both live).
    y = jax.device_put(x0, dev)
    yc = jax.device_put(x0, cpu)
    for i in range(4):
        y, yc = f_dev(y, w), f_cpu(yc, wc)
        check(f"host read {i}", np.asarray(y), np.asarray(yc), 1e-4)

    # 3. Donated inputs (the donated buffer is deleted; its result lives on).
    g = lambda a, b: a * b + jnp.sin(a)
    g_dev = jax.jit(g, donate_argnums=0)
    a0 = rng.standard_normal((1000,), dtype=np.float32)
    b0 = rng.standard_normal((1000,), dtype=np.float32)
    a, b = jax.device_put(a0, dev), jax.device_put(b0, dev)
    ac = jax.device_put(a0, cpu)
    for i in range(5):
        a = g_dev(a, b)
        ac = jax.jit(g)(ac, jax.device_put(b0, cpu))
    check("donation loop", a, ac, 1e-5)

    # 4. Integer, boolean and scalar results of device arrays.
    h = lambda v: (v > 0, jnp.sum((v * 100).astype(jnp.int32)), jnp.argmax(v), jnp.max(v))
    outs_d = jax.jit(h)(x)
    outs_c = jax.jit(h)(jax.device_put(np.asarray(x), cpu))
    for k, (o, r) in enumerate(zip(outs_d, outs_c)):
        check(f"mixed result {k}", o, r, 0)

    # 5. Plain NumPy arguments (uncommitted: they go to the default device, oxhlo, as new buffers).
    for i in range(3):
        v = rng.standard_normal((64, 128), dtype=np.float32)
        check(f"numpy argument {i}", f_dev(v, w0), f_cpu(jax.device_put(v, cpu), wc), 1e-4)

    # 6. Timing: a 16M elementwise chain on resident inputs (the anchor benchmark's function).
    n = 16 << 20
    chain = jax.jit(lambda x, y, z: jnp.tanh(x * y + z) * jax.nn.sigmoid(z) - jnp.exp(-x * x))
    ins = [jax.device_put(rng.standard_normal((n,), dtype=np.float32), dev) for _ in range(3)]
    out = chain(*ins)
    out.block_until_ready()
    ts = []
    for _ in range(20):
        t = time.perf_counter()
        out = chain(*ins)
        out.block_until_ready()
        ts.append(time.perf_counter() - t)
    cins = [jax.device_put(np.asarray(v), cpu) for v in ins]
    check("chain 16M", out, chain(*cins), 1e-5)
    print(f"TIME chain_16M resident: median {np.median(ts) * 1e3:.3f} ms, min {np.min(ts) * 1e3:.3f} ms", flush=True)
    fresh = chain(*ins)  # `out` was read by the check above; a new result has no host copy yet
    fresh.block_until_ready()
    t = time.perf_counter()
    np.asarray(fresh)
    print(f"TIME first host read of a 64 MiB result: {(time.perf_counter() - t) * 1e3:.1f} ms", flush=True)

    print(f"{'ALL PASSED' if not failures else 'FAILED: ' + ', '.join(failures)}", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
