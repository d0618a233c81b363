"""`dict(p)` and `dict(p, k=v)` where the source shows p is a dict (2026-12-02, session 30
(fuzz30); transform/frontend/dict_calls.py writes them as `{**p, "k": v}`), against
central finite differences under every policy; since session 34 (carried) `dict(p, k=v)`
of any p (a parameter, pairs) is `{**dict(p), "k": v}` (dict(p) has a rule for both);
`**` keywords likewise, `{**dict(p), **q}` (session 36)."""
import numpy as np
import pytest

from transform import grad

from .check import check_grad, policies

X = 0.7
A = np.array([0.3, -0.8, 1.1])


def keywords_override_and_add(x, a):
    p = {"w": a * x, "b": np.tanh(x)}
    q = dict(p, b=p["b"] * x, c=np.sin(x))
    return q["b"] * p["b"] + np.sum(q["w"]) * q["c"]


def copy_then_rebind_an_entry(x, a):
    p = {"w": a * x, "b": x}
    r = dict(p)
    r["w"] = r["w"] * 2.0
    return np.sum(r["w"] * r["b"]) + np.sum(p["w"]) * p["b"]


def of_a_comprehension(x, a):
    q = dict({k: a[i] * x for i, k in enumerate("uv")}, u=x * x)
    return q["u"] * q["v"]


def of_a_union_and_of_a_name_merged_in_place(x, a):
    p = {"w": a * x, "b": x}
    for _ in range(2):
        p |= {"b": p["b"] * 0.5 + np.tanh(x)}
    q = dict(p | {"c": x * x}, w=np.sin(a) * p["b"])
    s = dict(p)
    return np.sum(q["w"]) + q["b"] * q["c"] + np.sum(s["w"]) * s["b"]


def of_a_copy_and_of_a_dict_call(x, a):
    p = dict(w=a * x, b=x)
    q = p.copy()
    return np.sum(dict(q, b=x * 3.0)["b"] * dict(p)["w"])


def of_pairs(x, a):
    return dict([("u", x), ("v", a)])["u"] * 2.0 + np.sum(dict([("v", a * x)])["v"])


CASES = [keywords_override_and_add, copy_then_rebind_an_entry, of_a_comprehension,
         of_a_union_and_of_a_name_merged_in_place, of_a_copy_and_of_a_dict_call,
         of_pairs]         # dict(pairs): py30b's rule (session 30)


@pytest.mark.parametrize("policy", policies())
@pytest.mark.parametrize("fn", CASES, ids=lambda f: f.__name__)
def test_gradient_matches_finite_differences(fn, policy):
    check_grad(fn, (X, A), wrt=(0, 1), policy=policy)


def _of(p, v):
    return dict(p, b=v * 2.0)


def of_a_parameter(x, a):          # session 34: dict(p, k=v) of any p is {**dict(p), "k": v}
    q = _of({"w": a * x, "b": x}, np.sin(x))
    return np.sum(q["w"]) * q["b"]


def of_a_name_bound_to_pairs_once(x, a):
    p = {"w": a * x}
    if x > 100.0:
        p = [("w", a)]
    return np.sum(dict(p, b=x)["w"]) + dict([("u", x * a[0])], v=x)["u"] * 3.0


@pytest.mark.parametrize("fn", [of_a_parameter, of_a_name_bound_to_pairs_once],
                         ids=lambda f: f.__name__)
def test_keywords_over_a_parameter_or_pairs(fn):
    check_grad(fn, (X, A), wrt=(0, 1))


def of_the_argument(p, x):
    q = dict(p, b=x * p["b"])
    return np.sum(q["w"] * q["b"]) + p["b"]


def test_keywords_over_the_argument_grad_is_given():
    check_grad(of_the_argument, ({"w": A, "b": X}, 0.4), wrt=(0, 1))


def with_double_star(x, a):
    p = {"w": a * x}
    return np.sum(dict(p, **{"b": x})["w"])


def test_double_star_keywords_grad_matches_differences():
    """`dict(p, **q)` is `{**dict(p), **q}` since session 36 (refused before)."""
    check_grad(with_double_star, (X, A), wrt=(0, 1))
