"""Session 36: items noticed and left alone in earlier sessions, each against central
differences in float64 computed without thunkgrad (tests/fd.py, red2's second
differences)."""
import warnings

import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad
from tests.gradcheck import readonly, rng
from tests.noticed36 import programs as P
from tests.red2.check import CHECKS, flat, unflat
from transform import TransformError, grad

X = np.array([0.3, -0.2, 0.5, -1.1])
# name: (the argument, checks): grad against first differences, the rest red2's
CASES = {
    "piecewise_keywords_named_like_vjp": (X, ("grad", "jvp", "hvp")),   # hvp: session 37
    "super_call_of_differentiated_object": (P._Doubled(P.W3), ("grad", "jvp", "hvp")),
    "super_call_on_argument": (P.H, ("grad", "jvp", "hvp", "hessian")),
    **{name: (P.H, ("grad", "jvp", "hvp", "hessian")) for name in (
        "partial_binding_float_keyword", "partial_binding_differentiated_keyword",
        "keyword_only_through_spread_dict", "keyword_only_passed_directly",
        "helper_with_constant_keywords", "dict_with_spread_keywords",
        "dict_of_pairs_with_spread_keywords", "own_method_named_otherwise",
        "copies_of_a_dataclass", "class_constant_through_a_built_object")},
    "class_constant_of_an_argument": (P._Rated(P.H), ("grad", "jvp", "hvp")),
    "method_setting_attributes_in_statements": (P.H, ("grad",)),
    "own_copy_method": (P.H, ("grad",)),
}


@pytest.mark.parametrize("name, check", [(n, c) for n, (_, cs) in CASES.items() for c in cs])
def test_against_finite_differences(name, check):
    f, (x, _) = getattr(P, name), CASES[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        if check == "grad":
            want = numerical_grad(lambda v: f(unflat(x, v)), (flat(x),), 0)
            assert_close(flat(grad(f)(readonly((x,))[0])), want)
        else:
            CHECKS[check](f, list(readonly((x,))), 0, rng("noticed36", name, check))


def test_super_method_read_as_value_is_refused_at_its_line():
    """`call = super().__call__` would drop the object's derivative: refused there."""
    with pytest.raises(TransformError) as info:
        grad(P.super_method_read_as_value)(P.W3)
    assert "programs.py:" in str(info.value).splitlines()[0]
    assert "call = super().__call__" in str(info.value)


def test_grad_of_grad_through_a_keyword_only_parameter():
    f, x, h = P.scalar_keyword_calls, 0.4, 1e-4
    want = (f(x + h) - 2 * f(x) + f(x - h)) / h ** 2
    assert_close(grad(grad(f))(x), want, rtol=1e-5)


def test_third_derivative_through_a_keyword_is_refused_at_the_users_line():
    with pytest.raises(TransformError, match="a call passing keyword arguments") as info:
        grad(grad(grad(P.scalar_keyword_calls)))(0.4)
    assert "programs.py:" in str(info.value).splitlines()[0]


@pytest.mark.parametrize("check", ["jvp", "hvp"])
def test_own_copy_method_refused_at_the_call(check):
    with pytest.raises(TransformError, match="method named copy") as info:
        CHECKS[check](P.own_copy_method, [P.H], 0, rng("noticed36 copy"))
    assert "q = p.copy()" in str(info.value) and "clone" in str(info.value)


def test_method_setting_attributes_inside_an_expression_says_what_to_write():
    """The hint named what the user had done (`m = M(); m.step(x)`): it says to call the
    method in a statement of its own."""
    with pytest.raises(TransformError) as info:
        grad(P.method_setting_attributes_inside_an_expression)(P.H)
    text = str(info.value)
    assert "self.h = np.tanh(self.h + x)" in text and "statement of its own" in text
    assert "return np.sum(m.step(x * 2.0))" in text          # the call that reached it
