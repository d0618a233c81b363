"""Mutants of linalg_more.py (mutF, session 29): np.linalg.cond with p=2 of a non-square
matrix (singular values: the norm(x) norm(inv x) branch cannot take it), and the
norm-product branch on a stack of matrices for every p it takes (inv(x)'s norm cotangent
broadcast over the stack), against central differences; and from compiled code under
every policy."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad
from tests.rules.checks import case, check_rule, rand

M34 = rand(3, 4, seed=2)
STACK = rand(3, 3, 3, seed=9) + 2 * np.eye(3)

CASES = [case(np.linalg.cond, M34, 2), case(np.linalg.cond, M34.T, 2),
         case(np.linalg.cond, rand(2, 3, 4, seed=10), 2)]
CASES += [case(np.linalg.cond, STACK, p=p) for p in ("fro", 1, -1, np.inf, -np.inf, "nuc")]


@pytest.mark.parametrize("fn, args, kwargs", CASES)
def test_matches_finite_differences(fn, args, kwargs):
    check_rule(fn, args, kwargs)


def conditioning(x, w):
    return np.sum(w * np.linalg.cond(x, 1)) + np.linalg.cond(x[0, :, :2], 2)


@pytest.mark.parametrize("policy", POLICIES)
def test_stacked_conditioning_program(policy):
    check_grad(conditioning, [STACK, np.array([0.5, -1.0, 2.0])], policy=policy)
