"""Custom (rrule) rules' JVPs on the variants the VJP driver's first example does not
reach (tests/rules/test_jvp_rules.py checks that one): np.gradient's spacings (one shared,
one per axis, integers), axis= and edge_order=; each float argument's tangent against
central differences (tests/fd.py) and against the rule's pullback (<v, J t> == <J^T v, t>)."""
import numpy as np
import pytest

import runtime
from tests.rules.checks import rand
from tests.rules.jvp_structures import assert_all_close, like, pairing
from tests.fd import numerical_jvp

F1, F2 = rand(6, seed=51), rand(4, 5, seed=52)
GRADIENT = [((F1, 0.3), {}), ((F1, 0.3), {"edge_order": 2}), ((F2, 0.4), {}),
            ((F2, 0.4, 1.7), {}), ((F2, 0.4, 2), {}), ((F2, 1.3), {"axis": 1}),
            ((F2, 0.4, 0.9), {"axis": (1, 0), "edge_order": 2})]
CASES = [(np.gradient, args, kwargs, k) for args, kwargs in GRADIENT
         for k, a in enumerate(args) if isinstance(a, (float, np.ndarray))]


@pytest.mark.parametrize("fn, args, kwargs, k", CASES,
                         ids=lambda v: str(v) if isinstance(v, (int, dict)) else "")
def test_against_differences_and_the_pullback(fn, args, kwargs, k):
    rule = runtime.lookup(fn)
    t = like(args[k], 7 + k)
    ans, tangent = rule.frule([None] * k + [t], *args, **kwargs)
    want = numerical_jvp(lambda *a: fn(*a, **kwargs), list(args), k, t)
    assert_all_close(tangent, want, rtol=1e-6, atol=1e-8)
    v = like(ans, 11)
    cotangent = runtime.unthunk(rule.rrule(*args, **kwargs)[1](v)[k])
    assert pairing(v, tangent) == pytest.approx(pairing(cotangent, t), rel=1e-9, abs=1e-12)
