"""hvp's routes return H v in the same structure for a container or object argument:
forward over reverse (and so route "auto") shapes each entry like its argument as grad
does (transform/public/boundary.py materialise), so a tuple gives a tuple, a list a
list, a dict a dict in the argument's key order, a dataclass or namedtuple its own type,
a float a float, nested. Session 37 found forward over reverse returning a dict for a
dataclass and a tuple for a namedtuple (equal values), which failed ~50 tests when
"auto" was tried as the default. Values against central differences of grad, computed
here leaf by leaf (tests/fd.py's helpers do not step a dataclass)."""
import collections
import dataclasses

import numpy as np
import pytest

from tests.fd import assert_close
from transform import grad, hvp

EPS = 1e-6


@dataclasses.dataclass
class Params:
    w: np.ndarray
    b: float


Pair = collections.namedtuple("Pair", "w b")


def on_tuple(p):
    return np.sum(np.sin(p[0]) * p[0]) * p[1] ** 2 + p[1] ** 3


def on_dict(p):
    return np.sum(np.sin(p["w"]) * p["w"]) * p["b"] ** 2 + p["b"] ** 3


def on_object(p):
    return np.sum(np.sin(p.w) * p.w) * p.b ** 2 + p.b ** 3


def on_nested(p):
    inner, rest = p
    return np.sum(np.cos(inner["w"]) * rest[0].w) * rest[1] ** 2 + np.sum(rest[0].w ** 3)


def on_two(p, q):
    return np.sum(p.w * q[0] ** 2) * p.b + q[1] ** 2 * p.b


def _map(fn, a, b):
    """fn over the float leaves of a and b (alike in structure), a's structure kept."""
    if isinstance(a, dict):
        return {k: _map(fn, v, b[k]) for k, v in a.items()}
    if isinstance(a, tuple) and hasattr(a, "_fields"):
        return type(a)(*[_map(fn, x, y) for x, y in zip(a, b)])
    if dataclasses.is_dataclass(a):
        return dataclasses.replace(a, **{f.name: _map(fn, getattr(a, f.name),
                                                      getattr(b, f.name))
                                         for f in dataclasses.fields(a)})
    if isinstance(a, (tuple, list)):
        return type(a)(_map(fn, x, y) for x, y in zip(a, b))
    return fn(a, b)


def _same(got, want):
    """got has want's structure (container types, dict key order, leaf types) and
    values."""
    assert type(got) is type(want), (type(got), type(want))
    if isinstance(want, dict):
        assert list(got) == list(want)
    if isinstance(want, (dict, tuple, list)) or dataclasses.is_dataclass(want):
        _map(lambda g, w: _same(g, w), got, want)
    else:
        assert_close(got, want, rtol=1e-9, atol=1e-12)


def _differences(fn, args, v, k=0, of=0):
    """(grad_of(args with args[k] + eps v) - grad_of(... - eps v)) / 2 eps, leaf by
    leaf: grad with respect to argument `of`, moving argument k."""
    g = grad(fn, of)
    moved = lambda s: [*args[:k], _map(lambda x, t: x + s * EPS * t, args[k], v),  # noqa: E731
                       *args[k + 1:]]
    return _map(lambda a, b: (a - b) / (2 * EPS), g(*moved(1)), g(*moved(-1)))


def _arrays(r):
    return 0.5 + r.random(3), 0.7 + 0.1 * r.random()


def _cases():
    r = np.random.default_rng(37)
    (w, b), (vw, vb) = _arrays(r), _arrays(r)
    vb = float(vb)
    return [("tuple", on_tuple, (w, b), (vw, vb)),
            ("list", on_tuple, [w, b], [vw, vb]),
            ("dict", on_dict, {"b": b, "w": w}, {"b": vb, "w": vw}),
            ("dataclass", on_object, Params(w, b), Params(vw, vb)),
            ("namedtuple", on_object, Pair(w, b), Pair(vw, vb)),
            ("nested", on_nested, ({"w": w}, [Params(w * 0.5, 0.0), b]),
             ({"w": vw}, [Params(vw, 0.0), vb]))]


CASES = _cases()


@pytest.mark.parametrize("route", ["forward_over_reverse", "auto"])
@pytest.mark.parametrize("kind, fn, arg, v", CASES, ids=[c[0] for c in CASES])
def test_same_structure_as_reverse_over_forward(kind, fn, arg, v, route):
    want = hvp(fn, (arg,), (v,))
    got = hvp(fn, (arg,), (v,), route=route)
    _same(got, want)
    _map(lambda g, d: assert_close(g, d, rtol=1e-5, atol=1e-6), got,
         _differences(fn, (arg,), v))


@pytest.mark.parametrize("route", ["forward_over_reverse", "auto"])
def test_mixed_wrt_entries_shaped_like_their_arguments(route):
    r = np.random.default_rng(38)
    (w, b), (vw, vb) = _arrays(r), _arrays(r)
    p, q, vp, vq = Params(w, b), (w + 1.0, b), Params(vw, float(vb)), (vw, float(vb))
    want = hvp(on_two, (p, q), (vp, vq), wrt=(0, 1))
    got = hvp(on_two, (p, q), (vp, vq), wrt=(0, 1), route=route)
    _same(got, want)
    assert type(got[0]) is Params and type(got[1]) is tuple
    # entry i: sum_j H_ij v_j = sum_j d/dt grad_i(args with arg j + t v_j)
    d = lambda v, k, of: _differences(on_two, (p, q), v, k, of)  # noqa: E731
    expected0 = _map(lambda a, b: a + b, d(vp, 0, 0), d(vq, 1, 0))
    expected1 = _map(lambda a, b: a + b, d(vp, 0, 1), d(vq, 1, 1))
    _map(lambda g, d: assert_close(g, d, rtol=1e-5, atol=1e-6), got[0], expected0)
    _map(lambda g, d: assert_close(g, d, rtol=1e-5, atol=1e-6), got[1], expected1)
