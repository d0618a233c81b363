"""An adjoint's `-g * 2` becomes `g * -2` (transform/optimize/constants.py FoldNegations):
one array operation instead of two, exactly the same values. Behaviour, not text: a
counting ndarray subclass records the ufuncs the gradient runs (no `negative` left where
the negation was folded, one where it cannot be), and every program runs against finite
differences under every policy.
"""
import gast
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_function, rng
from transform import grad
from transform.api import _wrt_names, compiled, signature_of
from transform.ir.vocabulary import Vocabulary
from transform.optimize.constants import FoldNegations
from transform.ir.statements import Emitted
from transform.optimize.passes import TypedFacts, run_passes


def second_difference(u):
    lap = u[2:] - 2 * u[1:-1]
    return np.sum(np.sin(lap))


def heat_steps(u, k, steps):
    for _ in range(steps):
        lap = u[2:] - 2 * u[1:-1] + u[:-2]
        u = np.concatenate([u[:1], u[1:-1] + k * lap, u[-1:]])
    return np.sum(u ** 3)


def heat_copy_steps(u, k, steps):
    for _ in range(steps):
        un = u.copy()
        un[1:-1] = u[1:-1] + k * (u[2:] - 2 * u[1:-1] + u[:-2])
        u = un
    return np.sum(np.sin(u))


def negated_by_name(u, c):
    return np.sum(np.sin(c - u * u))           # the factor is a name: nothing to fold


CASES = [
    (second_difference, lambda r: [r.normal(size=7)], (0,)),
    (heat_steps, lambda r: [r.normal(size=9), 0.2, 4], (0, 1)),
    (heat_copy_steps, lambda r: [r.normal(size=9), 0.2, 3], (0, 1)),
    (negated_by_name, lambda r: [r.normal(size=5), 0.7], (0, 1)),
]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn,make,wrt", CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_gradients_match_finite_differences(fn, make, wrt, policy):
    check_function(fn, make(rng("negations", fn.__name__)), wrt, policy)


class Counted(np.ndarray):
    """An array recording the name of every ufunc applied to it (results stay Counted)."""
    calls = []

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        Counted.calls.append(ufunc.__name__)
        inputs = [np.asarray(i) if isinstance(i, Counted) else i for i in inputs]
        if "out" in kwargs:
            kwargs["out"] = tuple(np.asarray(o) for o in kwargs["out"])
        out = super().__array_ufunc__(ufunc, method, *inputs, **kwargs)
        return out.view(Counted) if type(out) is np.ndarray else out


def ufuncs_of_gradient(fn, args, wrt):
    """The ufuncs the rule specialised to args' shapes runs (forward and backward) on
    Counted copies of args, and its cotangents."""
    names, _ = _wrt_names(fn, wrt)
    rule = compiled(fn, names, "loop", signature=signature_of(args))
    Counted.calls = []
    out, pullback = rule.rrule(*[a.view(Counted) if isinstance(a, np.ndarray) else a
                                 for a in args])
    return Counted.calls, pullback(1.0)


def test_a_literal_factor_takes_the_negation():
    u = np.linspace(0.1, 0.9, 7)
    calls, out = ufuncs_of_gradient(second_difference, (u,), "u")
    assert calls.count("negative") == 0, calls
    np.testing.assert_array_equal(np.asarray(out[0]), grad(second_difference)(u))


PULLBACK = """
def f_rrule(x, w):
    def pullback(g):
        dx = -g * 3
        dy = 2.5 * -g
        dz = -g * w
        t = -g * 2
        dw = -g * 0
        dv = -g * -2
        return (dx, dy, dz, t, dw, dv)
    return (x, pullback)
"""


def test_the_pass_folds_positive_literal_factors_of_adjoints_only():
    """dx, dy: folded; dz (a name), t (not an adjoint), dw (a zero: -0.0 stays) and dv
    (a negative literal) keep their negation. Values identical to the unfolded ones."""
    def run(fold):
        tree = gast.parse(PULLBACK).body[0]
        if fold:                     # the pullback's statements, typed as kept nodes
            body = [Emitted(s) for s in tree.body[0].body[:-1]]
            facts = TypedFacts(body, names=Vocabulary(set()),
                               adjoints=frozenset({"dx", "dy", "dz", "dw", "dv"}))
            run_passes([FoldNegations()], facts, check=True)
        space = {}
        exec(gast.unparse(tree), space)
        g = np.linspace(-1.0, 1.0, 5).view(Counted)
        Counted.calls = []
        out = space["f_rrule"](1.0, np.full(5, 0.5))[1](g)
        return [np.asarray(v) for v in out], Counted.calls.count("negative")
    plain, negations = run(False)
    folded, left = run(True)
    assert (negations, left) == (6, 4)
    for a, b in zip(plain, folded):
        np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(np.signbit(a), np.signbit(b))


def test_a_named_factor_keeps_the_negation():
    u = np.linspace(0.1, 0.9, 5)
    calls, _ = ufuncs_of_gradient(negated_by_name, (u, 0.7), "u")
    assert calls.count("negative") == 1, calls
