"""The suite's one reference: central finite differences in float64 and the comparison
every check ends in. It calls only the plain function (never the compiler or runtime);
tests/harness/test_reference.py tests it against analytic derivatives, and
tests/harness/test_reference_checks.py that the harness rejects every kind of wrong answer.

    numerical_grad(f, (x, y), 0)            d f / d x  (x a float or an array)
    numerical_tree_grad(f, (params,), 0)    {path: d f / d leaf} for a container argument
    numerical_vjp(f, args, 0, cot)          <cot, d f / d x> for any output shape
    directional(f, args, 0, v)              d/dt f(x + t v) at t = 0
    numerical_jvp(f, args, 0, v)            the same, output by output (the tangent J v)
    assert_close(got, want)                 same shape, |got - want| <= atol + rtol |want|
    close(got, want)                        the same test as a bool (the fuzz oracle's)
"""
import copy

import numpy as np

from tests.trees import float_leaves, with_leaf

EPS = 1e-6


def numerical_grad(f, args, argnum, eps=EPS):
    """d sum(f(*args)) / d args[argnum] by central differences (a float or an array)."""
    args = list(args)
    x = args[argnum]
    if isinstance(x, (float, int, np.floating)) and not isinstance(x, (bool, np.bool_)):
        return _central(lambda t: _scalar(f, _replaced(args, argnum, float(x) + t)), eps)
    x = np.asarray(x, dtype=np.float64)
    out = np.zeros_like(x)
    for k in np.ndindex(x.shape):
        out[k] = _central(lambda t: _scalar(f, _replaced(args, argnum, _moved(x, k, t))), eps)
    return out


def numerical_vjp(f, args, argnum, cotangent, eps=EPS):
    """<cotangent, d f / d args[argnum]> by central differences, for any output shape."""
    return numerical_grad(_weighted(f, cotangent), args, argnum, eps)


def numerical_tree_grad(f, args, argnum, eps=EPS):
    """{path: d f / d leaf} for every float leaf of args[argnum] (trees.float_leaves)."""
    args = list(args)
    out = {}
    for path, leaf in float_leaves(args[argnum]):
        def at(v, path=path):
            return f(*_replaced(args, argnum, with_leaf(args[argnum], path, v)))
        value = float(leaf) if isinstance(leaf, (float, np.floating)) else leaf
        out[path] = numerical_grad(at, [value], 0, eps=eps)
    return out


def numerical_tree_vjp(f, args, argnum, cotangent, eps=EPS):
    return numerical_tree_grad(_weighted(f, cotangent), args, argnum, eps)


def directional(f, args, argnum, direction, eps=EPS):
    """d/dt sum(f(args with args[argnum] + t * direction)) at t = 0."""
    x = np.asarray(args[argnum], dtype=np.float64)
    if isinstance(args[argnum], float):
        x = float(x)
    return _central(lambda t: _scalar(f, _replaced(list(args), argnum, x + t * direction)),
                    eps)


def numerical_jvp(f, args, argnum, tangent, eps=EPS):
    """d/dt f(args with args[argnum] + t * tangent) at t = 0, shaped like f's output (a
    tuple, list or dict of outputs, and a list, tuple or dict argument, entry by entry)."""
    args = list(args)
    plus = f(*_replaced(args, argnum, _step(args[argnum], tangent, eps)))
    minus = f(*_replaced(args, argnum, _step(args[argnum], tangent, -eps)))
    return _difference(plus, minus, eps)


def _step(x, tangent, eps):
    if tangent is None:                             # a key, a flag: held
        return x
    if isinstance(x, dict):                         # a dict argument, key by key
        return {k: _step(v, tangent[k], eps) for k, v in x.items()}
    if isinstance(x, tuple) and hasattr(x, "_fields"):         # a NamedTuple, by field
        return type(x)(*[_step(a, t, eps) for a, t in zip(x, tangent)])
    if hasattr(x, "__dict__") and not isinstance(x, (np.ndarray, np.generic)):
        moved = copy.copy(x)                        # an object: attribute by attribute
        for k, v in vars(x).items():
            object.__setattr__(moved, k, _step(v, getattr(tangent, k, None), eps))
        return moved
    if isinstance(x, (list, tuple)):
        return _like(x, [_step(a, t, eps) for a, t in zip(x, tangent)])
    if isinstance(x, float) and not isinstance(tangent, complex):
        return float(x) + eps * float(tangent)
    kind = _kind(x, tangent)                        # complex values keep their imaginary part
    return np.asarray(x, dtype=kind) + eps * np.asarray(tangent, dtype=kind)


def _kind(*values):
    return np.complex128 if any(np.iscomplexobj(v) for v in values) else np.float64


def _difference(plus, minus, eps):
    if isinstance(plus, dict):
        return {k: _difference(v, minus[k], eps) for k, v in plus.items()}
    if isinstance(plus, (list, tuple)):
        return _like(plus, [_difference(p, m, eps) for p, m in zip(plus, minus)])
    if isinstance(plus, str) or plus is None:
        return None
    kind = _kind(plus, minus)
    return (np.asarray(plus, dtype=kind) - np.asarray(minus, dtype=kind)) / (2 * eps)


def _like(seq, entries):
    """entries in seq's kind: a list or a tuple (a named tuple's fields as a tuple)."""
    return list(entries) if isinstance(seq, list) else tuple(entries)


def mismatches(actual, expected, rtol, atol):
    """A boolean array, True where |actual - expected| > atol + rtol |expected| (NaN is a
    mismatch, equal infinities are not); None when the shapes differ."""
    got = np.asarray(actual, dtype=np.float64)
    want = np.asarray(expected, dtype=np.float64)
    if got.shape != want.shape:
        return None
    with np.errstate(invalid="ignore"):
        return ~((got == want) | (np.abs(got - want) <= atol + rtol * np.abs(want)))


def close(actual, expected, rtol=1e-5, atol=1e-7):
    """Whether actual has expected's shape and matches it within the tolerances."""
    bad = mismatches(actual, expected, rtol, atol)
    return bad is not None and not np.any(bad)


def assert_close(actual, expected, rtol=1e-5, atol=1e-7, what="value"):
    """actual has expected's shape and every |actual - expected| <= atol + rtol |expected|."""
    __tracebackhide__ = True
    got = np.asarray(actual, dtype=np.float64)
    want = np.asarray(expected, dtype=np.float64)
    bad = mismatches(got, want, rtol, atol)
    if bad is None:
        raise AssertionError(f"{what}: shape {got.shape}, expected {want.shape}")
    if np.any(bad):
        k = np.unravel_index(int(np.argmax(bad)), bad.shape) if bad.ndim else ()
        raise AssertionError(f"{what}: {int(bad.sum())} of {bad.size} elements differ; "
                             f"at {k}: got {got[k]!r}, expected {want[k]!r} "
                             f"(rtol={rtol}, atol={atol})\ngot:\n{got}\nexpected:\n{want}")


def _central(at, eps):
    """(at(eps) - at(-eps)) / (2 eps): the central difference of a function of t."""
    return (at(eps) - at(-eps)) / (2 * eps)


def _scalar(f, args):
    return float(np.sum(np.asarray(f(*args), dtype=np.float64)))


def _weighted(f, cotangent):
    return lambda *a: np.sum(np.asarray(f(*a), dtype=np.float64) * cotangent)


def _replaced(args, k, value):
    """args with argument k replaced; the others copied, so a function that writes into
    its arguments (as the primal may) cannot change what later evaluations see."""
    trial = [copy.deepcopy(a) for a in args]
    trial[k] = value
    return trial


def _moved(x, index, t):
    trial = x.copy()
    trial[index] += t
    return trial
