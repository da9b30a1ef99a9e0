"""Lowers (never runs) a set of JAX programs to StableHLO text and writes them into the directory given as argv[1].

Each program is written twice: `NAME.mlir` (the default `as_text()`) and `NAME.debug.mlir` (with
`debug_info=True`, i.e. `loc(#locN)` references to Python source lines and `#loc` aliases after the module).
Used by tests/jax_programs.rs; also handy on its own: `python3 jax_programs.py /tmp/out`.
"""

import os
import sys

import jax
import jax.numpy as jnp
from jax import lax


def mlp(x, w1, b1, w2, b2):
    h = jax.nn.relu(x @ w1 + b1)
    return jax.nn.log_softmax(h @ w2 + b2)


def conv_net(x, k1, k2):
    dn = ("NHWC", "HWIO", "NHWC")
    y = lax.conv_general_dilated(x, k1, (1, 1), "SAME", dimension_numbers=dn)
    y = jax.nn.relu(y)
    y = lax.reduce_window(y, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
    y = lax.conv_general_dilated(y, k2, (2, 2), ((1, 1), (1, 1)), rhs_dilation=(1, 1), dimension_numbers=dn)
    return jnp.mean(y, axis=(1, 2))


def while_loop(n, x):
    def cond(c):
        i, _ = c
        return i < n

    def body(c):
        i, v = c
        return i + 1, jnp.sin(v) * 1.5 + 0.25

    return lax.while_loop(cond, body, (0, x))


def scan_cumsum(xs):
    def step(carry, x):
        carry = carry * 0.9 + x
        return carry, jnp.tanh(carry)

    return lax.scan(step, jnp.zeros(xs.shape[1:], xs.dtype), xs)


def sort_ops(x, y):
    a = jnp.sort(x, axis=-1)
    idx = jnp.argsort(y)
    k, v = lax.sort_key_val(x[0], y)
    top, ti = lax.top_k(x, 3)
    return a, idx, k, v, top, ti


def gather_scatter(x, idx, upd):
    g = x[idx]
    s = x.at[idx].add(upd)
    t = x.at[idx, 1].set(upd[:, 0])
    m = jnp.take_along_axis(x, jnp.argsort(x, axis=1), axis=1)
    return g, s, t, m


def transformer_block(params, x):
    def layer_norm(v, g, b):
        mu = jnp.mean(v, -1, keepdims=True)
        var = jnp.mean((v - mu) ** 2, -1, keepdims=True)
        return (v - mu) * lax.rsqrt(var + 1e-5) * g + b

    h = layer_norm(x, params["g1"], params["b1"])
    q = h @ params["wq"]
    k = h @ params["wk"]
    v = h @ params["wv"]
    b, t, d = q.shape
    nh = 4
    q = q.reshape(b, t, nh, d // nh).transpose(0, 2, 1, 3)
    k = k.reshape(b, t, nh, d // nh).transpose(0, 2, 1, 3)
    v = v.reshape(b, t, nh, d // nh).transpose(0, 2, 1, 3)
    att = jnp.einsum("bhqd,bhkd->bhqk", q, k) / jnp.sqrt(d // nh)
    mask = jnp.tril(jnp.ones((t, t), bool))
    att = jnp.where(mask, att, -1e9)
    att = jax.nn.softmax(att, axis=-1)
    o = jnp.einsum("bhqk,bhkd->bhqd", att, v).transpose(0, 2, 1, 3).reshape(b, t, d)
    x = x + o @ params["wo"]
    h = layer_norm(x, params["g2"], params["b2"])
    h = jax.nn.gelu(h @ params["w1"]) @ params["w2"]
    return x + h


def transformer_loss(params, x):
    return jnp.sum(transformer_block(params, x) ** 2)


def transformer_params(d=32, f=64):
    shapes = {"g1": (d,), "b1": (d,), "g2": (d,), "b2": (d,), "wq": (d, d), "wk": (d, d), "wv": (d, d), "wo": (d, d),
              "w1": (d, f), "w2": (f, d)}
    return {k: jax.ShapeDtypeStruct(s, jnp.float32) for k, s in shapes.items()}


def linalg(a, b):
    spd = a @ a.T + 4.0 * jnp.eye(a.shape[0])
    c = jnp.linalg.cholesky(spd)
    q, r = jnp.linalg.qr(a)
    u, s, vt = jnp.linalg.svd(a)
    w, v = jnp.linalg.eigh(spd)
    x = jnp.linalg.solve(spd, b)
    inv = jnp.linalg.inv(spd)
    det = jnp.linalg.det(spd)
    return c, q, r, u, s, vt, w, v, x, inv, det


def misc(x, i):
    y = lax.cond(i > 0, lambda v: v * 2.0, lambda v: v - 1.0, x)
    z = lax.switch(i, [jnp.sin, jnp.cos, jnp.exp], x)
    c = jnp.fft.fft(x.astype(jnp.complex64))
    bits = lax.bitcast_convert_type(x, jnp.int32)
    r = jax.random.uniform(jax.random.PRNGKey(1), x.shape)
    cum = jnp.cumsum(x)
    e = jax.scipy.special.erf(x) + lax.lgamma(jnp.abs(x) + 1.0)
    bf = x.astype(jnp.bfloat16) * jnp.bfloat16(0.1)
    f8 = x.astype(jnp.float8_e4m3fn)
    return y, z, c, bits, r, cum, e, bf, f8, lax.clamp(-1.0, x, 1.0), jnp.argmax(x), x.astype(jnp.uint8)


def f32(*shape):
    return jax.ShapeDtypeStruct(shape, jnp.float32)


PROGRAMS = {
    "mlp": (mlp, (f32(8, 16), f32(16, 32), f32(32), f32(32, 10), f32(10))),
    "conv_net": (conv_net, (f32(2, 16, 16, 3), f32(3, 3, 3, 8), f32(3, 3, 8, 16))),
    "while_loop": (while_loop, (jax.ShapeDtypeStruct((), jnp.int32), f32(4))),
    "scan": (scan_cumsum, (f32(10, 4),)),
    "sort": (sort_ops, (f32(4, 6), f32(6))),
    "gather_scatter": (gather_scatter, (f32(5, 3), jax.ShapeDtypeStruct((4,), jnp.int32), f32(4, 3))),
    "transformer_grad": (jax.grad(transformer_loss), (transformer_params(), f32(2, 8, 32))),
    "linalg": (linalg, (f32(4, 4), f32(4, 2))),
    "misc": (misc, (f32(8), jax.ShapeDtypeStruct((), jnp.int32))),
}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, (fn, args) in PROGRAMS.items():
        lowered = jax.jit(fn).lower(*args)
        with open(os.path.join(out, name + ".mlir"), "w") as f:
            f.write(lowered.as_text())
        with open(os.path.join(out, name + ".debug.mlir"), "w") as f:
            f.write(lowered.as_text(debug_info=True))
    print(len(PROGRAMS) * 2)


if __name__ == "__main__":
    main()
