"""Writes a large StableHLO program to argv[1]: the gradient of a stack of transformer blocks (with Adam
updates and debug locations), lowered by JAX. Input for benches/parse.rs."""

import sys

import jax
import jax.numpy as jnp
from jax import lax

LAYERS, D, F, T, B, H = 12, 256, 1024, 64, 4, 8


def block(p, x):
    def ln(v, g, b):
        mu = jnp.mean(v, -1, keepdims=True)
        var = jnp.mean((v - mu) ** 2, -1, keepdims=True)
        return (v - mu) * lax.rsqrt(var + 1e-5) * g + b

    h = ln(x, p["g1"], p["b1"])
    q, k, v = (h @ p[n] for n in ("wq", "wk", "wv"))
    sh = lambda a: a.reshape(B, T, H, D // H).transpose(0, 2, 1, 3)
    q, k, v = sh(q), sh(k), sh(v)
    att = jnp.einsum("bhqd,bhkd->bhqk", q, k) / jnp.sqrt(D // H)
    att = jnp.where(jnp.tril(jnp.ones((T, T), bool)), att, -1e9)
    o = jnp.einsum("bhqk,bhkd->bhqd", jax.nn.softmax(att, -1), v).transpose(0, 2, 1, 3).reshape(B, T, D)
    x = x + o @ p["wo"]
    return x + jax.nn.gelu(ln(x, p["g2"], p["b2"]) @ p["w1"]) @ p["w2"]


def loss(params, x, y):
    for p in params:
        x = block(p, x)
    return jnp.mean((x - y) ** 2)


def step(params, m, x, y):
    g = jax.grad(loss)(params, x, y)
    m = jax.tree_util.tree_map(lambda a, b: 0.9 * a + 0.1 * b, m, g)
    params = jax.tree_util.tree_map(lambda p, mm: p - 1e-3 * mm / (jnp.sqrt(mm * mm) + 1e-8), params, m)
    return params, m


def main():
    shapes = {"g1": (D,), "b1": (D,), "g2": (D,), "b2": (D,), "wq": (D, D), "wk": (D, D), "wv": (D, D), "wo": (D, D), "w1": (D, F), "w2": (F, D)}
    p = [{k: jax.ShapeDtypeStruct(s, jnp.float32) for k, s in shapes.items()} for _ in range(LAYERS)]
    x = jax.ShapeDtypeStruct((B, T, D), jnp.float32)
    text = jax.jit(step).lower(p, p, x, x).as_text(debug_info=True)
    with open(sys.argv[1], "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
