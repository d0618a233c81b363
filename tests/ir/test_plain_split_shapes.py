"""A plain caller specialised to its arguments' shapes compiles its split callees' halves
for the shapes its stage 5 knows at the call (docs/ir.md, "Second lowering", "Calls"), as
the callee's rule is specialised at run time; such a forward half checks its arguments
are real (`refuse_complex`), the check the rule path makes at each call. Gradients
against central finite differences; the halves' keys and source."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad
from transform import TransformError, value_and_grad
from transform.public.cache import rules_of


def _relax(k, x):
    for j in range(3):                  # (a loop: called, split, not inlined)
        x = x - 0.1 * (k * x + np.tanh(x))
    return x


def relaxation(k, x0):
    x = x0
    for i in range(4):
        x = _relax(k, x0 * 0.5 + x) + 0.01 * x0
    return np.sum(x ** 2)


def _halves(fn):
    return {k[2]: (k[4], c) for k, c in rules_of(fn).items()
            if str(k[2]).startswith("plain/")}


def test_the_halves_are_specialised_to_the_shapes_known_at_the_call():
    args = (0.7, np.random.default_rng(3).normal(size=5))
    value, grads = value_and_grad(relaxation, (0, 1), lowering="plain")(*args)
    assert_close(value, relaxation(*args), rtol=1e-12, atol=0)
    for k, g in enumerate(grads):
        assert_close(g, numerical_grad(relaxation, args, k), rtol=1e-6, atol=1e-8)
    halves = _halves(_relax)
    signature, forward = halves["plain/forward"]
    assert signature is not None and signature[0] == ()        # k: a float parameter
    assert "refuse_complex('_relax', k, x)" in forward.source
    assert halves["plain/backward"][0] == signature


def test_a_complex_argument_is_refused_not_differentiated_as_real():
    x0 = np.ones(3) * (1 + 0.5j)
    with pytest.raises(TransformError):
        value_and_grad(relaxation, (0,), lowering="plain")(0.7, x0)
