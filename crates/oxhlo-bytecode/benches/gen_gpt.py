#!/usr/bin/env python3
"""Lowers one GPT training step (forward, backward, AdamW update) with JAX and writes it
as a StableHLO portable artifact (current VHLO) and as plain bytecode, with debug
locations, for the read-throughput bench.

usage: gen_gpt.py OUTDIR [LAYERS]
"""
import io
import os
import sys

import jax
import jax.numpy as jnp
import numpy as np
from jaxlib.mlir.dialects import stablehlo

VOCAB, D, HEADS, SEQ, BATCH = 512, 256, 8, 128, 4


def init(layers):
    rng = np.random.default_rng(0)
    w = lambda *s: (rng.standard_normal(s) * 0.02).astype(np.float32)
    p = {"tok": w(VOCAB, D), "pos": w(SEQ, D), "lnf": (np.ones(D, np.float32), np.zeros(D, np.float32))}
    p["blocks"] = [
        {
            "ln1": (np.ones(D, np.float32), np.zeros(D, np.float32)),
            "qkv": w(D, 3 * D), "proj": w(D, D),
            "ln2": (np.ones(D, np.float32), np.zeros(D, np.float32)),
            "fc": w(D, 4 * D), "out": w(4 * D, D),
        }
        for _ in range(layers)
    ]
    return p


def layernorm(x, g_b):
    g, b = g_b
    m = x.mean(-1, keepdims=True)
    v = ((x - m) ** 2).mean(-1, keepdims=True)
    return (x - m) * jax.lax.rsqrt(v + 1e-5) * g + b


def attention(x, blk):
    b, t, _ = x.shape
    q, k, v = jnp.split(x @ blk["qkv"], 3, axis=-1)
    heads = lambda a: a.reshape(b, t, HEADS, D // HEADS).transpose(0, 2, 1, 3)
    q, k, v = heads(q), heads(k), heads(v)
    s = (q @ k.transpose(0, 1, 3, 2)) / np.sqrt(D // HEADS)
    mask = jnp.tril(jnp.ones((t, t), bool))
    s = jnp.where(mask, s, -1e9)
    o = jax.nn.softmax(s, axis=-1) @ v
    return o.transpose(0, 2, 1, 3).reshape(b, t, D) @ blk["proj"]


def loss_fn(p, tokens, targets):
    x = p["tok"][tokens] + p["pos"][None, : tokens.shape[1]]
    for blk in p["blocks"]:
        x = x + attention(layernorm(x, blk["ln1"]), blk)
        x = x + jax.nn.gelu(layernorm(x, blk["ln2"]) @ blk["fc"]) @ blk["out"]
    logits = layernorm(x, p["lnf"]) @ p["tok"].T
    logp = jax.nn.log_softmax(logits)
    return -jnp.take_along_axis(logp, targets[..., None], axis=-1).mean()


def train_step(p, m, v, tokens, targets, step):
    loss, g = jax.value_and_grad(loss_fn)(p, tokens, targets)
    b1, b2, lr = 0.9, 0.95, 3e-4
    m = jax.tree.map(lambda m, g: b1 * m + (1 - b1) * g, m, g)
    v = jax.tree.map(lambda v, g: b2 * v + (1 - b2) * g * g, v, g)
    t = step + 1
    upd = lambda p, m, v: p - lr * (m / (1 - b1**t)) / (jnp.sqrt(v / (1 - b2**t)) + 1e-8) - lr * 0.1 * p
    return jax.tree.map(upd, p, m, v), m, v, loss


def main():
    outdir = sys.argv[1]
    layers = int(sys.argv[2]) if len(sys.argv) > 2 else 12
    os.makedirs(outdir, exist_ok=True)
    p = init(layers)
    zeros = jax.tree.map(np.zeros_like, p)
    tokens = np.zeros((BATCH, SEQ), np.int32)
    lowered = jax.jit(train_step).lower(p, zeros, zeros, tokens, tokens, np.float32(0))
    module = lowered.compiler_ir("stablehlo")
    buf = io.BytesIO()
    module.operation.write_bytecode(buf)
    with open(os.path.join(outdir, "gpt_step.plain.mlirbc"), "wb") as f:
        f.write(buf.getvalue())
    art = stablehlo.serialize_portable_artifact(module, stablehlo.get_current_version(), True)
    with open(os.path.join(outdir, "gpt_step.vhlo.mlirbc"), "wb") as f:
        f.write(art)


if __name__ == "__main__":
    main()
