"""Shared checks for rule tests: a rule's cotangents against central differences
(float64), float32 staying float32, inputs left untouched, integers not
differentiated. Gradients come from tests/fd.py, never from runtime code."""
import copy

import numpy as np
import pytest

import runtime
from tests.fd import assert_close, numerical_grad


class Missing:
    """Stands for a NumPy function this NumPy does not have (see `newer`)."""

    def __init__(self, path):
        self.path = path
        self.__name__ = path.rsplit(".", 1)[-1]

    def __repr__(self):
        return f"np.{self.path} (not in NumPy {np.__version__})"


def newer(path):
    """np.<path> for a function added in NumPy 2.x ("linalg.vecdot", "matvec"), or a
    Missing stand-in where this NumPy lacks it: `case` makes that a skipped test."""
    fn = np
    for part in path.split("."):
        fn = getattr(fn, part, None)
        if fn is None:
            return Missing(path)
    return fn


def needs(version, param, why):
    """`param` (a case) skipped on a NumPy older than `version` ("2.1"), where the call
    fails or means something else (`why`)."""
    older = np.lib.NumpyVersion(np.__version__) < f"{version}.0"
    return pytest.param(*param.values, id=param.id, marks=[
        *param.marks, pytest.mark.skipif(older, reason=f"NumPy < {version}: {why}")])


def available(fns):
    """The entries of `fns` (functions, or tuples starting with one) this NumPy has."""
    return [f for f in fns if not isinstance(f[0] if isinstance(f, tuple) else f, Missing)]


def case(fn, *args, id=None, **kwargs):
    """A parametrize entry: fn(*args, **kwargs), named after fn unless `id` is given;
    skipped for a function this NumPy does not have."""
    name = getattr(fn, "__name__", "fn")
    extra = "-".join(f"{k}={_label(v)}" for k, v in kwargs.items())
    marks = [pytest.mark.skip(reason=repr(fn))] if isinstance(fn, Missing) else []
    return pytest.param(fn, args, kwargs, id=id or (f"{name}-{extra}" if extra else name),
                        marks=marks)


def _label(v):
    return f"array{np.shape(v)}" if isinstance(v, np.ndarray) else repr(v)


def rand(*shape, seed=0, low=-1.0, high=1.0):
    """Float64 values in [low, high): away from kinks when the interval is."""
    return np.random.default_rng([seed, len(shape), *shape]).uniform(low, high, shape)


def spd(n, seed=0, batch=()):
    """A well-conditioned symmetric positive-definite matrix (or a stack of them)."""
    m = rand(*batch, n, n, seed=seed)
    return m @ np.swapaxes(m, -1, -2) + n * np.eye(n)


def is_float(x):
    if isinstance(x, (list, tuple)):
        return len(x) > 0 and all(is_float(e) for e in x)
    if isinstance(x, bool):
        return False
    return isinstance(x, float) or (isinstance(x, (np.ndarray, np.generic))
                                    and np.issubdtype(x.dtype, np.floating))


def is_int(x):
    if isinstance(x, (bool, np.bool_)):
        return False
    return isinstance(x, (int, np.integer)) or (isinstance(x, np.ndarray)
                                                and np.issubdtype(x.dtype, np.integer))


def frozen(x):
    """A read-only copy of x (lists and tuples copied element by element)."""
    if isinstance(x, (list, tuple)):
        return type(x)(frozen(e) for e in x)
    if isinstance(x, np.ndarray):
        x = x.copy()
        x.setflags(write=False)
    return x


def as_float32(x):
    if isinstance(x, (list, tuple)):
        return type(x)(as_float32(e) for e in x)
    if isinstance(x, (np.ndarray, np.float64)) and x.dtype == np.float64:
        return x.astype(np.float32)
    return x


def random_like(out, seed=1):
    """A random cotangent shaped (and typed) like the output; tuples give tuples."""
    if isinstance(out, (tuple, list)):
        return tuple(random_like(o, seed + k) for k, o in enumerate(out))
    values = np.random.default_rng(seed).standard_normal(np.shape(out))
    dtype = out.dtype if isinstance(out, (np.ndarray, np.generic)) else np.float64
    values = values.astype(dtype)
    return values if values.ndim else values[()]


def pairing(out, G):
    """<G, out>, the scalar whose gradient is the vector-Jacobian product."""
    if isinstance(out, (tuple, list)):
        return sum(pairing(o, g) for o, g in zip(out, G) if g is not None)
    return float(np.sum(np.asarray(out, dtype=np.float64) * G))


def _leaves(x):
    return list(enumerate(x)) if isinstance(x, (list, tuple)) else [(None, x)]


def _replace(args, k, j, value):
    args = list(args)
    if j is None:
        args[k] = value
    else:
        seq = list(args[k])
        seq[j] = value
        args[k] = type(args[k])(seq)
    return args


def expected_vjp(f, args, k, j, G):
    leaf = args[k] if j is None else args[k][j]
    return numerical_grad(lambda v: pairing(f(*_replace(args, k, j, v)), G), [leaf], 0)


def check_rule(fn, args, kwargs=None, argnums=None, fd=None, G=None, rtol=1e-5, atol=1e-7,
               integers_none=True):
    """Check fn's rule on float64 inputs: every differentiable argument's cotangent
    matches central differences of <G, fd(*args)> (fd defaults to fn; a None
    cotangent must match a zero gradient); integer arguments (indices, counts,
    axes) get None; inputs are unchanged and never returned as cotangents."""
    kwargs = kwargs or {}
    args = [frozen(a) for a in args]
    before = copy.deepcopy(args)
    rule = runtime.lookup(fn)
    assert rule is not None, f"no rule for {fn}"
    out, pullback = rule.rrule(*args, **kwargs)
    G = random_like(out) if G is None else G
    cots = pullback(G)
    assert len(cots) == len(args)
    f = fd or (lambda *a: fn(*a, **kwargs))
    if argnums is None:
        argnums = [k for k, a in enumerate(args) if is_float(a)]
    for k in argnums:
        cot = runtime.unthunk(cots[k])
        if cot is None:  # a zero cotangent
            for j, leaf in _leaves(args[k]):
                assert_close(0 * np.asarray(leaf), expected_vjp(f, args, k, j, G), atol=atol)
            continue
        if isinstance(args[k], (list, tuple)):
            assert len(cot) == len(args[k])
        for j, leaf in _leaves(args[k]):
            got = runtime.unthunk(cot if j is None else cot[j])
            assert got is not leaf, "an input was returned as its own cotangent"
            if got is None:  # a zero part
                got = 0 * np.asarray(leaf)
            assert np.shape(got) == np.shape(leaf)
            assert_close(got, expected_vjp(f, args, k, j, G), rtol=rtol, atol=atol)
    for k, a in enumerate(args):
        if integers_none and is_int(a):
            assert runtime.unthunk(cots[k]) is None, f"integer argument {k} was differentiated"
    for a, b in zip(args, before):
        for (_, x), (_, y) in zip(_leaves(a), _leaves(b)):
            np.testing.assert_array_equal(x, y)


def check_float32(fn, args, kwargs=None, argnums=None):
    """float32 inputs give float32 cotangents (no silent upcast), unless NumPy
    itself returns float64 (np.dot of a Python float and a float32 array)."""
    kwargs = {k: as_float32(v) for k, v in (kwargs or {}).items()}
    args = [frozen(as_float32(a)) for a in args]
    out, pullback = runtime.lookup(fn).rrule(*args, **kwargs)
    outputs = out if isinstance(out, (tuple, list)) else [out]
    if np.float64 in [np.asarray(o).dtype for o in outputs]:
        return
    cots = pullback(random_like(out))
    if argnums is None:
        argnums = [k for k, a in enumerate(args) if is_float(a)]
    for k in argnums:
        cot = runtime.unthunk(cots[k])
        if cot is None:  # zero
            continue
        for (j, leaf) in _leaves(args[k]):
            got = runtime.unthunk(cot if j is None else cot[j])
            if isinstance(leaf, np.ndarray):
                assert np.asarray(got).dtype == np.float32, f"argument {k}: {np.asarray(got).dtype}"
