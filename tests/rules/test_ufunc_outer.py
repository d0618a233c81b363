"""ufunc.outer of every binary ufunc with an elementwise rule (runtime/rules/ufunc_outer.py)
against central differences, float32, through compiled programs under every policy;
the outer of a no-derivative ufunc has a zero derivative."""
import numpy as np
import pytest

import runtime
from runtime.rules.ufunc_outer import _binary_ufuncs
from tests.gradcheck import POLICIES, check_grad
from tests.rules.checks import case, check_float32, check_rule, rand
from transform import grad

POS3, POS4 = rand(3, seed=7, low=0.5, high=2.0), rand(2, 2, seed=8, low=0.5, high=2.0)
A3, B22 = rand(3, seed=9), rand(2, 2, seed=10, low=1.2, high=2.0)
INTS = np.array([1, -2])
CASES = [case(np.subtract.outer, A3, B22), case(np.subtract.outer, 1.5, A3, id="sub-scalar"),
         case(np.divide.outer, A3, B22), case(np.power.outer, POS3, A3),
         case(np.float_power.outer, POS3, B22), case(np.arctan2.outer, A3, B22),
         case(np.hypot.outer, A3, B22), case(np.logaddexp.outer, A3, B22),
         case(np.logaddexp2.outer, A3, B22), case(np.maximum.outer, A3, B22),
         case(np.minimum.outer, A3, B22), case(np.fmax.outer, A3, B22),
         case(np.fmin.outer, B22, A3), case(np.copysign.outer, B22, A3),
         case(np.fmod.outer, POS4, A3 + 3.0), case(np.remainder.outer, POS4, A3 + 3.0),
         case(np.ldexp.outer, A3, INTS), case(np.heaviside.outer, A3, B22),
         case(np.nextafter.outer, A3, B22)]


@pytest.mark.parametrize("fn, args, kwargs", CASES)
def test_matches_finite_differences(fn, args, kwargs):
    check_rule(fn, args, kwargs)


@pytest.mark.parametrize("fn, args, kwargs", CASES)
def test_float32_stays_float32(fn, args, kwargs):
    check_float32(fn, args, kwargs)


def test_every_registered_outer_has_a_case():
    covered = {fn for fn, _, _ in (c.values for c in CASES)}
    registered = {u.outer for u in _binary_ufuncs()
                  if getattr(runtime.lookup(u.outer), "kind", None) == "template"}
    assert registered == covered


def pairwise_sq_distances(x, y):
    return np.sum(np.exp(-np.subtract.outer(x, y) ** 2 / 0.5))


def ratio_table(x, y):
    return np.sum(np.divide.outer(x, y) * np.arange(6.0).reshape(3, 2))


@pytest.mark.parametrize("policy", POLICIES)
def test_kernel_of_differences_in_a_program(policy):
    check_grad(pairwise_sq_distances, [A3, rand(4, seed=11)], policy=policy)
    check_grad(ratio_table, [A3, rand(2, seed=12, low=1.0, high=2.0)], policy=policy)


def greater_outer(x, y):
    return np.sum(np.greater.outer(x, y) * x[:, None])


@pytest.mark.parametrize("policy", POLICIES)
def test_outer_of_a_comparison_has_a_zero_derivative(policy):
    check_grad(greater_outer, [A3, A3 + 0.1], policy=policy)


def test_outer_of_integer_ufunc_on_constants_runs():
    def f(x):
        return np.sum(np.bitwise_and.outer(np.arange(3), np.arange(2)) * x)
    np.testing.assert_allclose(grad(f)(1.5), np.sum(np.bitwise_and.outer(np.arange(3),
                                                                          np.arange(2))))


def logaddexp_outer_of_own(x):
    return np.sum(np.logaddexp.outer(x, x))


def test_same_array_on_both_sides():
    check_grad(logaddexp_outer_of_own, [A3])
