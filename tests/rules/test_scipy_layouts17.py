"""Layouts issue 17's SciPy list names that the other tables drive only once: logsumexp
over every axis form, with keepdims and with b= (full, broadcast, kept axes) in a and
b; softmax and log_softmax over every axis form; each against central differences in
float64 and kept in float32. Also the frozen dirichlet's pdf in a compiled program."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad
from tests.rules.checks import case, check_float32, check_rule, rand

sc = pytest.importorskip("scipy.special")
stats = pytest.importorskip("scipy.stats")

A = rand(3, 4, seed=1)
B34, B4, B31 = (rand(3, 4, seed=2, low=0.5, high=1.5), rand(4, seed=3, low=0.5, high=1.5),
                rand(3, 1, seed=4, low=0.5, high=1.5))

LOGSUMEXP = [
    case(sc.logsumexp, A, axis=1), case(sc.logsumexp, A, axis=0, keepdims=True),
    case(sc.logsumexp, A, axis=(0, 1)), case(sc.logsumexp, A, axis=-1, keepdims=True),
    case(sc.logsumexp, A, None, B4, id="b-broadcast-all-axes"),
    case(sc.logsumexp, A, 1, B34, id="b-full-axis-1"),
    case(sc.logsumexp, A, 0, B4, id="b-broadcast-axis-0"),
    case(sc.logsumexp, A, 1, B31, True, id="b-kept-axis-keepdims"),
    case(sc.logsumexp, A, (0, 1), B34, True, id="b-all-axes-keepdims"),
]
SOFTMAX = [case(fn, A, axis=axis, id=f"{fn.__name__}-{axis}")
           for fn in (sc.softmax, sc.log_softmax) for axis in (None, 0, 1, -1, (0, 1))]


@pytest.mark.parametrize("fn, args, kwargs", LOGSUMEXP + SOFTMAX)
def test_against_finite_differences(fn, args, kwargs):
    check_rule(fn, args, kwargs)


@pytest.mark.parametrize("fn, args, kwargs", LOGSUMEXP + SOFTMAX)
def test_float32_stays_float32(fn, args, kwargs):
    check_float32(fn, args, kwargs)


def weighted_logsumexp_keywords(a, w):
    return np.sum(sc.logsumexp(a, axis=0, b=w, keepdims=True) ** 2)


def dirichlet_frozen_pdf(alpha, z):
    x = np.exp(z) / np.sum(np.exp(z))
    d = stats.dirichlet(alpha)
    return d.pdf(x) + d.logpdf(x)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn,args", [(weighted_logsumexp_keywords, (A, B4)),
                                     (dirichlet_frozen_pdf, (np.array([1.5, 2.0, 3.2]),
                                                             np.array([0.1, -0.4, 0.7])))],
                         ids=["logsumexp-keywords", "dirichlet-frozen-pdf"])
def test_programs_under_every_policy(fn, args, policy):
    check_grad(fn, list(args), wrt=(0, 1), policy=policy)
