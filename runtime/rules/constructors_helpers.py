"""Template helpers for arrays filled from values: np.full's fill value and the
endpoints of np.linspace, np.geomspace and np.logspace.

Sample k of linspace is `start * (1 - t) + stop * t` with the fixed fraction
`t = k / div`; geomspace is `start ** (1 - t) * stop ** t` and logspace
`base ** linspace(start, stop)`, so their cotangents weigh `g` by the sample.
An integer output is piecewise constant in every value: no cotangent.
"""
import numpy as np

from ..helpers import unbroadcast
from ..registry import template_helper


def _inexact(ans):
    return np.issubdtype(np.asarray(ans).dtype, np.inexact)


@template_helper
def fill_vjp(g, ans, fill_value):
    """Cotangent of np.full's fill value: every entry of `g`, summed to its shape."""
    return unbroadcast(g, fill_value) if _inexact(ans) else None


def _fraction(num, endpoint, axis, ndim, dtype):
    """t = k / div along `axis` of an ndim-axis output (numpy's div, 0 when num < 2)."""
    div = num - 1 if endpoint else num
    t = np.arange(num, dtype=dtype) / div if div > 0 else np.zeros(num, dtype)
    shape = [1] * ndim
    shape[axis] = num
    return t.reshape(shape)


def _end_weight(t, end):
    return t if end else 1 - t


@template_helper
def linspace_vjp(g, ans, start, stop, num, endpoint, retstep, axis, end):
    """Cotangent of np.linspace's start (end=0) or stop (end=1); with retstep, `ans`
    and `g` are (samples, step) pairs, and step = (stop - start) / div."""
    g_step = None
    if retstep:
        (g, g_step), ans = g, ans[0]
    if not _inexact(ans):
        return None
    weight = _end_weight(_fraction(num, endpoint, axis, np.ndim(ans), ans.dtype), end)
    cot = 0.0 if g is None else np.sum(np.asarray(g) * weight, axis=axis)
    div = num - 1 if endpoint else num
    if g_step is not None and div > 0:
        cot = cot + (g_step if end else -g_step) / div
    return unbroadcast(cot, stop if end else start)


@template_helper
def geomspace_vjp(g, ans, start, stop, num, endpoint, axis, end):
    """Cotangent of np.geomspace's start (end=0) or stop (end=1): d sample / d start
    is sample * (1 - t) / start, d sample / d stop is sample * t / stop."""
    if not _inexact(ans):
        return None
    weight = _end_weight(_fraction(num, endpoint, axis, np.ndim(ans), ans.dtype), end)
    value = stop if end else start
    cot = np.sum(np.asarray(g) * ans * weight, axis=axis) / value
    return unbroadcast(cot, value)


def _log_base_and_exponent(start, stop, num, endpoint, base, axis):
    """(base as numpy broadcasts it, the linspace exponent), as np.logspace computes them."""
    if np.ndim(base):
        ndmax = np.broadcast(start, stop, base).ndim
        start, stop, base = (np.array(a, ndmin=ndmax) for a in (start, stop, base))
        base = np.expand_dims(base, axis=axis)
    return base, np.linspace(start, stop, num=num, endpoint=endpoint, axis=axis)


@template_helper
def logspace_vjp(g, ans, start, stop, num, endpoint, base, axis, end):
    """Cotangent of np.logspace's start (end=0), stop (end=1) or base (end=2):
    sample = base ** y, y the linspace exponent."""
    if not _inexact(ans):
        return None
    gs = np.asarray(g) * ans
    full_base, exponent = _log_base_and_exponent(start, stop, num, endpoint, base, axis)
    if end == 2:
        return unbroadcast(np.sum(gs * exponent / full_base, axis=axis), base)
    weight = _end_weight(_fraction(num, endpoint, axis, np.ndim(ans), ans.dtype), end)
    cot = np.sum(gs * np.log(full_base) * weight, axis=axis)
    endpoint_value = stop if end else start
    if isinstance(endpoint_value, np.ndarray) and endpoint_value.dtype.kind == "f":
        cot = cot.astype(endpoint_value.dtype, copy=False)   # base's float64 log upcasts
    return unbroadcast(cot, endpoint_value)
