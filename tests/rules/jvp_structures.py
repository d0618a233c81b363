"""Tangents, cotangents and pairings over the structures rules take and give (for
tests/rules/test_jvp_rules.py): arrays and numbers (complex ones too), lists, tuples,
dicts by key, dict views as lists, a functools.partial as (func, args, keywords), a
closure record as its environment, a plain object as its attributes; None is a zero.

The pairing is Re <a, b> = Re sum(a * b), no conjugate: the cotangent convention of
docs/complex.md (dL = Re(z_bar dz)), under which a JVP and its VJP are transposes."""
import copy
import functools

import numpy as np

from runtime.closures import Closure
from tests.fd import assert_close

_VIEWS = (type({}.values()), type({}.items()), type({}.keys()))


def plain(value):
    """value as lists, tuples, dicts and arrays only (see the module docstring)."""
    if isinstance(value, _VIEWS):
        return [plain(v) for v in value]
    if isinstance(value, functools.partial):
        func = plain(value.func) if isinstance(value.func, Closure) else None
        return (func, plain(value.args), plain(value.keywords))
    if isinstance(value, Closure):
        return plain(value.env)
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(plain(v) for v in value) if not hasattr(value, "_fields") \
            else tuple(plain(v) for v in value)
    if hasattr(value, "__dict__") and not isinstance(value, (np.ndarray, np.generic)):
        return plain(dict(vars(value)))
    return value


def like(value, seed):
    """A random value shaped and typed like `value` (complex entries get a random
    imaginary part; what is not a float or complex number or array gives None; a
    NamedTuple or a plain object gives one of its class holding its entries' tangents,
    forward mode's convention)."""
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return type(value)(*[like(v, seed + k) for k, v in enumerate(value)])
    if _is_object(value):
        new = copy.copy(value)
        for n, (k, v) in enumerate(vars(value).items()):
            object.__setattr__(new, k, like(v, seed + 7 * n))
        return new
    value = plain(value)
    if isinstance(value, dict):
        return {k: like(v, seed + 7 * n) for n, (k, v) in enumerate(value.items())}
    if isinstance(value, (list, tuple)):
        return type(value)(like(v, seed + k) for k, v in enumerate(value))
    if not isinstance(value, (float, complex, np.ndarray, np.generic)) or \
            isinstance(value, (bool, np.bool_)) or np.asarray(value).dtype.kind not in "fc":
        return None
    rng = np.random.default_rng(seed)
    out = rng.standard_normal(np.shape(value))
    if np.iscomplexobj(value):
        out = out + 1j * rng.standard_normal(np.shape(value))
    if isinstance(value, (float, complex)):
        return complex(out) if isinstance(value, complex) else float(out)
    return out.astype(np.asarray(value).dtype)


def _is_object(value):
    return hasattr(value, "__dict__") and not isinstance(
        value, (np.ndarray, np.generic, type, functools.partial, Closure)) and \
        not callable(value)


def pairing(a, b):
    """Re <a, b> over matching structures, None standing for zero."""
    a, b = plain(a), plain(b)
    if a is None or b is None:
        return 0.0
    if isinstance(a, dict):
        return sum(pairing(v, b.get(k)) for k, v in a.items()) if isinstance(b, dict) else 0.0
    if isinstance(a, (list, tuple)):
        return sum(pairing(x, y) for x, y in zip(a, b))
    if isinstance(a, str) or isinstance(b, str):
        return 0.0
    return float(np.real(np.sum(np.asarray(a) * np.asarray(b))))


def zero_or(tangent, like_value):
    """tangent with None replaced by zeros of like_value's structure."""
    tangent, like_value = plain(tangent), plain(like_value)
    if isinstance(like_value, dict):
        tangent = {} if tangent is None else tangent
        return {k: zero_or(tangent.get(k), v) for k, v in like_value.items()}
    if isinstance(like_value, (list, tuple)):
        tangent = [None] * len(like_value) if tangent is None else tangent
        return [zero_or(t, v) for t, v in zip(tangent, like_value)]
    if isinstance(like_value, str) or like_value is None:
        return None
    if tangent is None:
        return 0 * np.asarray(like_value, dtype=np.result_type(like_value, 1.0))
    return tangent


def assert_all_close(got, want, rtol=1e-5, atol=1e-7):
    """got and want entry by entry (dicts by key), complex parts apart."""
    got, want = plain(got), plain(want)
    if isinstance(want, dict):
        assert set(got) == set(want), (sorted(got), sorted(want))
        for k in want:
            assert_all_close(got[k], want[k], rtol, atol)
    elif isinstance(want, (list, tuple)):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert_all_close(g, w, rtol, atol)
    elif want is None or isinstance(want, str):
        assert got is None or isinstance(got, str)
    else:
        assert np.shape(got) == np.shape(want), (np.shape(got), np.shape(want))
        assert_close(np.real(got), np.real(want), rtol=rtol, atol=atol)
        assert_close(np.imag(got), np.imag(want), rtol=rtol, atol=atol)
