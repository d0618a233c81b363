"""Non-differentiable functions: the rule returns NumPy's output and no cotangents;
and the ndarray method table points at functions with rules."""
import operator

import numpy as np
import pytest

import runtime
from runtime.rules.methods import METHODS
from tests.rules.checks import rand

A, B = rand(2, 3), rand(2, 3, seed=1)
I = np.array([3, 5, 6])

CALLS = [
    (np.less, A, B), (np.less_equal, A, B), (np.greater, A, 0.0), (np.greater_equal, A, B),
    (np.equal, A, A), (np.not_equal, A, B), (np.logical_and, A > 0, B > 0),
    (np.logical_or, A > 0, B > 0), (np.logical_not, A > 0), (np.logical_xor, A > 0, B > 0),
    (np.isclose, A, B), (np.allclose, A, A), (np.array_equal, A, B), (np.array_equiv, A, A[0]),
    (np.any, A > 0), (np.all, A > -2), (np.isfinite, A), (np.isnan, A), (np.isinf, A),
    (np.isneginf, A), (np.isposinf, A), (np.signbit, A), (np.isreal, A), (np.iscomplex, A),
    (np.isscalar, 1.0), (np.iscomplexobj, A), (np.isrealobj, A),
    (np.bitwise_and, I, 3), (np.bitwise_or, I, 3), (np.bitwise_xor, I, 3), (np.invert, I),
    (np.left_shift, I, 1), (np.right_shift, I, 1), (np.gcd, I, 4), (np.lcm, I, 4),
    (np.floor, A), (np.ceil, A), (np.round, A, 1), (np.around, A), (np.rint, A),
    (np.fix, A), (np.trunc, A), (np.floor_divide, A, 0.3),
    (np.argmax, A), (np.argmin, A, 1), (np.argsort, A), (np.argpartition, A, 1),
    (np.argwhere, A > 0), (np.nonzero, A > 0), (np.flatnonzero, A > 0), (np.count_nonzero, A > 0),
    (np.searchsorted, np.sort(A[0]), 0.1), (np.digitize, A, [0.0, 0.5]),
    (np.unravel_index, 4, (2, 3)), (np.ravel_multi_index, ([1], [2]), (2, 3)), (np.indices, (2, 3)),
    (np.diag_indices, 3), (np.tril_indices, 3), (np.triu_indices, 3, 1),
    (np.shape, A), (np.size, A), (np.ndim, A), (np.zeros_like, A), (np.ones_like, A),
    (np.empty_like, A), (np.zeros, 3), (np.ones, (2, 2)),
    (np.empty, 2), (np.eye, 3), (np.identity, 2), (np.tri, 3), (np.arange, 0.0, 1.0, 0.25),
    (np.result_type, A, 1.0), (np.can_cast, A, np.float32),
    (np.spacing, A), (np.nanargmax, A), (np.nanargmin, A, 0), (np.lexsort, (A[0], A[1])),
    (np.isin, A, B), (np.tril_indices_from, A), (np.triu_indices_from, A, 1),
    (np.diag_indices_from, np.ones((3, 3))), (np.hamming, 5), (np.hanning, 4),
    (np.blackman, 6), (np.bartlett, 5),
]
if hasattr(np, "bitwise_count"):                                        # NumPy 2.0+
    CALLS.append((np.bitwise_count, I))
# Once in the no-derivative table, now with real rules (tests/safety/test_no_silent_zero.py)
GAINED_RULES = [np.heaviside, np.full, np.full_like, np.linspace, np.logspace, np.geomspace,
                np.random.normal, np.random.uniform, np.random.exponential, operator.mod,
                np.random.gamma]      # in its scale (session 30); its shape is refused
RANDOM = [(np.random.rand, 2), (np.random.randn, 2, 2), (np.random.standard_normal, 3),
          (np.random.random, 2),
          (np.random.random_sample, 2), (np.random.randint, 0, 5, 3), (np.random.choice, 5, 2),
          (np.random.permutation, 4), (np.random.shuffle, np.arange(4)), (np.random.seed, 3),
          (np.random.default_rng, 0), (np.random.binomial, 3, 0.5), (np.random.poisson, 2.0),
          (np.random.beta, 1.0, 2.0),
          (np.random.multivariate_normal, np.zeros(2), np.eye(2))]


def _same(x, y):
    if isinstance(x, tuple):
        return all(_same(a, b) for a, b in zip(x, y))
    return np.array_equal(np.asarray(x), np.asarray(y))


@pytest.mark.parametrize("call", CALLS, ids=[c[0].__name__ for c in CALLS])
def test_nondiff_output_and_no_cotangents(call):
    fn, *args = call
    rule = runtime.lookup(fn)
    assert rule is not None and rule.kind == "nondiff"
    out, pb = rule.rrule(*args)
    if fn not in (np.empty, np.empty_like):
        assert _same(out, fn(*args))
    assert pb(None) == (None,) * len(args)


@pytest.mark.parametrize("call", RANDOM, ids=[c[0].__name__ for c in RANDOM])
def test_random_draws_are_constants(call):
    fn, *args = call
    rule = runtime.lookup(fn)
    assert rule is not None and rule.kind == "nondiff"
    out, pb = rule.rrule(*args)
    assert pb(None) == (None,) * len(args)


@pytest.mark.parametrize("fn", GAINED_RULES, ids=lambda fn: fn.__name__)
def test_former_nondiff_entries_have_template_rules(fn):
    assert runtime.lookup(fn).kind == "template"


@pytest.mark.parametrize("name", sorted(METHODS))
def test_methods_map_to_functions_with_rules(name):
    fn = runtime.method_function(name)
    assert fn is METHODS[name] and runtime.lookup(fn) is not None


METHOD_CALLS = [("sum", (), {"axis": 0}), ("mean", (), {}), ("max", (1,), {}), ("std", (), {"ddof": 1}),
                ("cumsum", (), {"axis": 1}), ("reshape", ((3, 2),), {}), ("transpose", ((1, 0),), {}),
                ("swapaxes", (0, 1), {}), ("clip", (-0.2, 0.3), {}), ("repeat", (2,), {"axis": 0}),
                ("take", ([0, 2],), {"axis": 1}), ("diagonal", (), {}), ("trace", (), {"offset": 1}),
                ("flatten", (), {}), ("astype", (np.float32,), {}), ("round", (1,), {}),
                ("argmax", (), {"axis": 1}), ("sort", (), {}), ("dot", (rand(3, 2),), {}),
                ("ravel", (), {}), ("copy", (), {}), ("conj", (), {}), ("prod", (), {}),
                ("min", (), {"keepdims": True}), ("var", (0,), {}), ("cumprod", (), {})]


@pytest.mark.parametrize("name, args, kwargs", METHOD_CALLS, ids=[m[0] for m in METHOD_CALLS])
def test_method_call_matches_the_ndarray_method(name, args, kwargs):
    out, pb = runtime.lookup(METHODS[name]).rrule(A, *args, **kwargs)
    expected = getattr(A.copy(), name)(*args, **kwargs)
    if name == "sort":   # in place: the function returns what the method leaves in A
        expected = np.sort(A)
    np.testing.assert_array_equal(out, expected)
