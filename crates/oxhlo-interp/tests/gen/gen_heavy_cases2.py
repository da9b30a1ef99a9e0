"""More builders for gen_heavy.py: reductions, windows, sort/top_k, fft, linalg, rng, batch_norm and the
collectives under interpreter.run_parallel. Expected values: JAX on CPU, NumPy for hand-written cases."""

import numpy as np
from gen_heavy_cases import hand


def reduce_cases(c):
    jnp, lax, r = c.jnp, c.lax, c.rand
    out = []
    out.append(c.case(lambda x: jnp.sum(x, axis=1), r((3, 4), np.float32)))
    out.append(c.case(lambda x: jnp.sum(x, axis=(0, 2), dtype=np.int8), r((4, 3, 5), np.int8, 60, 120)))
    out.append(c.case(lambda x: jnp.sum(x), r((2, 1, 2, 1, 2, 3), np.float64)))
    out.append(c.case(lambda x: jnp.max(x, axis=0), np.array([[1.0, np.nan, -0.0], [2.0, 3.0, 0.0]], np.float32)))
    out.append(c.case(lambda x: jnp.min(x, axis=1), r((3, 4), np.uint16, 0, 100)))
    out.append(c.case(lambda x: jnp.prod(x, axis=0), r((3, 2), np.complex64, -1, 1)))
    out.append(c.case(lambda x: jnp.any(x, axis=1), r((3, 4), np.bool_)))
    out.append(c.case(lambda x: jnp.all(x, axis=0), r((3, 4), np.bool_)))
    out.append(c.case(lambda x: jnp.argmax(x, axis=1), np.array([[1, 5, 5, 2], [7, 0, 7, 7]], np.int32)))
    out.append(c.case(lambda x: jnp.argmin(x, axis=0), r((4, 3), np.float32)))
    out.append(c.case(lambda x: jnp.sum(x, axis=0), r((0, 3), np.float32)))
    out.append(c.case(lambda x: jnp.max(x, axis=1, initial=-7), r((2, 0), np.int32)))
    out.append(c.case(lambda x: jnp.sum(x, axis=1), r((2, 5), np.float16)))
    out.append(c.case(lambda x: jnp.sum(x, axis=0), r((7,), c.bf16)))
    return out


def window_cases(c):
    lax, r, jnp = c.lax, c.rand, c.jnp
    import jax

    out = []
    rw = lax.reduce_window
    out.append(c.case(lambda x: rw(x, 0.0, lax.add, (2, 2), (1, 1), "VALID"), r((3, 4), np.float32)))
    out.append(c.case(lambda x: rw(x, -np.inf, lax.max, (3, 3), (2, 2), "SAME"), r((5, 6), np.float32)))
    out.append(c.case(lambda x: rw(x, np.int32(0), lax.add, (2, 1), (4, 1), ((2, 1), (0, 0)), (2, 1), (3, 1)), np.array([[1, 2], [3, 4], [5, 6]], np.int32)))
    out.append(c.case(lambda x: rw(x, np.int64(1), lax.mul, (2,), (1,), ((1, 1),), (1,), (2,)), r((5,), np.int64, 1, 4)))
    out.append(c.case(lambda x: rw(x, np.float64(np.inf), lax.min, (1, 2, 2), (1, 1, 2), ((0, 0), (1, 0), (0, 1))), r((2, 3, 4), np.float64)))
    out.append(c.case(lambda x: rw(x, np.float16(0), lax.add, (2,), (1,), "VALID"), r((4,), np.float16)))

    # select_and_scatter: the gradient of max pooling (JAX lowers its transpose to select_and_scatter).
    def pool_grad(window, strides, padding):
        def f(x, g):
            _, vjp = jax.vjp(lambda y: rw(y, -np.inf, lax.max, window, strides, padding), x)
            return vjp(g)[0]

        return f

    x = np.array([[1, 5], [2, 5], [3, 6], [4, 4]], np.float32)
    out.append(c.case(pool_grad((3, 1), (2, 1), ((0, 1), (0, 0))), x, np.array([[5, 6], [7, 8]], np.float32)))
    x = r((4, 6), np.float32)
    out.append(c.case(pool_grad((2, 2), (2, 2), "VALID"), x, r((2, 3), np.float32)))
    x = r((5, 5), np.float64)
    out.append(c.case(pool_grad((3, 3), (1, 2), "SAME"), x, r((5, 3), np.float64)))
    _ = jnp
    return out


def batch_norm_cases(c):
    r = c.rand
    out = []
    x = r((2, 3, 2), np.float32)
    scale, offset = r((3,), np.float32), r((3,), np.float32)
    eps = float(np.float32(0.001))  # the f32 attribute value
    xd = x.astype(np.float64)
    mean = xd.mean(axis=(0, 2))
    var = xd.var(axis=(0, 2))
    y = scale[None, :, None] * (xd - mean[None, :, None]) / np.sqrt(var[None, :, None] + eps) + offset[None, :, None]
    body = """  %r0, %r1, %r2 = "stablehlo.batch_norm_training"(%in0, %in1, %in2) {epsilon = 1.0e-03 : f32, feature_index = 1 : i64} : (tensor<2x3x2xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3x2xf32>, tensor<3xf32>, tensor<3xf32>)
"""
    out.append(hand(body, [x, scale, offset], [y.astype(np.float32), mean.astype(np.float32), var.astype(np.float32)], [1e-4] * 3))
    m, v = r((3,), np.float32), r((3,), np.float32, 1, 3)
    y = scale[None, :, None] * (xd - m[None, :, None]) / np.sqrt(v[None, :, None] + eps) + offset[None, :, None]
    body = """  %r0 = "stablehlo.batch_norm_inference"(%in0, %in1, %in2, %in3, %in4) {epsilon = 1.0e-03 : f32, feature_index = 1 : i64} : (tensor<2x3x2xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x2xf32>
"""
    out.append(hand(body, [x, scale, offset, m, v], [y.astype(np.float32)], [1e-4]))
    # batch_norm_grad, feature_index 0 in f64, from the spec's formulas.
    x = r((3, 4), np.float64)
    scale, mean, var, gy = r((3,), np.float64), x.mean(axis=1), x.var(axis=1), r((3, 4), np.float64)
    n = 4
    std = np.sqrt(var + eps)
    cen = x - mean[:, None]
    gscale = (gy * cen / std[:, None]).sum(1)
    goff = gy.sum(1)
    gx = scale[:, None] / std[:, None] / n * (gy * n - goff[:, None] - cen * (gy * cen).sum(1)[:, None] / (var + eps)[:, None])
    body = """  %r0, %r1, %r2 = "stablehlo.batch_norm_grad"(%in0, %in1, %in2, %in3, %in4) {epsilon = 1.0e-03 : f32, feature_index = 0 : i64} : (tensor<3x4xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3x4xf64>) -> (tensor<3x4xf64>, tensor<3xf64>, tensor<3xf64>)
"""
    out.append(hand(body, [x, scale, mean, var, gy], [gx, gscale, goff], [1e-9] * 3))
    return out


def sort_cases(c):
    lax, r, jnp = c.lax, c.rand, c.jnp
    out = []
    out.append(c.case(lambda x: jnp.sort(x), np.array([3.0, np.nan, -0.0, 0.0, -np.inf, 1.0, -np.nan], np.float32)))
    out.append(c.case(lambda x: jnp.sort(x, axis=0), r((4, 3), np.int32)))
    out.append(c.case(lambda k, v: lax.sort((k, v), num_keys=1, is_stable=True), np.array([2, 1, 2, 1, 0], np.int32), np.arange(5, dtype=np.float32)))
    out.append(c.case(lambda k1, k2, v: lax.sort((k1, k2, v), dimension=1, num_keys=2), r((2, 6), np.int8, 0, 2), r((2, 6), np.uint32, 0, 3), r((2, 6), np.float64)))
    out.append(c.case(lambda x: jnp.argsort(x, stable=True), np.array([5, 1, 5, 0, 1], np.int64)))
    out.append(c.case(lambda x: jnp.sort(x), r((0,), np.float32)))
    out.append(c.case(lambda x: jnp.sort(x), r((5,), c.bf16)))
    out.append(c.case(lambda x: lax.top_k(x, 3), np.array([[1.0, 4.0, 4.0, -2.0, 3.0], [0.0, -1.0, 9.0, 9.0, 9.0]], np.float32)))
    out.append(c.case(lambda x: lax.top_k(x, 2), r((2, 3, 4), np.int32)))
    return out


def fft_cases(c):
    jnp, r = c.jnp, c.rand
    out = []
    for n in [1, 5, 8, 12, 17, 100]:
        out.append(c.case(lambda x: jnp.fft.fft(x), r((2, n), np.complex64), tol=2e-4))
    out.append(c.case(lambda x: jnp.fft.fft(x), r((70,), np.complex128), tol=1e-10))
    out.append(c.case(lambda x: jnp.fft.ifft(x), r((3, 9), np.complex64), tol=2e-4))
    out.append(c.case(lambda x: jnp.fft.ifft(x), r((16,), np.complex128), tol=1e-10))
    out.append(c.case(lambda x: jnp.fft.rfft(x), r((2, 7), np.float32), tol=2e-4))
    out.append(c.case(lambda x: jnp.fft.rfft(x), r((16,), np.float64), tol=1e-10))
    out.append(c.case(lambda x: jnp.fft.irfft(x, n=10), r((6,), np.complex64), tol=2e-4))
    out.append(c.case(lambda x: jnp.fft.irfft(x, n=9), r((2, 5), np.complex128), tol=1e-10))
    out.append(c.case(lambda x: jnp.fft.fft2(x), r((3, 4), np.complex64), tol=2e-4))
    out.append(c.case(lambda x: jnp.fft.ifftn(x), r((2, 3, 4), np.complex128), tol=1e-10))
    out.append(c.case(lambda x: jnp.fft.rfftn(x), r((2, 3, 4), np.float32), tol=2e-4))
    out.append(c.case(lambda x: jnp.fft.irfftn(x, s=(3, 6)), r((3, 4), np.complex64), tol=2e-4))
    return out


def spd(r, n, dt, batch=()):
    a = r(batch + (n, n), dt, -1, 1)
    h = np.conj(np.swapaxes(a, -1, -2))
    return (a @ h + n * np.eye(n)).astype(dt)


def linalg_cases(c):
    lax, r = c.lax, c.rand
    out = []
    chol = lambda a: lax.linalg.cholesky(a, symmetrize_input=False)  # noqa: E731
    for dt, batch in [(np.float32, ()), (np.float64, (2,)), (np.complex64, ()), (np.complex128, (2, 1))]:
        tol = 1e-4 if dt in (np.float32, np.complex64) else 1e-10
        out.append(c.case(chol, spd(r, 4, dt, batch), tol=tol, platform="tpu"))
    a = spd(r, 3, np.float64)
    body = '  %r0 = "stablehlo.cholesky"(%in0) {lower = false} : (tensor<3x3xf64>) -> tensor<3x3xf64>\n'
    out.append(hand(body, [a], [np.linalg.cholesky(a).T], [1e-10]))
    ts = lax.linalg.triangular_solve
    for left in (True, False):
        for lower in (True, False):
            for trans, conj in ((False, False), (True, False), (True, True)):
                for unit in (False, True):
                    dt = np.complex64 if conj else np.float32
                    a = r((3, 3), dt, -1, 1) + 3 * np.eye(3, dtype=dt)
                    b = r((3, 2) if left else (2, 3), dt)
                    f = lambda a, b, left=left, lower=lower, trans=trans, conj=conj, unit=unit: ts(a, b, left_side=left, lower=lower, transpose_a=trans, conjugate_a=conj, unit_diagonal=unit)  # noqa: E731
                    out.append(c.case(f, a, b, tol=1e-4, platform="tpu"))
    a = r((2, 4, 4), np.float64, -1, 1) + 4 * np.eye(4)
    out.append(c.case(lambda a, b: ts(a, b, left_side=True, lower=False), a, r((2, 4, 3), np.float64), tol=1e-10, platform="tpu"))
    return out


def rng_cases(c):
    lax = c.lax
    out = []
    A = lax.RandomAlgorithm
    key = np.array([0x123456789ABCDEF0, 0xFFFFFFFFFFFFFFF0], np.uint64)
    for algo in (A.RNG_THREE_FRY, A.RNG_PHILOX, A.RNG_DEFAULT):
        for shape, dt in [((5,), np.uint32), ((3, 4), np.uint32), ((), np.uint32), ((2, 3, 3), np.uint64), ((1, 7), np.uint64), ((6,), np.uint8), ((2, 5), np.uint16)]:
            out.append(c.case(lambda k, shape=shape, dt=dt, algo=algo: lax.rng_bit_generator(k, shape, dtype=dt, algorithm=algo), key))
    # counter carry (threefry and philox wrap their 64-bit counters)
    key2 = np.array([7, 0xFFFFFFFFFFFFFFFE], np.uint64)
    out.append(c.case(lambda k: lax.rng_bit_generator(k, (9,), dtype=np.uint32, algorithm=A.RNG_THREE_FRY), key2))
    out.append(c.case(lambda k: lax.rng_bit_generator(k, (9,), dtype=np.uint64, algorithm=A.RNG_PHILOX), key2))
    return out


def _par(progs, n_out, body_fn, inputs, outputs, types_in, types_out):
    """A run_parallel case: `body_fn` is the per-process function text (named @f)."""
    text = body_fn + "func.func @main() {\n"
    for i, a in enumerate(inputs):
        from mlir_lit import dense

        text += f"  %in{i} = stablehlo.constant {dense(a)}\n"
    args = ", ".join(f"%in{i}" for i in range(len(inputs)))
    text += f'  %r:{n_out} = "interpreter.run_parallel"({args}) {{programs = {progs}}} : ({types_in}) -> ({types_out})\n'
    from mlir_lit import check

    for i, o in enumerate(outputs):
        text += check(f"r#{i}", o, 0)
    return text + "  func.return\n}\n"


def collective_cases(c):
    out = []
    t = "tensor<2x2xi64>"
    a0 = np.array([[1, 2], [3, 4]], np.int64)
    a1 = np.array([[5, 6], [7, 8]], np.int64)
    f = f"""func.func @f(%x: {t}) -> {t} {{
  %r = "stablehlo.all_reduce"(%x) ({{
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %s = stablehlo.add %a, %b : tensor<i64>
    stablehlo.return %s : tensor<i64>
  }}) {{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}} : ({t}) -> {t}
  func.return %r : {t}
}}
"""
    out.append(_par("[[@f], [@f]]", 2, f, [a0, a1], [a0 + a1, a0 + a1], f"{t}, {t}", f"{t}, {t}"))
    g = f"""func.func @f(%x: {t}) -> tensor<2x4xi64> {{
  %r = "stablehlo.all_gather"(%x) {{all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>}} : ({t}) -> tensor<2x4xi64>
  func.return %r : tensor<2x4xi64>
}}
"""
    cat = np.concatenate([a0, a1], 1)
    out.append(_par("[[@f], [@f]]", 2, g, [a0, a1], [cat, cat], f"{t}, {t}", "tensor<2x4xi64>, tensor<2x4xi64>"))
    # 2 replicas x 2 partitions, channel, use_global_device_ids: flattened ids [[0, 3], [1, 2]].
    h = f"""func.func @f(%x: {t}) -> {t} {{
  %r = "stablehlo.all_reduce"(%x) ({{
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %s = stablehlo.maximum %a, %b : tensor<i64>
    stablehlo.return %s : tensor<i64>
  }}) {{replica_groups = dense<[[0, 3], [1, 2]]> : tensor<2x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, use_global_device_ids}} : ({t}) -> {t}
  func.return %r : {t}
}}
"""
    xs = [np.full((2, 2), v, np.int64) for v in (1, 5, 3, 2)]
    exp = [np.maximum(xs[0], xs[3]), np.maximum(xs[1], xs[2]), np.maximum(xs[1], xs[2]), np.maximum(xs[0], xs[3])]
    out.append(_par("[[@f, @f], [@f, @f]]", 4, h, xs, exp, ", ".join([t] * 4), ", ".join([t] * 4)))
    p = f"""func.func @f(%x: {t}) -> {t} {{
  %r = "stablehlo.collective_permute"(%x) {{source_target_pairs = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>}} : ({t}) -> {t}
  func.return %r : {t}
}}
"""
    a2 = a0 * 10
    out.append(_par("[[@f], [@f], [@f]]", 3, p, [a0, a1, a2], [np.zeros_like(a0), a0, a1], ", ".join([t] * 3), ", ".join([t] * 3)))
    s = f"""func.func @f(%x: tensor<2x4xi64>) -> tensor<2x2xi64> {{
  %r = "stablehlo.reduce_scatter"(%x) ({{
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %s = stablehlo.add %a, %b : tensor<i64>
    stablehlo.return %s : tensor<i64>
  }}) {{scatter_dimension = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}} : (tensor<2x4xi64>) -> tensor<2x2xi64>
  func.return %r : tensor<2x2xi64>
}}
"""
    x4 = np.array([[1, 2, 3, 4], [5, 6, 7, 8]], np.int64)
    out.append(_par("[[@f], [@f]]", 2, s, [x4, x4], [2 * x4[:, :2], 2 * x4[:, 2:]], "tensor<2x4xi64>, tensor<2x4xi64>", f"{t}, {t}"))
    a = f"""func.func @f(%x: tensor<2x4xi64>) -> tensor<4x2xi64> {{
  %r = "stablehlo.all_to_all"(%x) {{split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}} : (tensor<2x4xi64>) -> tensor<4x2xi64>
  func.return %r : tensor<4x2xi64>
}}
"""
    y4 = x4 + 8
    e0 = np.concatenate([x4[:, :2], y4[:, :2]], 0)
    e1 = np.concatenate([x4[:, 2:], y4[:, 2:]], 0)
    out.append(_par("[[@f], [@f]]", 2, a, [x4, y4], [e0, e1], "tensor<2x4xi64>, tensor<2x4xi64>", "tensor<4x2xi64>, tensor<4x2xi64>"))
    b = f"""func.func @f(%x: {t}) -> {t} {{
  %r = "stablehlo.collective_broadcast"(%x) {{replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>}} : ({t}) -> {t}
  func.return %r : {t}
}}
"""
    out.append(_par("[[@f], [@f]]", 2, b, [a0, a1], [a1, a1], f"{t}, {t}", f"{t}, {t}"))
    ids = """func.func @f() -> (tensor<ui32>, tensor<ui32>) {
  %r = stablehlo.replica_id : tensor<ui32>
  %p = stablehlo.partition_id : tensor<ui32>
  func.return %r, %p : tensor<ui32>, tensor<ui32>
}
"""
    u = lambda v: np.uint32(v)  # noqa: E731
    out.append(_par("[[@f, @f], [@f, @f]]", 8, ids, [], [u(0), u(0), u(0), u(1), u(1), u(0), u(1), u(1)], "", ", ".join(["tensor<ui32>"] * 8)))
    return out


FILES = [
    ("reduce", "reduce: sums, extrema with NaN, products, any/all, variadic argmax/argmin, empty, rank 6", reduce_cases),
    ("reduce_window", "reduce_window (padding, strides, base/window dilations) and select_and_scatter", window_cases),
    ("batch_norm", "batch_norm_training, batch_norm_inference, batch_norm_grad (NumPy formulas)", batch_norm_cases),
    ("sort", "sort (total order with NaN/-0, multi-key, stable) and chlo.top_k", sort_cases),
    ("fft", "fft: FFT/IFFT/RFFT/IRFFT, 1-3 dimensions, power-of-two and other lengths", fft_cases),
    ("linalg", "cholesky and every triangular_solve combination", linalg_cases),
    ("rng_bit_generator", "rng_bit_generator: THREE_FRY / PHILOX / DEFAULT bits and states, bit-exact with XLA:CPU", rng_cases),
    ("collectives", "collectives under interpreter.run_parallel (values derived by hand from the spec)", collective_cases),
]


def dynamic_cases(c):
    """Dynamic-shape ops and the older forms, hand-written with NumPy values."""
    r = c.rand
    out = []
    x = np.array([1.0, 2.0, 3.0], np.float32)
    body = '  %r0 = "stablehlo.dynamic_broadcast_in_dim"(%in0, %in1) {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>, tensor<2xi64>) -> tensor<?x3xf32>\n'
    out.append(hand(body, [x, np.array([2, 3], np.int64)], [np.broadcast_to(x, (2, 3))], [0], ['tensor<?x3xf32>']))
    body = '  %r0 = "stablehlo.dynamic_iota"(%in0) {iota_dimension = 0 : i64} : (tensor<2xi32>) -> tensor<?x?xi64>\n'
    out.append(hand(body, [np.array([3, 2], np.int32)], [np.repeat(np.arange(3, dtype=np.int64)[:, None], 2, 1)], None, ['tensor<?x?xi64>']))
    y = r((2, 6), np.int32)
    body = '  %r0 = "stablehlo.dynamic_reshape"(%in0, %in1) : (tensor<2x6xi32>, tensor<3xi64>) -> tensor<?x?x?xi32>\n'
    out.append(hand(body, [y, np.array([3, 2, 2], np.int64)], [y.reshape(3, 2, 2)], None, ['tensor<?x?x?xi32>']))
    p = np.array([[1, 2], [3, 4]], np.int64)
    want = np.zeros((4, 5), np.int64) + 9
    want[1, 1] = 1
    want[1, 3] = 2
    want[3, 1] = 3
    want[3, 3] = 4
    body = '  %r0 = "stablehlo.dynamic_pad"(%in0, %in1, %in2, %in3, %in4) : (tensor<2x2xi64>, tensor<i64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xi64>\n'
    out.append(hand(body, [p, np.int64(9), np.array([1, 1], np.int64), np.array([0, 1], np.int64), np.array([1, 1], np.int64)], [want], None, ['tensor<?x?xi64>']))
    z = r((5, 6), np.float64)
    body = '  %r0 = "stablehlo.real_dynamic_slice"(%in0, %in1, %in2, %in3) : (tensor<5x6xf64>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x?xf64>\n'
    out.append(hand(body, [z, np.array([1, 0], np.int32), np.array([5, 5], np.int32), np.array([2, 3], np.int32)], [z[1:5:2, 0:5:3]], [0], ['tensor<?x?xf64>']))
    g = r((3, 4), np.int32)
    body = '  %r0 = "stablehlo.dynamic_gather"(%in0, %in1, %in2) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>} : (tensor<3x4xi32>, tensor<2x1xi32>, tensor<2xi32>) -> tensor<2x2xi32>\n'
    out.append(hand(body, [g, np.array([[2], [0]], np.int32), np.array([1, 2], np.int32)], [np.stack([g[2, :2], g[0, :2]])]))
    lhs = r((1, 1, 5), np.float32)
    rhs = r((1, 1, 2), np.float32)
    padded = np.pad(lhs[0, 0].astype(np.float64), (1, 2))
    conv = np.array([padded[i] * rhs[0, 0, 0] + padded[i + 1] * rhs[0, 0, 1] for i in range(len(padded) - 1)])
    body = '  %r0 = "stablehlo.dynamic_conv"(%in0, %in1, %in2) {dimension_numbers = #stablehlo.conv<[b, f, 0]x[o, i, 0]->[b, f, 0]>, window_strides = array<i64: 1>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x1x5xf32>, tensor<1x1x2xf32>, tensor<1x2xi64>) -> tensor<1x1x7xf32>\n'
    out.append(hand(body, [lhs, rhs, np.array([[1, 2]], np.int64)], [conv.astype(np.float32).reshape(1, 1, 7)], [1e-5]))
    b = r((2,), np.int8)
    body = '  %r0 = "stablehlo.broadcast"(%in0) {broadcast_sizes = array<i64: 3>} : (tensor<2xi8>) -> tensor<3x2xi8>\n'
    out.append(hand(body, [b], [np.broadcast_to(b, (3, 2))]))
    s = r((4, 3), np.float32)
    body = '  %r0 = "stablehlo.set_dimension_size"(%in0, %in1) {dimension = 0 : i64} : (tensor<4x3xf32>, tensor<i32>) -> tensor<?x3xf32, #stablehlo.bounds<4, ?>>\n'
    out.append(hand(body, [s, np.int32(2)], [s[:2]], [0], ['tensor<?x3xf32, #stablehlo.bounds<4, ?>>']))
    body = """  %t = "stablehlo.tuple"(%in0, %in1) : (tensor<i32>, tensor<2xf32>) -> tuple<tensor<i32>, tensor<2xf32>>
  %r0 = "stablehlo.get_tuple_element"(%t) {index = 1 : i32} : (tuple<tensor<i32>, tensor<2xf32>>) -> tensor<2xf32>
"""
    out.append(hand(body, [np.int32(5), np.array([1.5, -2.0], np.float32)], [np.array([1.5, -2.0], np.float32)], [0]))
    return out


FILES.append(("dynamic_shapes", "dynamic_* ops, real_dynamic_slice, set_dimension_size, old broadcast, tuple ops (NumPy values)", dynamic_cases))


def narrow_type_cases(c):
    """Data movement and dot on sub-byte integers, f8 formats and quantized storage (values by hand)."""
    _ = c
    cases = []
    cases.append("""func.func @main() {
  %x = stablehlo.constant dense<[[-8, 7, 1], [2, -1, 0]]> : tensor<2x3xi4>
  %r = "stablehlo.transpose"(%x) {permutation = array<i64: 1, 0>} : (tensor<2x3xi4>) -> tensor<3x2xi4>
  check.expect_eq_const %r, dense<[[-8, 2], [7, -1], [1, 0]]> : tensor<3x2xi4>
  func.return
}
""")
    cases.append("""func.func @main() {
  %x = stablehlo.constant dense<[0, 1, 2, 3]> : tensor<4xui2>
  %r = "stablehlo.reverse"(%x) {dimensions = array<i64: 0>} : (tensor<4xui2>) -> tensor<4xui2>
  check.expect_eq_const %r, dense<[3, 2, 1, 0]> : tensor<4xui2>
  func.return
}
""")
    cases.append("""func.func @main() {
  %x = stablehlo.constant dense<[[1.0, -2.0], [0.5, 448.0]]> : tensor<2x2xf8E4M3FN>
  %i = stablehlo.constant dense<[[1], [0]]> : tensor<2x1xi32>
  %r = "stablehlo.gather"(%x, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 2>} : (tensor<2x2xf8E4M3FN>, tensor<2x1xi32>) -> tensor<2x2xf8E4M3FN>
  check.expect_eq_const %r, dense<[[0.5, 448.0], [1.0, -2.0]]> : tensor<2x2xf8E4M3FN>
  func.return
}
""")
    cases.append("""func.func @main() {
  %a = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf8E5M2>
  %b = stablehlo.constant dense<[[0.5, 0.0], [0.0, 0.25]]> : tensor<2x2xf8E5M2>
  %r = "stablehlo.dot_general"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<2x2xf8E5M2>, tensor<2x2xf8E5M2>) -> tensor<2x2xf32>
  check.expect_eq_const %r, dense<[[0.5, 0.5], [1.5, 1.0]]> : tensor<2x2xf32>
  func.return
}
""")
    cases.append("""func.func @main() {
  %a = stablehlo.constant dense<[[7, 7], [7, -8]]> : tensor<2x2xi4>
  %b = stablehlo.constant dense<[[1, 1], [1, 1]]> : tensor<2x2xi4>
  %r = "stablehlo.dot_general"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<2x2xi4>, tensor<2x2xi4>) -> tensor<2x2xi4>
  check.expect_eq_const %r, dense<[[-2, -2], [-1, -1]]> : tensor<2x2xi4>
  func.return
}
""")
    cases.append("""func.func @main() {
  %x = stablehlo.constant dense<[[1.5, -2.25], [3.0, 0.125]]> : tensor<2x2xbf16>
  %p = stablehlo.constant dense<0.0> : tensor<bf16>
  %r = "stablehlo.pad"(%x, %p) {edge_padding_low = array<i64: 0, 1>, edge_padding_high = array<i64: 0, 0>, interior_padding = array<i64: 0, 0>} : (tensor<2x2xbf16>, tensor<bf16>) -> tensor<2x3xbf16>
  check.expect_eq_const %r, dense<[[0.0, 1.5, -2.25], [0.0, 3.0, 0.125]]> : tensor<2x3xbf16>
  func.return
}
""")
    cases.append("""func.func @main() {
  %x = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi8>
  %q = "stablehlo.bitcast_convert"(%x) : (tensor<2x2xi8>) -> tensor<2x2x!quant.uniform<i8:f32, 0.5:1>>
  %t = "stablehlo.transpose"(%q) {permutation = array<i64: 1, 0>} : (tensor<2x2x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<2x2x!quant.uniform<i8:f32, 0.5:1>>
  %r = "stablehlo.bitcast_convert"(%t) : (tensor<2x2x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<2x2xi8>
  check.expect_eq_const %r, dense<[[1, 3], [2, 4]]> : tensor<2x2xi8>
  func.return
}
""")
    # Quantized dot_general and convolution: dequantize, compute, quantize (spec's dequantize_op_quantize).
    cases.append("""func.func @main() {
  %a = stablehlo.constant dense<[[2, 4], [-2, 6]]> : tensor<2x2xi8>
  %b = stablehlo.constant dense<[[2], [2]]> : tensor<2x1xi8>
  %qa = "stablehlo.bitcast_convert"(%a) : (tensor<2x2xi8>) -> tensor<2x2x!quant.uniform<i8:f32, 0.5>>
  %qb = "stablehlo.bitcast_convert"(%b) : (tensor<2x1xi8>) -> tensor<2x1x!quant.uniform<i8:f32, 0.5>>
  %q = "stablehlo.dot_general"(%qa, %qb) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<2x2x!quant.uniform<i8:f32, 0.5>>, tensor<2x1x!quant.uniform<i8:f32, 0.5>>) -> tensor<2x1x!quant.uniform<i32:f32, 0.25>>
  %r = "stablehlo.bitcast_convert"(%q) : (tensor<2x1x!quant.uniform<i32:f32, 0.25>>) -> tensor<2x1xi32>
  check.expect_eq_const %r, dense<[[12], [8]]> : tensor<2x1xi32>
  %f = "stablehlo.dot_general"(%qa, %qb) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<2x2x!quant.uniform<i8:f32, 0.5>>, tensor<2x1x!quant.uniform<i8:f32, 0.5>>) -> tensor<2x1xf32>
  check.expect_eq_const %f, dense<[[3.0], [2.0]]> : tensor<2x1xf32>
  func.return
}
""")
    cases.append("""func.func @main() {
  %x = stablehlo.constant dense<[[[1, 2, 3, 4]]]> : tensor<1x1x4xi8>
  %w = stablehlo.constant dense<[[[2, 2]]]> : tensor<1x1x2xi8>
  %qx = "stablehlo.bitcast_convert"(%x) : (tensor<1x1x4xi8>) -> tensor<1x1x4x!quant.uniform<i8:f32, 1.0:1>>
  %qw = "stablehlo.bitcast_convert"(%w) : (tensor<1x1x2xi8>) -> tensor<1x1x2x!quant.uniform<i8:f32, 0.5>>
  %q = "stablehlo.convolution"(%qx, %qw) {dimension_numbers = #stablehlo.conv<[b, f, 0]x[o, i, 0]->[b, f, 0]>, window_strides = array<i64: 1>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x1x4x!quant.uniform<i8:f32, 1.0:1>>, tensor<1x1x2x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x3xf32>
  check.expect_eq_const %q, dense<[[[1.0, 3.0, 5.0]]]> : tensor<1x1x3xf32>
  func.return
}
""")
    x6 = np.arange(1, 5, dtype=np.uint64).reshape(1, 2, 1, 1, 1, 2)
    body = '  %r0 = "stablehlo.transpose"(%in0) {permutation = array<i64: 5, 4, 3, 2, 1, 0>} : (tensor<1x2x1x1x1x2xui64>) -> tensor<2x1x1x1x2x1xui64>\n'
    cases.append(hand(body, [x6], [x6.transpose(5, 4, 3, 2, 1, 0)]))
    return cases


FILES.append(("narrow_types", "data movement and dot on i4/ui2, f8 formats, bf16, quantized storage, rank 6", narrow_type_cases))
