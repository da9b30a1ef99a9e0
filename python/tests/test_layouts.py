"""Device layouts through the PJRT layouts extension: arrays and compiled programs report dense
row-major layouts (major_to_minor = 0, 1, ..., n-1) for every rank, and programs still run with them.
Expected values come from the layout every dense row-major array has, not from oxhlo."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest


def _layout(fmt):
    return fmt.layout if hasattr(fmt, "layout") else fmt


@pytest.mark.parametrize("shape", [(), (5,), (3, 4), (2, 3, 4), (1, 2, 1, 3)])
def test_buffers_and_programs_report_row_major_layouts(shape):
    x = jnp.asarray(np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape))
    fmt = x.format if hasattr(x, "format") else x.layout
    assert tuple(_layout(fmt).major_to_minor) == tuple(range(len(shape)))
    compiled = jax.jit(lambda a: (a * 2, a.sum())).lower(x).compile()
    ins = compiled.input_formats if hasattr(compiled, "input_formats") else compiled.input_layouts
    outs = compiled.output_formats if hasattr(compiled, "output_formats") else compiled.output_layouts
    (in_args, _kw) = ins
    assert tuple(_layout(in_args[0]).major_to_minor) == tuple(range(len(shape)))
    assert tuple(_layout(outs[0]).major_to_minor) == tuple(range(len(shape)))
    assert tuple(_layout(outs[1]).major_to_minor) == ()
    doubled, total = compiled(x)
    np.testing.assert_array_equal(np.asarray(doubled), np.asarray(x) * 2)
    assert float(total) == float(np.asarray(x).sum())
