"""End to end: small models trained several Adam steps on oxhlo, losses tracking JAX on CPU."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

flax = pytest.importorskip("flax")
optax = pytest.importorskip("optax")
import flax.linen as nn  # noqa: E402

pytestmark = pytest.mark.usefixtures("compiles")

STEPS = 3


def train(device, model, x, y, loss_kind, has_batch_stats=False):
    """Initializes on CPU, then trains STEPS Adam steps on `device`; returns the losses."""
    with jax.default_device(jax.devices("cpu")[0]):
        variables = model.init(jax.random.PRNGKey(0), x)
    params = variables["params"]
    stats = variables.get("batch_stats", {})
    opt = optax.adam(1e-2)

    def loss_fn(params, stats, x, y):
        v = {"params": params, **({"batch_stats": stats} if has_batch_stats else {})}
        if has_batch_stats:
            out, upd = model.apply(v, x, mutable=["batch_stats"])
            stats = upd["batch_stats"]
        else:
            out = model.apply(v, x)
        if loss_kind == "xent":
            l = optax.softmax_cross_entropy_with_integer_labels(out.reshape(-1, out.shape[-1]), y.reshape(-1)).mean()
        else:
            l = jnp.mean((out - y) ** 2)
        return l, stats

    @jax.jit
    def step(params, stats, opt_state, x, y):
        (l, stats), g = jax.value_and_grad(loss_fn, has_aux=True)(params, stats, x, y)
        upd, opt_state = opt.update(g, opt_state, params)
        return optax.apply_updates(params, upd), stats, opt_state, l

    params, stats, x, y = jax.device_put((params, stats, x, y), device)
    opt_state = jax.device_put(opt.init(params), device)
    losses = []
    for _ in range(STEPS):
        params, stats, opt_state, l = step(params, stats, opt_state, x, y)
        losses.append(float(l))
    return losses


def compare(model, x, y, loss_kind, has_batch_stats=False, rtol=2e-3):
    ref = train(jax.devices("cpu")[0], model, x, y, loss_kind, has_batch_stats)
    got = train(jax.devices("oxhlo")[0], model, x, y, loss_kind, has_batch_stats)
    np.testing.assert_allclose(got, ref, rtol=rtol, atol=1e-4)
    assert got[-1] < got[0], f"loss did not go down: {got}"


rng = np.random.default_rng(4)


class CNN(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.relu(nn.Conv(8, (3, 3))(x))
        x = nn.max_pool(x, (2, 2), strides=(2, 2))
        x = nn.relu(nn.Conv(8, (3, 3))(x))
        return nn.Dense(10)(x.reshape(x.shape[0], -1))


class Block(nn.Module):
    ch: int

    @nn.compact
    def __call__(self, x):
        h = nn.relu(nn.BatchNorm(use_running_average=False)(nn.Conv(self.ch, (3, 3), use_bias=False)(x)))
        h = nn.BatchNorm(use_running_average=False)(nn.Conv(self.ch, (3, 3), use_bias=False)(h))
        return nn.relu(h + x)


class ResNet(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.relu(nn.Conv(8, (3, 3))(x))
        x = Block(8)(Block(8)(x))
        return nn.Dense(10)(jnp.mean(x, axis=(1, 2)))


class Bert(nn.Module):
    vocab: int = 32
    d: int = 16

    @nn.compact
    def __call__(self, tokens):
        pos = jnp.arange(tokens.shape[1])
        h = nn.Embed(self.vocab, self.d)(tokens) + nn.Embed(tokens.shape[1], self.d)(pos)
        mask = nn.make_attention_mask(tokens > 0, tokens > 0)
        for _ in range(2):
            a = nn.MultiHeadDotProductAttention(num_heads=2)(h, mask=mask)
            h = nn.LayerNorm()(h + a)
            f = nn.Dense(self.d)(nn.gelu(nn.Dense(4 * self.d)(h)))
            h = nn.LayerNorm()(h + f)
        return nn.Dense(self.vocab)(h)


class AutoEncoder(nn.Module):
    @nn.compact
    def __call__(self, x):
        z = nn.Dense(4)(nn.relu(nn.Dense(8)(x)))
        return nn.Dense(16)(nn.relu(nn.Dense(8)(z)))


def test_cnn():
    x = rng.standard_normal((4, 8, 8, 1)).astype(np.float32)
    compare(CNN(), x, rng.integers(0, 10, (4,)).astype(np.int32), "xent")


def test_resnet():
    x = rng.standard_normal((4, 8, 8, 3)).astype(np.float32)
    compare(ResNet(), x, rng.integers(0, 10, (4,)).astype(np.int32), "xent", has_batch_stats=True)


def test_bert():
    tokens = rng.integers(1, 32, (2, 8)).astype(np.int32)
    tokens[:, -2:] = 0  # padding
    compare(Bert(), tokens, rng.integers(0, 32, (2, 8)).astype(np.int32), "xent")


def test_autoencoder():
    x = rng.standard_normal((8, 16)).astype(np.float32)
    compare(AutoEncoder(), x, x, "mse")


def test_mixed_precision_step():
    """f32 parameters, bf16 compute."""
    model = nn.Dense(8, dtype=jnp.bfloat16, param_dtype=jnp.float32)
    x = rng.standard_normal((4, 16)).astype(np.float32)
    compare(model, x, rng.standard_normal((4, 8)).astype(np.float32), "mse", rtol=3e-2)
