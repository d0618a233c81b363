"""stats_vjp's reverse rule (runtime/rules/scipy_stats_second.py) for every family with
second derivatives, logpdf and pdf, each slope (x, loc, scale, each shape): the
cotangents of every argument against central differences (tests/rules/checks.py
check_rule), and the declared JVP against differences and against the cotangents
(<v, J t> == <J^T v, t>). Broadcast: x a vector, loc a number, scale a column."""
import numpy as np
import pytest

import runtime
from tests.fd import numerical_jvp
from tests.rules.checks import check_rule, rand
from tests.rules.jvp_structures import assert_all_close, like, pairing

st = pytest.importorskip("scipy.stats")
from runtime.rules.scipy_stats import stats_vjp  # noqa: E402
from runtime.rules.scipy_stats_second import SECOND  # noqa: E402

SHAPES = {"t": (3.5,), "gamma": (2.5,), "beta": (2.0, 3.0), "lognorm": (0.7,)}
X = {"beta": rand(4, seed=81, low=0.1, high=0.8), "gamma": rand(4, seed=82, low=0.5, high=2.0),
     "lognorm": rand(4, seed=83, low=0.5, high=2.0)}
LOC = {"beta": 0.02, "gamma": 0.05, "lognorm": 0.05}


def _cases():
    for family in sorted(SECOND):
        shapes = SHAPES.get(family, ())
        slopes = ["x", "loc", "scale"] + list(range(len(shapes)) if SECOND[family][2] else [])
        for method in ("logpdf", "pdf"):
            for wrt in slopes:
                yield family, method, wrt


def _args(family, method, wrt):
    shapes = SHAPES.get(family, ())
    x = X.get(family, rand(4, seed=84))
    loc = LOC.get(family, 0.1)
    scale = np.array([[1.1], [1.3]])
    answer = getattr(st, family).pdf(x, *shapes, loc, scale) if method == "pdf" else None
    return [rand(2, 4, seed=85), answer, family, method, wrt, x, shapes, loc, scale]


@pytest.mark.parametrize("case", list(_cases()), ids=lambda c: "-".join(map(str, c)))
def test_cotangents_and_tangents_against_differences(case):
    args = _args(*case)
    check_rule(stats_vjp, args, integers_none=False)
    rule = runtime.lookup(stats_vjp)
    for k in (0, 1, 5, 6, 7, 8):
        if args[k] is None or isinstance(args[k], tuple) and not args[k]:
            continue
        t = like(args[k], seed=7 + k)
        tangents = [None] * len(args)
        tangents[k] = t
        ans, tangent = rule.frule(tangents, *args)
        want = numerical_jvp(stats_vjp, args, k, t)
        assert_all_close(tangent, want, rtol=1e-5, atol=1e-7)
        v = like(ans, seed=11)
        cot = runtime.unthunk(rule.rrule(*args)[1](v)[k])
        assert pairing(v, tangent) == pytest.approx(pairing(cot, t), rel=1e-9, abs=1e-12)
