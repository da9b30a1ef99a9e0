"""Flax (linen and nnx) layers on oxhlo: forward and gradients compared with CPU."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from conftest import assert_same

flax = pytest.importorskip("flax")
import flax.linen as nn  # noqa: E402

pytestmark = pytest.mark.usefixtures("compiles")

TOL = dict(rtol=2e-4, atol=2e-4)
rng = np.random.default_rng(3)


def f32(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def check_module(module, x, *, rngs=None, mutable=False, train_kwargs=None, tol=TOL):
    """Forward and parameter gradients of a linen module agree with CPU."""
    kwargs = train_kwargs or {}
    with jax.default_device(jax.devices("cpu")[0]):
        variables = module.init(jax.random.PRNGKey(0), x, **kwargs)
    rng_arg = {"dropout": jax.random.PRNGKey(1)} if rngs else None

    def fwd(v, x):
        out = module.apply(v, x, rngs=rng_arg, mutable=mutable, **kwargs)
        return out

    def loss(v, x):
        out = module.apply(v, x, rngs=rng_arg, mutable=mutable, **kwargs)
        y = out[0] if mutable else out
        return jnp.sum(jax.tree.leaves(y)[0] ** 2)

    assert_same(fwd, variables, x, **tol)
    assert_same(jax.grad(loss), variables, x, **tol)


def test_dense_and_mlp():
    check_module(nn.Dense(7), f32(4, 5))

    class MLP(nn.Module):
        @nn.compact
        def __call__(self, x):
            x = nn.gelu(nn.Dense(16)(x))
            return nn.Dense(3)(nn.relu(nn.Dense(8)(x)))

    check_module(MLP(), f32(4, 5))


@pytest.mark.parametrize("kind", ["conv1d", "conv2d", "transpose", "depthwise", "grouped", "strided_dilated"])
def test_convolutions(kind):
    m, x = {
        "conv1d": (nn.Conv(4, (3,)), f32(2, 9, 3)),
        "conv2d": (nn.Conv(4, (3, 3), padding="SAME"), f32(2, 6, 6, 3)),
        "transpose": (nn.ConvTranspose(4, (3, 3), strides=(2, 2)), f32(2, 5, 5, 3)),
        "depthwise": (nn.Conv(6, (3, 3), feature_group_count=3), f32(2, 6, 6, 3)),
        "grouped": (nn.Conv(4, (3, 3), feature_group_count=2), f32(2, 6, 6, 4)),
        "strided_dilated": (nn.Conv(4, (3, 3), strides=(2, 1), kernel_dilation=(1, 2), padding="VALID"),
                            f32(2, 9, 9, 3)),
    }[kind]
    check_module(m, x)


def test_pooling():
    x = f32(2, 6, 6, 3)
    assert_same(lambda a: (nn.max_pool(a, (2, 2), strides=(2, 2)), nn.avg_pool(a, (3, 3), padding="SAME")), x)
    assert_same(jax.grad(lambda a: nn.max_pool(a, (2, 2), strides=(2, 2)).sum()), x)


def test_batchnorm_train_and_eval():
    x = f32(8, 5)
    check_module(nn.BatchNorm(use_running_average=False), x, mutable=["batch_stats"])
    check_module(nn.BatchNorm(use_running_average=True), x)


@pytest.mark.parametrize("norm", ["layer", "rms", "group"])
def test_norms(norm):
    m = {"layer": nn.LayerNorm(), "rms": nn.RMSNorm(), "group": nn.GroupNorm(num_groups=2)}[norm]
    check_module(m, f32(4, 3, 6))


def test_dropout():
    check_module(nn.Dropout(0.5, deterministic=False), f32(4, 16), rngs=True)


def test_causal_attention():
    x = f32(2, 6, 8)
    mask = nn.make_causal_mask(jnp.ones((2, 6)))
    m = nn.MultiHeadDotProductAttention(num_heads=2, qkv_features=8)
    with jax.default_device(jax.devices("cpu")[0]):
        v = m.init(jax.random.PRNGKey(0), x, mask=mask)
    assert_same(lambda v, x: m.apply(v, x, mask=mask), v, x, **TOL)
    assert_same(jax.grad(lambda v, x: (m.apply(v, x, mask=mask) ** 2).sum()), v, x, **TOL)


@pytest.mark.parametrize("cell", ["lstm", "gru"])
def test_recurrent_cells(cell):
    c = nn.OptimizedLSTMCell(8) if cell == "lstm" else nn.GRUCell(8)
    x = f32(3, 5)
    with jax.default_device(jax.devices("cpu")[0]):
        carry = c.initialize_carry(jax.random.PRNGKey(0), x.shape)
        v = c.init(jax.random.PRNGKey(1), carry, x)
    assert_same(lambda v, carry, x: c.apply(v, carry, x), v, carry, x, **TOL)


def test_linen_scan_with_grad():
    class Stack(nn.Module):
        @nn.compact
        def __call__(self, c, xs):
            scan = nn.scan(nn.GRUCell, variable_broadcast="params", split_rngs={"params": False},
                           in_axes=1, out_axes=1)
            return scan(8)(c, xs)

    xs = f32(2, 5, 4)
    c0 = np.zeros((2, 8), np.float32)
    m = Stack()
    with jax.default_device(jax.devices("cpu")[0]):
        v = m.init(jax.random.PRNGKey(0), c0, xs)
    assert_same(lambda v, c, xs: m.apply(v, c, xs), v, c0, xs, **TOL)
    assert_same(jax.grad(lambda v, c, xs: (m.apply(v, c, xs)[1] ** 2).sum()), v, c0, xs, **TOL)


def test_nnx_layers():
    from flax import nnx

    class Model(nnx.Module):
        def __init__(self, rngs):
            self.conv = nnx.Conv(3, 4, (3, 3), rngs=rngs)
            self.bn = nnx.BatchNorm(4, rngs=rngs)
            self.ln = nnx.LayerNorm(4, rngs=rngs)
            self.lin = nnx.Linear(4, 2, rngs=rngs)

        def __call__(self, x):
            x = self.ln(self.bn(nnx.relu(self.conv(x))))
            return self.lin(x.mean(axis=(1, 2)))

    with jax.default_device(jax.devices("cpu")[0]):
        model = Model(nnx.Rngs(0))
    graphdef, state = nnx.split(model)
    x = f32(2, 5, 5, 3)

    def fwd(state, x):
        m = nnx.merge(graphdef, state)
        y = m(x)
        return y, nnx.state(m)

    assert_same(fwd, state, x, **TOL)
    assert_same(jax.grad(lambda s, x: (fwd(s, x)[0] ** 2).sum()), state, x, **TOL)


def _nnx_case(name):
    from flax import nnx

    r = nnx.Rngs(0, dropout=1)
    return {
        "linear": (lambda: nnx.Linear(5, 3, rngs=r), (4, 5)),
        "conv1d": (lambda: nnx.Conv(3, 4, (3,), rngs=r), (2, 7, 3)),
        "conv_transpose": (lambda: nnx.ConvTranspose(3, 4, (3, 3), strides=(2, 2), rngs=r), (2, 4, 4, 3)),
        "depthwise": (lambda: nnx.Conv(4, 8, (3, 3), feature_group_count=4, rngs=r), (2, 5, 5, 4)),
        "rmsnorm": (lambda: nnx.RMSNorm(6, rngs=r), (3, 6)),
        "groupnorm": (lambda: nnx.GroupNorm(6, num_groups=3, rngs=r), (2, 4, 6)),
        "dropout": (lambda: nnx.Dropout(0.5, rngs=r), (4, 8)),
        "attention": (lambda: nnx.MultiHeadAttention(num_heads=2, in_features=8, decode=False, rngs=r), (2, 5, 8)),
        "embed": (lambda: nnx.Embed(10, 4, rngs=r), None),
    }[name]


@pytest.mark.parametrize("name", ["linear", "conv1d", "conv_transpose", "depthwise", "rmsnorm", "groupnorm",
                                  "dropout", "attention", "embed"])
def test_nnx_layer(name):
    from flax import nnx

    make, shape = _nnx_case(name)
    with jax.default_device(jax.devices("cpu")[0]):
        layer = make()
    graphdef, state = nnx.split(layer)
    x = np.arange(7, dtype=np.int32) % 10 if shape is None else f32(*shape)

    def fwd(state, x):
        m = nnx.merge(graphdef, state)
        return m(x), nnx.state(m)

    assert_same(fwd, state, x, **TOL)
    if shape is not None and name != "dropout":  # dropout's state is RNG keys: nothing to differentiate
        assert_same(jax.grad(lambda s, x: (fwd(s, x)[0] ** 2).sum()), state, x, **TOL)


@pytest.mark.parametrize("cell", ["lstm", "gru"])
def test_nnx_recurrent_cells(cell):
    from flax import nnx

    with jax.default_device(jax.devices("cpu")[0]):
        r = nnx.Rngs(0)
        c = nnx.LSTMCell(5, 8, rngs=r) if cell == "lstm" else nnx.GRUCell(5, 8, rngs=r)
        carry = c.initialize_carry((3, 5), r)
    graphdef, state = nnx.split(c)
    x = f32(3, 5)
    assert_same(lambda s, carry, x: nnx.merge(graphdef, s)(carry, x), state, carry, x, **TOL)
