"""Refusals of issue 16's statements and builtins (round 27): each names the user's line
and says what to write instead; and the buffer swaps the alias check must still refuse."""
import functools

import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad
from transform import TransformError, grad


def add_all(*vs):
    out = 0.0
    for v in vs:
        out = out + v
    return out


def star_call_of_grown_list(x):
    xs = []
    for i in range(3):
        xs.append(x * (i + 1.0))
    return np.sum(add_all(*xs))


def doubled(x):
    k = 0
    while True:                 # never ends: zip would read it in part
        yield x[k % len(x)] * 2.0
        k += 1


def zip_of_generator(x):
    total = 0.0
    for a, b in zip(doubled(x), x):
        total = total + a * b
    return total


def same_array_twice_then_augmented(x):
    y = x * 2.0
    xs = [y, y]
    xs[0] *= 2
    return np.sum(xs[0] + xs[1])


def swap_then_write_under_a_view(x):
    a = x * 1.0
    b = x * 0.0
    v = a[1:]
    a, b = b, a
    b[0] = 3.0
    return np.sum(v)


def swap_two_names_for_one_array(x):
    a = x * 1.0
    b = a
    for i in range(2):
        b[1:] = a[:-1] * 0.5
        a, b = b, a
    return np.sum(a)


def swap_holding_the_argument(x):
    a = x
    b = x * 1.0
    for i in range(2):
        b[1:] = a[:-1] * 0.5
        a, b = b, a
    return np.sum(a)


def swap_kept_in_history(x):
    a = x * 1.0
    b = x * 0.0
    hist = []
    for i in range(3):
        b[:] = a * 0.5
        hist.append(a)
        a, b = b, a
    return sum(np.sum(h ** 2) for h in hist)


def reduce_with_keyword(x):
    return functools.reduce(lambda a, b: a + b, [x, x * 2.0], initial=0.0)


@pytest.mark.parametrize("fn, line_text, instead", [
    (zip_of_generator, "zip(doubled(x), x)", "zip(list("),
    (same_array_twice_then_augmented, "xs[0] *= 2", "xs[0] = xs[0] * 2"),
    (swap_then_write_under_a_view, "b[0] = 3.0", "copy"),
    (swap_two_names_for_one_array, "b[1:] = a[:-1] * 0.5", "copy"),
    (swap_holding_the_argument, "b[1:] = a[:-1] * 0.5", ""),
    (swap_kept_in_history, "b[:] = a * 0.5", ""),
])
def test_refused_at_the_users_line_with_an_instead(fn, line_text, instead):
    with pytest.raises(TransformError) as info:
        grad(fn)(np.linspace(0.1, 0.9, 5))
    text = str(info.value)
    assert "test_messages_stmt16.py" in text and line_text in text
    assert "Instead:" in text and instead in text


@pytest.mark.parametrize("policy", POLICIES)
def test_star_of_a_grown_list_into_varargs_is_differentiated(policy):
    """session 30 (py30a): refused before; a helper's *args is now compiled for the
    number of values spread into it (transform/frontend/varargs.py)."""
    check_grad(star_call_of_grown_list, [np.linspace(0.1, 0.9, 5)], policy=policy)


def test_reduce_with_a_keyword_is_python_s_error():
    """functools.reduce takes no keywords in Python before 3.14: left as written, it
    raises what Python raises (no differentiated value is lost silently)."""
    with pytest.raises((TypeError, TransformError)):
        grad(reduce_with_keyword)(np.linspace(0.1, 0.9, 5))
