"""A literal `initial=` in product reductions: the template once expanded to
`3.0 is None`, a SyntaxWarning (an internal error under -W error::SyntaxWarning)."""
import warnings

import numpy as np
import pytest

from transform import grad
from tests.fd import assert_close, numerical_grad
from tests.gradcheck import POLICIES

X = np.array([[1.5, 2.0], [0.5, 3.0]])


def reduce_with_initial(x):
    return np.sum(np.multiply.reduce(x, axis=0, initial=3.0))


def prod_with_initial(x):
    return np.prod(x, initial=2.0)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn", [reduce_with_initial, prod_with_initial])
def test_literal_initial_compiles_without_warnings(fn, policy):
    with warnings.catch_warnings():
        warnings.simplefilter("error", SyntaxWarning)
        got = grad(fn, policy=policy)(X.copy())
    assert_close(got, numerical_grad(fn, (X.copy(),), 0))
