"""Session 32 (fix2): vjp and jacrev with respect to a parameter left at its default
(positional or keyword-only) raised a KeyError when the pullback ran; they use the default
now, as grad and jvp do. Cotangents against central differences (tests/fd.py) under every
policy."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad, numerical_vjp
from tests.gradcheck import POLICIES, rng
from transform import jacrev, vjp

SCALE = np.array([0.7, 1.3, 0.4])


def shifted(x, scale=SCALE, *, power=2.0):
    return np.sin(x) * scale ** power + scale


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("wrt, k", [("scale", 1), (1, 1), ("power", 2)])
def test_vjp_wrt_a_default(policy, wrt, k):
    r = rng("fix2.vjp_default", str(wrt))
    x, c = r.normal(size=3), r.normal(size=3)
    out, pullback = vjp(shifted, x, wrt=wrt, policy=policy)
    explicit = lambda x_, s, p: shifted(x_, s, power=p)          # noqa: E731
    assert_close(out, shifted(x))
    assert_close(pullback(c)[0], numerical_vjp(explicit, (x, SCALE, 2.0), k, c))


@pytest.mark.parametrize("policy", POLICIES)
def test_jacrev_wrt_a_default(policy):
    x = rng("fix2.jacrev_default").normal(size=3)
    J = jacrev(shifted, wrt=(0, 1), policy=policy)(x)
    for k, Jk in enumerate(J):
        want = np.stack([numerical_grad(lambda x_, s, i=i: shifted(x_, s)[i], (x, SCALE), k)
                         for i in range(3)])
        assert_close(Jk, want)
