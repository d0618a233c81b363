"""jvp (issue 20, forward mode): the output tangent against central finite differences
(tests/fd.py numerical_jvp, float64), one differentiated argument at a time and all of
them at once (the tangent is linear in the tangents, so the differences add up), on
straight-line code, loops, branches, while loops, containers, float32, keyword
arguments, element stores and linear algebra; the output is the function's own."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_jvp
from tests.forward import functions as F
from tests.gradcheck import readonly, rng
from transform import jvp


def _cases(r):
    return {
        "straight": (r.normal(size=(3, 3)), r.normal(size=3), 0.3),
        "looped": (r.normal(size=4), 0.7),
        "branched": (r.normal(size=3) + 1.0, r.normal(size=3)),
        "branched_else": (r.normal(size=3) - 2.0, r.normal(size=3)),
        "whiled": (r.normal(size=3),),
        "over_rows": (r.normal(size=(3, 2)),),
        "containers": ((r.normal(size=(2, 2)), r.normal(size=2)),
                       {"w": r.normal(size=(2, 2)), "scale": 1.5}),
        "keywords": (r.normal(size=(2, 3)), r.normal(size=(2, 3))),
        "stores": (r.normal(size=3), r.normal(size=3)),
        "linalg": (r.normal(size=(3, 3)) + 3 * np.eye(3), r.normal(size=3)),
        "scalars": (1.3, 0.4),
        "matrix_out": (r.normal(size=3), r.normal(size=3)),
        "lists": ([1.0, 2.0], 0.3),
        "inplace": (r.normal(size=3), r.normal(size=3)),
        "calls_helper": (r.normal(size=3),),
        "calls_layers": (r.normal(size=(3, 3)), r.normal(size=3)),
        "recursive": (r.normal(size=3),),
        "tuple_outputs": (r.uniform(3.0, 9.0, size=3), r.uniform(0.7, 2.0, size=3)),
        "records": (r.normal(size=3), 0.7),
        "unpacking_loops": (r.normal(size=4), r.normal(size=4)),
        "property_read": (0.8, r.normal(size=3)),
        "sorted_values": (np.array([0.3, -1.2, 2.0, 0.7]), [0.4, 1.9, -0.3]),
        "passes_a_function": (r.normal(size=3),),
        "calls_a_value": (r.normal(size=3),),
        "passes_a_function": (r.normal(size=3),),
        "calls_a_value": (r.normal(size=3),),
    }


CASES = sorted(_cases(rng(0)))


def _function(name):
    return getattr(F, name.replace("_else", "").replace("branched_", "branched"))


def tangent_like(r, a):
    if isinstance(a, F.Params):
        return F.Params(tangent_like(r, a.w), tangent_like(r, a.b), a.name)
    if isinstance(a, tuple):
        return tuple(tangent_like(r, v) for v in a)
    if isinstance(a, list):
        return [tangent_like(r, v) for v in a]
    if isinstance(a, dict):
        return {k: tangent_like(r, v) for k, v in a.items()}
    if isinstance(a, float):
        return float(r.normal())
    return r.normal(size=np.shape(a)).astype(a.dtype)


def assert_tree_close(got, want, rtol=1e-5, atol=1e-7, where="tangent"):
    if isinstance(want, dict):
        assert isinstance(got, dict) and set(got) == set(want), where
        for k in want:
            assert_tree_close(got[k], want[k], rtol, atol, f"{where}[{k!r}]")
    elif isinstance(want, (tuple, list)):
        assert type(got) is type(want) and len(got) == len(want), where
        for k, (g, w) in enumerate(zip(got, want)):
            assert_tree_close(g, w, rtol, atol, f"{where}[{k}]")
    else:
        assert_close(got, want, rtol, atol, what=where)


def fd_total(f, args, tangents, positions):
    """sum over the differentiated positions of the numerical JVP along each tangent."""
    total = None
    for k, t in zip(positions, tangents):
        term = numerical_jvp(f, args, k, t)
        total = term if total is None else _added(total, term)
    return total


def _added(a, b):
    if isinstance(a, dict):
        return {k: _added(a[k], b[k]) for k in a}
    if isinstance(a, (tuple, list)):
        return type(a)(_added(x, y) for x, y in zip(a, b))
    return a + b


@pytest.mark.parametrize("name", CASES)
def test_jvp_matches_finite_differences_for_all_arguments(name):
    r = rng("forward", name)
    args = _cases(r)[name]
    f = _function(name)
    tangents = tuple(tangent_like(r, a) for a in args)
    out, out_dot = jvp(f, tuple(readonly(args)), tangents)
    assert_tree_close(out, f(*args), 1e-12, 1e-12, "output")
    assert_tree_close(out_dot, fd_total(f, args, tangents, range(len(args))))


@pytest.mark.parametrize("name", CASES)
def test_jvp_matches_finite_differences_one_argument(name):
    r = rng("forward one", name)
    args = _cases(r)[name]
    f = _function(name)
    k = len(args) - 1
    tangent = tangent_like(r, args[k])
    _, out_dot = jvp(f, args, (tangent,), wrt=k)
    assert_tree_close(out_dot, numerical_jvp(f, args, k, tangent))


def test_wrt_by_name_and_keyword_only_default():
    r = rng("forward names")
    x, y = r.normal(size=(2, 3)), r.normal(size=(2, 3))
    t = r.normal(size=(2, 3))
    _, by_name = jvp(F.keywords, (x, y), (t,), wrt="y")
    _, by_index = jvp(F.keywords, (x, y), (t,), wrt=1)
    assert_close(by_name, by_index, 0, 0)
    assert_close(by_name, numerical_jvp(F.keywords, (x, y), 1, t))
    _, axis1 = jvp(F.keywords, (x, y, 1), (t, t), wrt=(0, 1))
    assert_close(axis1, numerical_jvp(lambda a, b: F.keywords(a, b, 1), (x, y), 0, t)
                 + numerical_jvp(lambda a, b: F.keywords(a, b, 1), (x, y), 1, t))


def test_float32_tangent_stays_float32():
    r = rng("forward float32")
    x = r.normal(size=(2, 3)).astype(np.float32)
    k = np.float32(0.7)
    tx = r.normal(size=(2, 3)).astype(np.float32)
    out, out_dot = jvp(F.float32_fn, (x, k), (tx, np.float32(0.0)))
    assert out_dot.dtype == np.float32
    want = numerical_jvp(F.float32_fn, (x.astype(np.float64), 0.7), 0, tx)
    assert_close(out_dot, want, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("name", ["stores", "inplace", "lists"])
def test_arguments_and_tangents_are_not_written(name):
    r = rng("forward writes", name)
    args = _cases(r)[name]
    tangents = tuple(tangent_like(r, a) for a in args)
    before = repr((args, tangents))
    jvp(_function(name), tuple(readonly(args)), tuple(readonly(tangents)))
    assert repr((args, tangents)) == before         # lists too (readonly covers arrays)


def test_zero_tangent_output_when_the_output_does_not_depend():
    out, out_dot = jvp(F.branched, (np.ones(3), np.ones(3)), (np.ones(3),), wrt=1)
    assert_close(out_dot, numerical_jvp(F.branched, (np.ones(3), np.ones(3)), 1,
                                        np.ones(3)))


def test_dataclass_argument():
    r = rng("forward record argument")
    p, x = F.Params(r.normal(size=3), 0.7), r.normal(size=3)
    t = F.Params(r.normal(size=3), 0.3, "ignored")
    _, got = jvp(F.record_argument, (p, x), (t,), wrt=0)
    eps = 1e-6

    def at(s):
        return F.record_argument(F.Params(p.w + s * t.w, p.b + s * t.b), x)
    assert_close(got, (at(eps) - at(-eps)) / (2 * eps))


def test_objects_without_a_tangent_kind_are_refused():
    with pytest.raises(TypeError, match="has no tangent"):
        jvp(F.record_argument, (object(), np.ones(3)), (object(),), wrt=0)
    with pytest.raises(ValueError, match="must be a Params"):
        jvp(F.record_argument, (F.Params(np.ones(3), 1.0), np.ones(3)), ((1.0, 2.0),), wrt=0)
