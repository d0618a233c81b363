"""Refusal messages a red team found wrong or bare (round 25): each names the user's
line and column and says what to write instead, in the user's terms."""
import re
from typing import NamedTuple

import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_function, check_grad
from transform import TransformError, grad


class Point(NamedTuple):
    x: np.ndarray
    y: float


ACTS = {
    "sq": lambda z: z * z,
}
LAYERS = [lambda z: z * 2.0, lambda z: z + 1.0]


def star_in_a_list_display(x):
    base = [1.0, 2.0]
    ws = [*base, 3.0]
    return np.sum(x) * sum(ws)


def replace_a_field(x):
    p = Point(x, 1.0)
    q = p._replace(y=np.sum(x ** 2))
    return np.sum(q.x) * q.y


def nested_walrus(x):
    y = (a := (b := np.sum(x)) * 2.0) + b
    return y * a


def setdefault_then_append(x):
    groups = {}
    for i in range(3):
        groups.setdefault(i % 2, []).append(x[i] ** 2)
    return sum(sum(v) for v in groups.values())


def bound_array_method(x):
    y = x * 2.0
    f = y.sum
    return f() + np.sum(y ** 2)


def lambda_in_a_dict(x):
    return np.sum(ACTS["sq"](x))


def two_lambdas_on_a_line(x):
    h = x
    for f in LAYERS:
        h = f(h)
    return np.sum(h ** 2)


def _refusal(fn):
    with pytest.raises(TransformError) as info:
        grad(fn)(np.array([0.5, -1.0, 2.0]))
    message = str(info.value)
    assert re.match(r"\S+\.py:\d+:\d+: ", message), message
    assert "Instead:" in message, message
    return message


# Refused in round 25, supported since issue 16 (the starred display is the
# concatenation Python builds, `_replace` passes the new values by position): the
# tests now check their gradients against finite differences.
@pytest.mark.parametrize("policy", POLICIES)
def test_starred_display_is_differentiated(policy):
    check_grad(star_in_a_list_display, [np.array([0.5, -1.0, 2.0])], policy=policy)


@pytest.mark.parametrize("policy", POLICIES)
def test_replace_of_a_field_is_differentiated(policy):
    check_grad(replace_a_field, [np.array([0.5, -1.0, 2.0])], policy=policy)


def test_nested_walrus_is_named():
    assert "inside another `:=`" in _refusal(nested_walrus)


def test_setdefault_idiom_names_the_call_not_a_temporary():
    message = _refusal(setdefault_then_append)
    assert "item1" not in message and "groups.setdefault(i % 2, [])" in message
    assert "d[k] = d.get(k, []) + [v]" in message


def test_bound_array_method_suggests_calling_it_on_the_array():
    message = _refusal(bound_array_method)
    assert "register a rule" not in message and "y.sum()" in message


@pytest.mark.parametrize("fn", [lambda_in_a_dict, two_lambdas_on_a_line],
                         ids=lambda f: f.__name__)
def test_lambda_source_once_refused_is_now_isolated(fn):
    # (were "cannot isolate this lambda's source": a lambda on a line that does not
    # parse alone, two lambdas with the same parameters on one line; issue 16 closures
    # isolates both, by parsing from `lambda` and by the code's column)
    check_function(fn, [np.array([0.5, -1.0, 2.0])])
