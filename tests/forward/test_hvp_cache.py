"""What hvp keeps between calls (transform/tangent_grad.py): one grad of each compiled
`<name>_tan` and each function's resolved parameters. Later calls compile nothing, yet
see a default assigned after the first call, new shapes, and keyword-only parameters;
each result against central differences of grad (tests/fd.py)."""
import numpy as np

from tests.fd import assert_close, numerical_jvp
from transform import grad, hvp
from transform.public.cache import rules_of
from transform.tangent_grad import _GRADIENTS


def scaled(x, c=2.0):
    return np.sum(np.tanh(c * x) ** 2)


def keyword_only(x, *, c=1.5):
    return np.sum(np.sin(c * x) * x)


def expected(fn, args, v, **kwargs):
    return numerical_jvp(lambda *a: grad(fn)(*a, **kwargs), args, 0, v)


def test_repeated_hvps_compile_nothing_and_keep_one_gradient():
    x, v = np.array([0.3, -0.2, 0.5]), np.array([1.0, 0.5, -1.0])
    first = hvp(scaled, (x,), (v,))
    rules, kept = len(rules_of(scaled)), len(_GRADIENTS)
    for _ in range(3):
        assert_close(hvp(scaled, (x,), (v,)), first)
    assert len(rules_of(scaled)) == rules and len(_GRADIENTS) == kept
    assert_close(first, expected(scaled, (x,), v))


def test_a_default_assigned_later_and_new_shapes_are_seen():
    def local(x, c=2.0):
        return np.sum(np.tanh(c * x) ** 2)
    x, v = np.array([0.3, -0.2]), np.array([1.0, 0.5])
    hvp(local, (x,), (v,))
    local.__defaults__ = (0.5,)
    assert_close(hvp(local, (x,), (v,)), expected(scaled, (x, 0.5), v))
    y, w = np.array([0.1, 0.2, 0.3, 0.4]), np.ones(4)
    assert_close(hvp(local, (y,), (w,)), expected(scaled, (y, 0.5), w))


def test_keyword_only_parameters_take_the_general_path():
    x, v = np.array([0.3, -0.2]), np.array([1.0, 0.5])
    for _ in range(2):
        assert_close(hvp(keyword_only, (x,), (v,)), expected(keyword_only, (x,), v))
