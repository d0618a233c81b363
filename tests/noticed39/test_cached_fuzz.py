"""Session 39, item 1: the user_objects generator draws functools.cached_property getters
(tests/fuzz/gen_objects.py), read twice in f. It found at once that a cached_property's
getter reading `self.data` was refused from inside generated code (`.data` taken for
ndarray memory: the getter was not known as the class's own); now computed."""
import numpy as np

from tests.fd import assert_close, numerical_grad, numerical_jvp
from tests.fuzz.classes import make_case
from tests.fuzz.oracle import judge
from tests.fuzz.oracle_forward import judge_forward
from tests.noticed39 import programs as P
from transform import grad, jvp

X, W, V = 0.4, np.array([0.3, -0.5, 0.9]), np.array([0.8, -0.3, 0.6])


def test_cached_getter_reads_own_data_grad_and_jvp():
    f = P.cached_reads_data
    for k in (0, 1):
        assert_close(grad(f, wrt=k)(X, W), numerical_grad(f, (X, W), k))
    assert_close(jvp(f, (X, W), (V,), wrt=1)[1], numerical_jvp(f, [X, W], 1, V))


def _first_cached(start):
    seed = start
    while "cached_property" not in make_case("user_objects", seed).productions:
        seed += 1
    return seed


def test_generator_case_with_cached_property_passes_grad_and_jvp():
    seed = _first_cached(0)
    assert "functools.cached_property" in make_case("user_objects", seed).source
    assert judge(make_case("user_objects", seed)).outcome == "passed"
    assert judge_forward(make_case("user_objects", seed)).outcome == "passed"
