"""Checks for the container tests: gradients of (possibly nested) container
arguments against central finite differences, leaf by leaf, and gradients
shaped like their arguments (same container types, keys, dtypes and shapes).

The finite differences come from tests/fd.py (float64, independent of the
compiler): each float leaf of an argument is perturbed on its own by
substituting it into a rebuilt copy of the argument.
"""
import copy
import dataclasses
import inspect

import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad, numerical_vjp
from transform import TransformError, grad, vjp

POLICIES = ("loop", "eager", "flat", "nested")


def policies():
    """pytest params, one per accumulation policy."""
    return [pytest.param(p, id=p) for p in POLICIES]


# ---- leaves of a container tree ---------------------------------------------
def is_float_leaf(x):
    if isinstance(x, bool):
        return False
    if isinstance(x, (float, np.floating)):
        return True
    return isinstance(x, np.ndarray) and x.dtype.kind == "f"


def children(tree):
    """(key, child) pairs of a container or object; [] for a leaf."""
    if isinstance(tree, (tuple, list)):
        return list(enumerate(tree))
    if isinstance(tree, dict):
        return list(tree.items())
    if dataclasses.is_dataclass(tree) and not isinstance(tree, type):
        return [(f.name, getattr(tree, f.name)) for f in dataclasses.fields(tree)]
    if hasattr(tree, "__dict__") and not isinstance(tree, (np.ndarray, np.generic)):
        return list(vars(tree).items())
    return []


def float_leaves(tree, path=()):
    """[(path, leaf)] for every float or float-array leaf."""
    if is_float_leaf(tree):
        return [(path, tree)]
    out = []
    for key, child in children(tree):
        out += float_leaves(child, path + (key,))
    return out


def get_path(tree, path):
    for key in path:
        tree = getattr(tree, key) if _is_object(tree) else tree[key]
    return tree


def with_leaf(tree, path, value):
    """A copy of `tree` with the leaf at `path` replaced (containers rebuilt, same types)."""
    if not path:
        return value
    key, rest = path[0], path[1:]
    if isinstance(tree, tuple):
        items = list(tree)
        items[key] = with_leaf(items[key], rest, value)
        return tuple(items)
    if isinstance(tree, list):
        items = list(tree)
        items[key] = with_leaf(items[key], rest, value)
        return items
    if isinstance(tree, dict):
        out = dict(tree)
        out[key] = with_leaf(out[key], rest, value)
        return out
    if dataclasses.is_dataclass(tree):
        return dataclasses.replace(tree, **{key: with_leaf(getattr(tree, key), rest, value)})
    out = copy.copy(tree)
    setattr(out, key, with_leaf(getattr(tree, key), rest, value))
    return out


def _is_object(tree):
    return not isinstance(tree, (tuple, list, dict, np.ndarray, np.generic)) and \
        hasattr(tree, "__dict__")


# ---- finite differences of container arguments ------------------------------
def numerical_tree_grad(f, args, argnum, eps=1e-6):
    """{path: d f / d leaf} for every float leaf of args[argnum], by central differences."""
    args = list(args)
    out = {}
    for path, leaf in float_leaves(args[argnum]):
        def at(v, path=path):
            call = list(args)
            call[argnum] = with_leaf(args[argnum], path, v)
            return f(*call)
        value = float(leaf) if isinstance(leaf, (float, np.floating)) else leaf
        out[path] = numerical_grad(at, [value], 0, eps=eps)
    return out


def numerical_tree_vjp(f, args, argnum, cotangent, eps=1e-6):
    return numerical_tree_grad(lambda *a: np.sum(np.asarray(f(*a)) * cotangent), args,
                               argnum, eps)


# ---- structure of a gradient ------------------------------------------------
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
    elif _is_object(x):
        assert isinstance(g, dict), f"{where}: {type(g).__name__}, expected a dict by attribute"
        for k, v in g.items():
            assert_like(v, getattr(x, k), f"{where}.{k}")
    elif isinstance(x, np.ndarray) and x.dtype.kind == "f":
        assert isinstance(g, np.ndarray), f"{where}: {type(g).__name__}, expected ndarray"
        assert g.shape == x.shape, f"{where}: shape {g.shape}, expected {x.shape}"
        assert g.dtype == x.dtype, f"{where}: dtype {g.dtype}, expected {x.dtype}"
    elif isinstance(x, np.floating):
        assert isinstance(g, np.floating) or type(g) is float, f"{where}: {type(g).__name__}"
    elif type(x) is float:
        assert type(g) is float, f"{where}: {type(g).__name__}, expected float"


def assert_tree_close(g, expected, like, rtol=1e-5, atol=1e-7):
    """g (a gradient like `like`) matches {path: value} from numerical_tree_grad."""
    assert_like(g, like)
    plain_object = _is_object(like) and not dataclasses.is_dataclass(like)
    for path, value in expected.items():
        got = _get_object_grad(g, path, like) if plain_object else get_path(g, path)
        try:
            assert_close(got, value, rtol=rtol, atol=atol)
        except AssertionError as exc:
            raise AssertionError(f"gradient at {path}: {exc}") from None


def _get_object_grad(g, path, like):
    """A plain object's gradient is a dict by attribute (possibly missing: zero)."""
    key, rest = path[0], path[1:]
    if key not in g:
        return np.zeros_like(get_path(like, path), dtype=float)
    return get_path(g[key], rest) if rest else g[key]


# ---- whole checks -------------------------------------------------------------
def readonly(args):
    """Copies of the arguments whose arrays (also inside tuples, lists, dicts) are
    read-only: writing into an argument would raise instead of passing silently."""
    return [_readonly(a) for a in args]


def _readonly(a):
    if isinstance(a, np.ndarray):
        a = a.copy()
        a.setflags(write=False)
        return a
    if isinstance(a, (tuple, list)):
        return type(a)(_readonly(v) for v in a)
    if isinstance(a, dict):
        return {k: _readonly(v) for k, v in a.items()}
    return a


def check_grad(f, args, wrt=0, policy="loop", rtol=1e-5, atol=1e-7):
    """grad(f, wrt)(*args) against finite differences, for plain and container arguments."""
    args = readonly(args)
    single = not isinstance(wrt, tuple)
    got = grad(f, wrt=wrt, policy=policy)(*args)
    gots = (got,) if single else got
    assert isinstance(gots, tuple) and len(gots) == (1 if single else len(wrt))
    params = [p for p in inspect.signature(f).parameters]
    for w, g in zip((wrt,) if single else wrt, gots):
        k = params.index(w) if isinstance(w, str) else w
        _check_one(f, args, k, g, rtol, atol)
    return got


def _check_one(f, args, k, g, rtol, atol):
    x = args[k]
    if isinstance(x, (float, np.ndarray)) and not isinstance(x, bool):
        assert_like(g, x)
        assert_close(g, numerical_grad(f, args, k), rtol=rtol, atol=atol)
    else:
        assert_tree_close(g, numerical_tree_grad(f, args, k), x, rtol=rtol, atol=atol)


def check_vjp(f, args, wrt, policy="loop", seed=0, rtol=1e-5, atol=1e-7):
    """vjp(f, *args, wrt=wrt) with a random cotangent against finite differences."""
    args = readonly(args)
    wrt = tuple(wrt)
    out, pullback = vjp(f, *args, wrt=wrt, policy=policy)
    rng = np.random.default_rng(seed)
    cot = rng.standard_normal(np.shape(out))
    if isinstance(out, float):
        cot = float(cot)
    cots = pullback(cot)
    assert isinstance(cots, tuple) and len(cots) == len(wrt)
    for k, g in zip(wrt, cots):
        x = args[k]
        if isinstance(x, (float, np.ndarray)):
            assert_like(g, x)
            assert_close(g, numerical_vjp(f, args, k, cot), rtol=rtol, atol=atol)
        else:
            assert_tree_close(g, numerical_tree_vjp(f, args, k, cot), x, rtol=rtol, atol=atol)
    return cots


# ---- errors -----------------------------------------------------------------
def line_of(fn, marker):
    """The line number in fn's file of the first line of fn containing `marker`."""
    lines, first = inspect.getsourcelines(fn)
    for k, text in enumerate(lines):
        if marker in text:
            return first + k
    raise AssertionError(f"{marker!r} not found in the source of {fn.__name__}")


def assert_error_at(err, fn, marker, *words):
    """A TransformError names fn's file and the line holding `marker`, and says `words`."""
    assert isinstance(err, TransformError), type(err)
    filename = inspect.getsourcefile(fn)
    line = line_of(fn, marker)
    text = str(err)
    assert f"{filename}:{line}" in text, f"expected {filename}:{line} in:\n{text}"
    assert err.line == line
    for word in words:
        assert word.lower() in text.lower(), f"expected {word!r} in:\n{text}"


def is_zero(g):
    """A zero gradient for a non-differentiable leaf: None, 0 or an all-zero array."""
    if g is None:
        return True
    try:
        return not np.any(np.asarray(g, dtype=float))
    except (TypeError, ValueError):
        return False
