"""The cases of gen_heavy.py, one builder per conformance file. Each builder returns a list of case texts.
Expected values: JAX on CPU (through ctx.case) or NumPy for hand-written cases."""

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np
from mlir_lit import check, dense, tensor_type


@dataclass
class Ctx:
    case: Any
    rand: Any
    lax: Any
    jnp: Any
    np: Any
    bf16: Any


def hand(body, inputs, outputs, tols=None, rtypes=None):
    """A hand-written case: `body` uses %in0.. and defines %r0..; checks against `outputs` (`rtypes`: the
    results' declared types where they are dynamic)."""
    text = "func.func @main() {\n"
    for i, a in enumerate(inputs):
        text += f"  %in{i} = stablehlo.constant {dense(a)}\n"
    text += body
    for i, o in enumerate(outputs):
        t = None if tols is None else tols[i]
        text += check(f"r{i}", o, t, None if rtypes is None else rtypes[i])
    return text + "  func.return\n}\n"


def data_movement(c):
    lax, r, np_ = c.lax, c.rand, np
    out = []
    out.append(c.case(lambda x: lax.broadcast_in_dim(x, (2, 3, 2), (2, 1)), np.array([[1, 2, 3]], np.int32)))
    out.append(c.case(lambda x: lax.broadcast_in_dim(x, (2, 1, 1, 1, 1, 2), ()), np.float32(1.5)))
    out.append(c.case(lambda x: lax.broadcast_in_dim(x, (2, 0, 3), (1, 2)), np.zeros((0, 3), np.int8)))
    out.append(c.case(lambda x: lax.broadcast_in_dim(x, (3, 2), (0,)), r((3,), np.bool_)))
    out.append(c.case(lambda x: lax.broadcast_in_dim(x, (2, 2), (1,)), r((2,), np.complex64)))
    out.append(c.case(lambda x: lax.reshape(x, (3, 2)), r((2, 3), np.float16)))
    out.append(c.case(lambda x: lax.reshape(x, (1, 1)), np.int8(-7)))
    out.append(c.case(lambda x: lax.transpose(x, (5, 3, 1, 0, 2, 4)), r((2, 1, 3, 2, 1, 2), np.float32)))
    out.append(c.case(lambda x: lax.transpose(x, (1, 0)), r((2, 3), np.uint8)))
    out.append(c.case(lambda x: lax.slice(x, (1, 0), (3, 4), (1, 2)), r((3, 4), np.float32)))
    out.append(c.case(lambda x: lax.slice(x, (0, 1, 0), (4, 3, 5), (3, 1, 2)), r((4, 3, 5), c.bf16)))
    out.append(c.case(lambda x: lax.slice(x, (2,), (2,)), r((4,), np.int64)))
    for starts in [(1, 1), (-1, 3), (5, -9), (0, 2)]:
        out.append(c.case(lambda x, i, j: lax.dynamic_slice(x, (i, j), (2, 2)), r((4, 4), np.int32), np.int64(starts[0]), np.int64(starts[1])))
    for starts in [(1, 1), (-1, 3), (9, 0)]:
        out.append(c.case(lambda x, u, i, j: lax.dynamic_update_slice(x, u, (i, j)), r((4, 4), np.float64), r((2, 3), np.float64), np.int32(starts[0]), np.int32(starts[1])))
    out.append(c.case(lambda a, b, d: lax.concatenate([a, b, d], 1), r((2, 1), np.int64), r((2, 0), np.int64), r((2, 3), np.int64)))
    out.append(c.case(lambda a, b: lax.concatenate([a, b], 0), r((1, 2, 2), np.complex128), r((2, 2, 2), np.complex128)))
    out.append(c.case(lambda x, v: lax.pad(x, v, [(0, 2, 1), (1, 1, 2)]), np.array([[1, 2, 3], [4, 5, 6]], np.int32), np.int32(0)))
    out.append(c.case(lambda x, v: lax.pad(x, v, [(-1, 2, 1), (2, -3, 0)]), r((3, 4), np.float64), np.float64(-0.5)))
    out.append(c.case(lambda x, v: lax.pad(x, v, [(1, 1, 0)]), r((0,), np.bool_), np.bool_(True)))
    out.append(c.case(lambda x, v: lax.pad(x, v, [(-2, -2, 3)]), r((3,), np.float16), np.float16(9)))
    out.append(c.case(lambda x: lax.rev(x, (0, 2)), r((2, 3, 2), np.int16)))
    out.append(c.case(lambda x: lax.rev(x, ()), r((3,), np.float32)))
    for dt, shape, dim in [(np.int8, (3, 4), 1), (np.uint16, (5,), 0), (np.float16, (2, 3), 0), (np.float32, (4, 2), 1), (np.int64, (0, 3), 1)]:
        out.append(c.case(lambda: lax.broadcasted_iota(dt, shape, dim)))
    out.append(c.case(lambda: lax.broadcasted_iota(c.bf16, (300,), 0)))
    x = r((2, 3), np.float32)
    out.append(hand('  %r0 = "stablehlo.get_dimension_size"(%in0) {dimension = 1 : i64} : (tensor<2x3xf32>) -> tensor<i32>\n', [x], [np.int32(3)]))
    return out


GDN = None


def gather_cases(c):
    lax, r = c.lax, c.rand
    G = lax.GatherDimensionNumbers
    clip = lax.GatherScatterMode.CLIP
    out = []

    def g(dn, sizes, xs, idx, **kw):
        out.append(c.case(lambda x, i: lax.gather(x, i, dn, sizes, mode=clip, **kw), xs, idx))

    g(G(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,)), (1, 2), r((3, 2), np.float32), np.array([[2], [0], [7], [-3]], np.int32))
    g(G(offset_dims=(), collapsed_slice_dims=(0, 1), start_index_map=(0, 1)), (1, 1), r((3, 4), np.int32), np.array([[0, 3], [2, 1], [5, 5]], np.int64))
    g(G(offset_dims=(0, 2, 3), collapsed_slice_dims=(), start_index_map=(1,)), (2, 2, 3), r((2, 5, 3), np.float64), np.array([[1], [4]], np.int32))
    g(G(offset_dims=(2, 3), collapsed_slice_dims=(0,), start_index_map=(0, 2)), (1, 2, 1), r((4, 2, 3), np.int8), np.array([[[1, 2], [3, 0]], [[0, 0], [2, 9]]], np.int32))
    # operand/start-indices batching dims (batch of rows, one column each).
    g(G(offset_dims=(), collapsed_slice_dims=(1,), start_index_map=(1,), operand_batching_dims=(0,), start_indices_batching_dims=(0,)), (1, 1), r((3, 5), np.float32), np.array([[4], [0], [2]], np.int32))
    g(G(offset_dims=(2,), collapsed_slice_dims=(1,), start_index_map=(1,), operand_batching_dims=(0,), start_indices_batching_dims=(1,)), (1, 1, 2), r((2, 4, 2), np.int64), np.array([[[3], [1]], [[0], [2]], [[1], [1]]], np.int32))
    # index_vector_dim not last (the first dimension holds the index vectors).
    out.append(c.case(lambda x, i: lax.gather(x, i, G(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,)), (1, 3), mode=clip), r((4, 3), np.bool_), np.array([[3, 1, 0]], np.int32).T))
    out.append(c.case(lambda x, i: x[i], r((5, 2), np.complex64), np.array([4, 0, 2], np.int32)))
    out.append(c.case(lambda x, i: x[:, i], r((2, 6), np.uint32), np.array([[1, 5], [0, 0]], np.int32)))
    # empty indices
    g(G(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,)), (1, 2), r((3, 2), np.float32), np.zeros((0, 1), np.int32))
    # torch_index_select (hand-written; expected from np.take)
    x = r((3, 4), np.float32)
    idx = np.array([2, 0, 2], np.int32)
    body = '  %r0 = "stablehlo.torch_index_select"(%in0, %in1) {dim = 1 : i64, batch_dims = 0 : i64} : (tensor<3x4xf32>, tensor<3xi32>) -> tensor<3x3xf32>\n'
    out.append(hand(body, [x, idx], [np.take(x, idx, axis=1)], [0]))
    return out


def scatter_cases(c):
    lax, r = c.lax, c.rand
    S = lax.ScatterDimensionNumbers
    drop = lax.GatherScatterMode.FILL_OR_DROP
    out = []
    dn1 = S(update_window_dims=(), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,))
    idx = np.array([[1], [3], [1], [9], [-1]], np.int32)
    for op, dt in [(lax.scatter_add, np.int32), (lax.scatter_add, np.float32), (lax.scatter_mul, np.int64), (lax.scatter_min, np.float64), (lax.scatter_max, np.uint8), (lax.scatter, np.int16)]:
        upd = r((5,), dt, 1, 5)
        out.append(c.case(lambda x, i, u: op(x, i, u, dn1, mode=drop), r((4,), dt, 1, 5), idx, upd))
    # windows: update rows of a matrix
    dn2 = S(update_window_dims=(1,), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,))
    out.append(c.case(lambda x, i, u: lax.scatter_add(x, i, u, dn2, mode=drop), r((3, 4), np.float32), np.array([[2], [0], [2]], np.int32), r((3, 4), np.float32)))
    # partial windows along dim 1, 2-D indices
    dn3 = S(update_window_dims=(1,), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0, 1))
    out.append(c.case(lambda x, i, u: lax.scatter(x, i, u, dn3, mode=drop, indices_are_sorted=True, unique_indices=True), r((4, 5), np.int32), np.array([[0, 1], [3, 3]], np.int32), r((2, 2), np.int32)))
    # batching dims
    dn4 = S(update_window_dims=(), inserted_window_dims=(1,), scatter_dims_to_operand_dims=(1,), operand_batching_dims=(0,), scatter_indices_batching_dims=(0,))
    out.append(c.case(lambda x, i, u: lax.scatter_add(x, i, u, dn4, mode=drop), r((3, 4), np.int64), np.array([[[1], [1]], [[0], [3]], [[2], [0]]], np.int32), r((3, 2), np.int64)))
    out.append(c.case(lambda x, i, u: x.at[i].add(u), r((6,), np.complex64), np.array([5, 0, 5], np.int32), r((3,), np.complex64)))
    out.append(c.case(lambda x, i, u: x.at[i].set(u), r((3, 2), np.bool_), np.array([2, 0], np.int32), r((2, 2), np.bool_)))
    # multi-operand scatter (hand-written; expected from a NumPy loop): adds to both inputs at once.
    a = np.array([1, 2, 3, 4], np.int32)
    b = np.array([10, 20, 30, 40], np.int32)
    ii = np.array([[0], [2], [0], [7]], np.int32)
    ua = np.array([1, 1, 1, 1], np.int32)
    ub = np.array([5, 6, 7, 8], np.int32)
    ea, eb = a.copy(), b.copy()
    for k in range(4):
        j = ii[k, 0]
        if 0 <= j < 4:
            ea[j] += ua[k]
            eb[j] *= ub[k]
    body = """  %r0, %r1 = "stablehlo.scatter"(%in0, %in1, %in2, %in3, %in4) ({
  ^bb0(%a0: tensor<i32>, %b0: tensor<i32>, %a1: tensor<i32>, %b1: tensor<i32>):
    %s = stablehlo.add %a0, %a1 : tensor<i32>
    %m = stablehlo.multiply %b0, %b1 : tensor<i32>
    stablehlo.return %s, %m : tensor<i32>, tensor<i32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, indices_are_sorted = false, unique_indices = false} : (tensor<4xi32>, tensor<4xi32>, tensor<4x1xi32>, tensor<4xi32>, tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>)
"""
    out.append(hand(body, [a, b, ii, ua, ub], [ea, eb]))
    return out


def dot_cases(c):
    lax, r, jnp = c.lax, c.rand, c.jnp
    out = []
    dg = lax.dot_general
    for dt in [np.float32, np.float64, np.int32, np.complex64, np.complex128, np.float16, c.bf16, np.uint8]:
        out.append(c.case(lambda a, b: dg(a, b, (((1,), (0,)), ((), ()))), r((3, 4), dt, 0, 4), r((4, 2), dt, 0, 4)))
    out.append(c.case(lambda a, b: dg(a, b, (((2,), (1,)), ((0,), (0,)))), r((2, 3, 4), np.float32), r((2, 4, 5), np.float32)))
    out.append(c.case(lambda a, b: dg(a, b, (((0, 2), (3, 1)), ((1,), (2,)))), r((2, 3, 4, 2), np.float64), r((2, 4, 3, 2), np.float64)))
    out.append(c.case(lambda a, b: dg(a, b, (((1,), (0,)), ((), ())), preferred_element_type=np.int32), r((2, 3), np.int8, -100, 100), r((3, 2), np.int8, -100, 100)))
    out.append(c.case(lambda a, b: dg(a, b, (((1,), (0,)), ((), ())), preferred_element_type=np.float32), r((2, 3), c.bf16), r((3, 2), c.bf16)))
    out.append(c.case(lambda a, b: dg(a, b, (((1,), (0,)), ((), ()))), r((2, 0), np.float32), r((0, 3), np.float32)))
    out.append(c.case(lambda a, b: dg(a, b, (((), ()), ((), ()))), r((2,), np.int64), r((3,), np.int64)))
    out.append(c.case(lambda a, b: dg(a, b, (((5,), (0,)), ((0, 1), (1, 2)))), r((2, 1, 2, 1, 2, 3), np.float32), r((3, 2, 1, 2), np.float32)))
    # integer wraparound
    out.append(c.case(lambda a, b: dg(a, b, (((1,), (0,)), ((), ()))), np.array([[2**30, 3]], np.int32), np.array([[4], [5]], np.int32)))
    out.append(c.case(lambda a, b: jnp.einsum("bij,bjk->bki", a, b), r((2, 3, 4), np.float32), r((2, 4, 2), np.float32)))
    x = r((2, 3), np.float32)
    y = r((3, 2), np.float32)
    body = '  %r0 = "stablehlo.dot"(%in0, %in1) : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>\n'
    out.append(hand(body, [x, y], [(x.astype(np.float64) @ y.astype(np.float64)).astype(np.float32)], [1e-5]))
    body = '  %r0 = "stablehlo.einsum"(%in0, %in1) {einsum_config = "ab,bc->ca"} : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>\n'
    out.append(hand(body, [x, y], [(x.astype(np.float64) @ y.astype(np.float64)).T.astype(np.float32)], [1e-5]))
    body = '  %r0 = "stablehlo.unary_einsum"(%in0) {einsum_config = "ab->b"} : (tensor<2x3xf32>) -> tensor<3xf32>\n'
    out.append(hand(body, [x], [x.astype(np.float64).sum(0).astype(np.float32)], [1e-5]))
    return out


def conv_cases(c):
    lax, r = c.lax, c.rand
    out = []
    cg = lax.conv_general_dilated

    def conv(lhs, rhs, **kw):
        out.append(c.case(lambda a, b: cg(a, b, **kw), lhs, rhs))

    conv(r((1, 1, 5, 5), np.float32), r((1, 1, 3, 3), np.float32), window_strides=(1, 1), padding="VALID")
    conv(r((2, 3, 6, 5), np.float32), r((4, 3, 3, 2), np.float32), window_strides=(2, 1), padding=((1, 2), (0, -1)))
    conv(r((1, 5, 5, 2), np.float64), r((3, 3, 2, 3), np.float64), window_strides=(1, 1), padding="SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
    conv(r((2, 4, 4, 1), np.float32), r((2, 2, 1, 1), np.float32), window_strides=(1, 1), padding=((0, 0), (0, 0)), lhs_dilation=(2, 2), rhs_dilation=(1, 2), dimension_numbers=("NHWC", "HWIO", "NHWC"))
    conv(r((1, 4, 7), np.float32), r((6, 2, 3), np.float32), window_strides=(1,), padding=((1, 1),), feature_group_count=2)
    conv(r((4, 2, 6), np.float32), r((4, 2, 3), np.float32), window_strides=(1,), padding="VALID", batch_group_count=2)
    conv(r((1, 2, 4, 3, 3), np.float32), r((2, 2, 2, 2, 2), np.float32), window_strides=(1, 2, 1), padding="SAME")
    conv(r((3, 1, 2, 4), np.float32), r((2, 1, 2, 3), np.float32), window_strides=(1, 1), padding="VALID", dimension_numbers=("HNCW", "OHIW", "WCNH"))
    conv(r((1, 2, 5), np.int32), r((3, 2, 2), np.int32), window_strides=(1,), padding="VALID")
    conv(r((1, 2, 5), np.float16), r((3, 2, 2), np.float16), window_strides=(2,), padding=((2, 2),), rhs_dilation=(2,))
    conv(r((1, 1, 0), np.float32), r((1, 1, 2), np.float32), window_strides=(1,), padding="VALID")
    # window reversal: JAX never emits it; the case is conv(x, w) with `reverse` added to the window,
    # checked against JAX's conv(x, flip(w)).
    x = r((1, 1, 4, 4), np.float32)
    w = r((1, 1, 3, 2), np.float32)
    import jax

    text = jax.jit(lambda a, b: cg(a, b, (1, 1), "VALID")).lower(x, w).as_text(debug_info=False)
    assert "reverse = [false, false]" in text, text
    text = text.replace("reverse = [false, false]", "reverse = [true, false]")
    from mlir_lit import wrap_lowered

    want = np.asarray(jax.jit(lambda a, b: cg(a, b, (1, 1), "VALID"))(x, w[:, :, ::-1, :]))
    out.append(wrap_lowered(text, [x, w], [want], [2e-5]))
    return out


FILES = [
    ("data_movement", "broadcast_in_dim, reshape, transpose, slice, dynamic_slice, dynamic_update_slice, concatenate, pad, reverse, iota, get_dimension_size", data_movement),
    ("gather", "gather (all dimension numbers, batching dims, clamping) and torch_index_select", gather_cases),
    ("scatter", "scatter: combiners, windows, batching dims, dropped out-of-bounds updates, multi-operand", scatter_cases),
    ("dot_general", "dot_general, dot, einsum, unary_einsum", dot_cases),
    ("convolution", "convolution: dimension permutations, strides, padding, dilations, groups, reversal", conv_cases),
]

try:
    from gen_heavy_cases2 import FILES as MORE  # noqa: E402

    FILES += MORE
except ImportError:
    pass

_ = functools, tensor_type
