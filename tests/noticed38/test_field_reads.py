"""Session 38, item 3: a dataclass argument with a derivative whose attribute set by
`__post_init__` is read was refused with a TypeError; now a TransformError at the
user's read of it, by every API, the fields-only program unchanged (tests/fd.py)."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_tree_grad
from tests.red38 import programs_edge as E
from transform import TransformError, grad, hvp, jvp, vjp

R = np.random.default_rng(3801)
P, X, Y = E.Params(R.normal(size=3), 0.2), R.normal(size=(4, 3)), R.normal(size=4)
RUNS = {
    "grad": lambda f: grad(f)(P, X, Y),
    "plain": lambda f: grad(f, lowering="plain")(P, X, Y),
    "vjp": lambda f: vjp(f, P, X, Y, wrt=0)[1](1.0),
    "jvp": lambda f: jvp(f, (P, X, Y), (P,), wrt=0),
    "hvp": lambda f: hvp(f, (P, X, Y), (P,)),
    "hvp_fr": lambda f: hvp(f, (P, X, Y), (P,), route="forward_over_reverse"),
}


@pytest.mark.parametrize("api", list(RUNS))
def test_post_init_attribute_read_refused_at_its_line(api):
    with pytest.raises(TransformError, match="`p.s` is no field of the Params") as info:
        RUNS[api](E.params_arg_loss)
    assert info.value.filename == E.__file__
    assert "r = (X @ p.w - y) / p.s" in info.value.source_line
    assert info.value.source_line[info.value.col:].startswith("p.s")


def test_fields_only_still_matches():
    got = grad(E.params_arg_fields_only)(P, X, Y)
    want = numerical_tree_grad(E.params_arg_fields_only, [P, X, Y], 0)
    assert_close(got.w, want[("w",)])
    assert_close(got.log_s, want[("log_s",)])
