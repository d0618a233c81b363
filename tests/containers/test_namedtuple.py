"""A namedtuple of parameters gets a namedtuple gradient, whether the loss reads its
fields by name (`p.w`) or by position (`p[0]`). It used to crash in `materialise`."""
from collections import namedtuple

import numpy as np
import pytest

from tests.gradcheck import POLICIES

from tests.fd import assert_close
from transform import grad

Params = namedtuple("Params", "w b")
X = np.array([1.0, 2.0])


def by_field(p, x):
    return np.sum(np.tanh(p.w * x + p.b) ** 2)


def by_position(p, x):
    return np.sum(np.tanh(p[0] * x + p[1]) ** 2)


def finite_differences(f, p, x, h=1e-6):
    dw = np.array([(f(Params(p.w + h * e, p.b), x) - f(Params(p.w - h * e, p.b), x)) / (2 * h)
                   for e in np.eye(len(p.w))])
    db = (f(Params(p.w, p.b + h), x) - f(Params(p.w, p.b - h), x)) / (2 * h)
    return dw, db


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("f", [by_field, by_position])
def test_namedtuple_gradient_is_a_namedtuple_matching_finite_differences(f, policy):
    p = Params(np.array([0.5, -1.0]), 0.3)
    g = grad(f, policy=policy)(p, X)
    assert type(g) is Params
    dw, db = finite_differences(f, p, X)
    assert_close(g.w, dw)
    assert_close(g.b, db)
