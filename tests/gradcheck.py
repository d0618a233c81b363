"""The suite's harness: compiled gradients and VJPs against the finite-difference
reference (tests/fd.py), on read-only inputs that must be left unchanged, with gradients
shaped and typed like their arguments (containers included).

    check_grad(f, [W, x], wrt=(0,), policy="flat")   grad vs finite differences
    check_vjp(f, [W, x], wrt=(0,))                   vjp with a random cotangent
    check_function(f, args, wrt, policy)             grad or vjp, by the output's shape

POLICIES is the product's own list (transform.analysis.accumulation); rng(...) is the one seeded
generator helper: each test draws from its own stream, so inputs never depend on which
tests ran before.
"""
import copy
import dataclasses
import inspect
import zlib

import numpy as np

from tests.fd import (EPS, assert_close, directional, numerical_grad, numerical_tree_grad,
                      numerical_tree_vjp, numerical_vjp)
from tests.trees import get_path, is_object
from transform import grad, vjp
from transform.analysis.accumulation import POLICIES


def rng(*key):
    """A fresh generator seeded by `key` (ints and strings): rng("corpus.f"), rng(3, 4)."""
    seeds = [k if isinstance(k, int) else zlib.crc32(str(k).encode()) for k in key]
    return np.random.default_rng(seeds or [0])


def readonly(args):
    """Copies of the arguments whose arrays (also inside tuples, lists, dicts) are
    read-only: writing into an argument raises instead of passing silently."""
    return [_readonly(a) for a in args]


def _readonly(a):
    if isinstance(a, np.ndarray):
        a = a.copy()
        a.setflags(write=False)
        return a
    if isinstance(a, (tuple, list)) and type(a) in (tuple, list):
        return type(a)(_readonly(v) for v in a)
    if isinstance(a, dict):
        return {k: _readonly(v) for k, v in a.items()}
    return a


def is_float_arg(a):
    """A float or a float array (the arguments differentiated when wrt is not given)."""
    if isinstance(a, bool):
        return False
    return isinstance(a, float) or isinstance(a, np.ndarray) and a.dtype.kind == "f"


def check_grad(f, args, wrt=None, policy=None, rtol=1e-5, atol=1e-7, eps=EPS, kwargs=None):
    """grad(f, wrt, policy)(*args) against finite differences, argument by argument.

    wrt: None (every float argument), an index or name (one gradient returned as it is),
    or a tuple/list of them (a tuple returned)."""
    __tracebackhide__ = True
    args, kwargs = readonly(args), kwargs or {}
    before = _snapshot(args)
    wrt = _wrt(args, wrt)
    got = grad(f, wrt=wrt, policy=policy)(*args, **kwargs)
    gots = got if isinstance(wrt, tuple) else (got,)
    assert isinstance(gots, tuple) and len(gots) == len(_items(wrt)), got
    plain = _plain(f, kwargs)
    for k, g in zip(_positions(f, wrt), gots):
        _compare(g, args, k, numerical_grad, numerical_tree_grad, plain, (), rtol, atol, eps)
    _assert_unchanged(before, args)
    return got


def check_vjp(f, args, wrt=None, policy=None, seed=0, rtol=1e-5, atol=1e-7, kwargs=None):
    """vjp(f, *args, wrt) with a random cotangent against finite differences."""
    __tracebackhide__ = True
    args, kwargs = readonly(args), kwargs or {}
    before = _snapshot(args)
    wrt = tuple(_items(_wrt(args, wrt)))
    out, pullback = vjp(f, *args, wrt=wrt, policy=policy, **kwargs)
    assert_close(out, f(*_writable(args), **kwargs), rtol=1e-12, atol=0, what="vjp's value")
    cot = rng(seed).normal(size=np.shape(out))
    cot = float(cot) if np.ndim(out) == 0 else cot
    got = pullback(cot)
    assert isinstance(got, tuple) and len(got) == len(wrt), got
    plain = _plain(f, kwargs)
    for k, g in zip(_positions(f, wrt), got):
        _compare(g, args, k, numerical_vjp, numerical_tree_vjp, plain, (cot,), rtol, atol,
                 EPS)
    _assert_unchanged(before, args)
    return got


def check_function(f, args, wrt=None, policy=None, rtol=1e-5, atol=1e-7, kwargs=None):
    """check_grad for a scalar output, check_vjp for any other."""
    __tracebackhide__ = True
    out = f(*_writable(args), **(kwargs or {}))
    if isinstance(out, float) or np.ndim(out) == 0 and not isinstance(out, (list, tuple)):
        return check_grad(f, args, wrt, policy, rtol, atol, kwargs=kwargs)
    return check_vjp(f, args, wrt, policy, rtol=rtol, atol=atol, kwargs=kwargs)


def _compare(g, args, k, plain_fd, tree_fd, f, extra, rtol, atol, eps):
    x = args[k]
    if isinstance(x, (float, np.ndarray)) and not isinstance(x, bool):
        assert_like(g, x)
        want = plain_fd(f, args, k, *extra, eps=eps)
        assert_close(g, want, rtol=rtol, atol=atol, what=f"gradient of argument {k}")
    else:
        assert_tree_close(g, tree_fd(f, args, k, *extra, eps=eps), x, rtol=rtol, atol=atol)


def _writable(args):
    """Copies for running the primal, which may write into its arguments (grad copies
    such an argument on entry; the caller's read-only arrays check it does)."""
    return [copy.deepcopy(a) for a in args]


def _plain(f, kwargs):
    return (lambda *a: f(*a, **kwargs)) if kwargs else f


def _wrt(args, wrt):
    if wrt is None:
        return tuple(k for k, a in enumerate(args) if is_float_arg(a))
    return tuple(wrt) if isinstance(wrt, list) else wrt


def _items(wrt):
    return wrt if isinstance(wrt, tuple) else (wrt,)


def _positions(f, wrt):
    params = list(inspect.signature(f).parameters)
    return [params.index(w) if isinstance(w, str) else w for w in _items(wrt)]


def _snapshot(args):
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


def _assert_unchanged(before, after):
    for b, a in zip(before, after):
        if isinstance(b, np.ndarray):
            np.testing.assert_array_equal(a, b)
            assert not a.flags.writeable


# ---- the structure of a gradient -------------------------------------------------------
def assert_like(g, x, where="gradient"):
    """g is shaped like x: same container types and keys, arrays of x's shape and dtype,
    a Python float for a float, a dataclass of x's type for a dataclass, and a dict by
    attribute name for a plain object."""
    if isinstance(x, (tuple, list)):
        assert type(g) is type(x), f"{where}: {type(g).__name__}, expected {type(x).__name__}"
        assert len(g) == len(x), f"{where}: length {len(g)}, expected {len(x)}"
        for k, (gk, xk) in enumerate(zip(g, x)):
            assert_like(gk, xk, f"{where}[{k}]")
    elif isinstance(x, dict):
        assert type(g) is dict, f"{where}: {type(g).__name__}, expected dict"
        assert list(g) == list(x), f"{where}: keys {list(g)}, expected {list(x)}"
        for k in x:
            assert_like(g[k], x[k], f"{where}[{k!r}]")
    elif dataclasses.is_dataclass(x):
        assert type(g) is type(x), f"{where}: {type(g).__name__}, expected {type(x).__name__}"
        for f in dataclasses.fields(x):
            assert_like(getattr(g, f.name), getattr(x, f.name), f"{where}.{f.name}")
    elif is_object(x):
        assert isinstance(g, dict), f"{where}: {type(g).__name__}, expected a dict by attribute"
        for k, v in g.items():
            assert_like(v, getattr(x, k), f"{where}.{k}")
    else:
        _assert_leaf_like(g, x, where)


def _assert_leaf_like(g, x, where):
    if isinstance(x, np.ndarray) and x.dtype.kind == "f":
        assert isinstance(g, np.ndarray), f"{where}: {type(g).__name__}, expected ndarray"
        assert g.shape == x.shape, f"{where}: shape {g.shape}, expected {x.shape}"
        assert g.dtype == x.dtype, f"{where}: dtype {g.dtype}, expected {x.dtype}"
    elif isinstance(x, np.floating):
        assert isinstance(g, np.floating) or type(g) is float, f"{where}: {type(g).__name__}"
    elif type(x) is float:
        assert type(g) is float, f"{where}: {type(g).__name__}, expected float"


def assert_tree_close(g, expected, like, rtol=1e-5, atol=1e-7):
    """g (a gradient like `like`) matches {path: value} from numerical_tree_grad."""
    __tracebackhide__ = True
    assert_like(g, like)
    plain_object = is_object(like) and not dataclasses.is_dataclass(like)
    for path, value in expected.items():
        got = _object_grad(g, path, like) if plain_object else get_path(g, path)
        assert_close(got, value, rtol=rtol, atol=atol, what=f"gradient at {path}")


def _object_grad(g, path, like):
    """A plain object's gradient is a dict by attribute (possibly missing: zero)."""
    key, rest = path[0], path[1:]
    if key not in g:
        return np.zeros_like(get_path(like, path), dtype=float)
    return get_path(g[key], rest) if rest else g[key]


directional_fd = directional     # the name the RNN tests use

__all__ = ["POLICIES", "rng", "readonly", "check_grad", "check_vjp", "check_function",
           "assert_like", "assert_tree_close", "directional_fd", "numerical_grad",
           "numerical_vjp", "assert_close", "is_float_arg"]
