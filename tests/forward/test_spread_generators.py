"""Forward mode (jvp, jacfwd) and hvp through `f(*xs)` with xs of a run-time length
(transform/spread_jvp.py), helpers taking `*args`, generator expressions and generator
helpers (`yield`, compiled as list-returning functions): against central differences
of the function itself (tests/fd.py; H v by mixed second differences), float64."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_jvp
from tests.gradcheck import rng
from transform import TransformError, hvp, jacfwd, jvp


def pair(a, b):
    return a * np.sin(b) + b ** 2


def total(*xs):
    return sum(v * v for v in xs)


def scaled(*xs, scale=1.0):
    return scale * np.prod(np.stack(xs), axis=0)


def star_of_a_grown_list(x):
    xs = [np.sin(x)]
    xs.append(x * x)
    return np.sum(pair(*xs))


def star_with_a_keyword(x):
    xs = [x]
    xs.append(np.sin(x))
    return np.sum(scaled(*xs, scale=0.5))


def star_of_rows(x):
    m = np.outer(x, x)[:2]
    return np.sum(pair(*m))


def star_of_a_comprehension(x):
    return np.sum(total(*[np.cos(x * k) for k in range(1, 4)]))


def star_in_a_loop(x):
    s = 0.0
    for k in range(1, 4):
        xs = [x * j for j in range(k)]         # 0, 1, 2 values into *xs
        s = s + np.sum(total(*xs))
    return s


def varargs_helper(x):
    return np.sum(total(x, np.exp(x)) + scaled(x, x + 1.0, np.tanh(x), scale=0.5))


def head_and_rest(a, *rest):
    return np.sum(a * a) + sum(np.sum(np.sin(v)) for v in rest)


def varargs_counts(x):                 # no value, one, two into *rest
    return head_and_rest(x) + head_and_rest(x, x * 2.0) + head_and_rest(x, x, np.cos(x))


def varargs_through_varargs(x):
    return np.sum(outer_args(x, x * 2.0, np.sin(x)))


def outer_args(*xs):
    return total(*xs) * scaled(*xs[1:])


def generator_expressions(x):
    n = x.shape[0]
    w = np.arange(1.0, n + 1.0)
    s = sum(w[i] * x[i] ** 2 for i in range(n))
    parts = tuple(np.sin(v) * v for v in x)
    biggest = max(v * np.cos(v) for v in x)
    return s + np.sum(np.array(parts)) * biggest + np.sum(np.stack(list(v ** 3 for v in x)))


def squares(x):
    for k in range(x.shape[0]):
        yield x[k] ** 2 * (k + 1.0)


def leaves(x):
    yield from squares(x)
    yield np.sum(np.sin(x))


def generator_helpers(x):
    t = sum(squares(x)) * np.prod(np.array(list(leaves(x))))
    for k, v in enumerate(leaves(x)):
        t = t + v * (k + 0.5)
    return t


CASES = [star_of_a_grown_list, star_with_a_keyword, star_of_rows, star_of_a_comprehension,
         star_in_a_loop, varargs_helper, varargs_counts, varargs_through_varargs,
         generator_expressions, generator_helpers]


def _point(name):
    r = rng("spread generators", name)
    return r.normal(size=3) * 0.6 + 0.2, r.normal(size=3)


def _second_differences(f, x, v, h=1e-4):
    """H v by mixed central differences of f alone: d/dt d/ds f(x + t v + s e_i)."""
    out = np.zeros_like(x)
    for i in range(x.size):
        e = np.zeros_like(x)
        e[i] = h
        out[i] = (f(x + h * v + e) - f(x + h * v - e) - f(x - h * v + e) +
                  f(x - h * v - e)) / (4 * h * h)
    return out


@pytest.mark.parametrize("fn", CASES, ids=lambda f: f.__name__)
def test_jvp_and_hvp_match_differences(fn):
    x, v = _point(fn.__name__)
    out, tangent = jvp(fn, (x,), (v,))
    assert_close(out, fn(x), rtol=1e-12, atol=1e-12)
    assert_close(tangent, numerical_jvp(fn, [x], 0, v), rtol=1e-6, atol=1e-8)
    assert_close(hvp(fn, (x,), (v,)), _second_differences(fn, x, v), rtol=1e-4, atol=1e-5)


def spread_list_parameter(x, ys):
    return pair(*ys) * x + total(*ys, x)


def test_jvp_and_jacfwd_through_a_list_parameter_spread():
    """The list's tangent (a list beside it) spread with its entries."""
    r = rng("spread generators", "list parameter")
    x, ys = r.normal(size=2), [r.normal(size=2), r.normal(size=2)]
    tx, tys = r.normal(size=2), [r.normal(size=2), r.normal(size=2)]
    _, got = jvp(spread_list_parameter, (x, ys), (tx, tys))
    eps = 1e-6
    up = spread_list_parameter(x + eps * tx, [a + eps * t for a, t in zip(ys, tys)])
    down = spread_list_parameter(x - eps * tx, [a - eps * t for a, t in zip(ys, tys)])
    assert_close(got, (up - down) / (2 * eps), rtol=1e-6, atol=1e-8)
    jac = jacfwd(spread_list_parameter, 0)(x, ys)
    for k in range(2):
        assert_close(jac[:, k], numerical_jvp(spread_list_parameter, [x, ys], 0,
                                              np.eye(2)[k]), rtol=1e-6, atol=1e-8)


def varargs_vector(x):
    return scaled(x, np.sin(x), x * x)


def generator_vector(x):
    return np.stack(list(squares(x)))


def test_jacfwd_of_a_varargs_helper_and_a_generator():
    x = _point("jacfwd")[0]
    for fn in (varargs_vector, generator_vector):
        jac = jacfwd(fn)(x)
        for k in range(3):
            assert_close(jac[:, k], numerical_jvp(fn, [x], 0, np.eye(3)[k]), rtol=1e-6,
                         atol=1e-8)


def test_a_generator_function_itself_is_refused():
    x = np.ones(3)
    for call in (lambda: jvp(squares, (x,), (x,)), lambda: hvp(squares, (x,), (x,))):
        with pytest.raises(TransformError, match="generator function"):
            call()


def spread_to_a_closure(x):
    g = lambda a, b: a * b * x          # noqa: E731 - carries x's derivative
    xs = [x]
    xs.append(np.sin(x))
    return np.sum(g(*xs))


def test_a_spread_to_a_closure_over_differentiated_values_is_refused_at_the_line():
    with pytest.raises(TransformError) as info:
        jvp(spread_to_a_closure, (np.ones(2),), (np.ones(2),))
    assert info.value.line == spread_to_a_closure.__code__.co_firstlineno + 4


def model(w, b, scale=1.0):
    return w * np.sin(b) * scale


def layer(x, *, w, b=0.0):
    return np.tanh(x * w + b)


def rest_helper(a, **rest):
    return np.sum(a ** 2 * rest["c"]) + len(rest)


def keywords_grown(x):
    kw = {}
    for name in ("w", "b"):
        kw[name] = x * (2.0 if name == "w" else 0.5)
    return np.sum(model(**kw)) + rest_helper(np.cos(x), c=3.0, tag="run")


def keywords_of_a_dict_parameter(x, params):
    return np.sum(model(x, **params))


def keyword_only_from_a_dict(x):
    params = {"w": x * 0.5}
    params["b"] = 0.3
    return np.sum(layer(x, **params))


@pytest.mark.parametrize("fn", [keywords_grown, keywords_of_a_dict_parameter],
                         ids=lambda f: f.__name__)
def test_keywords_spread_from_a_dict(fn):
    x, v = _point(fn.__name__)
    args = (x,) if fn is keywords_grown else (x, {"b": x[::-1] * 0.7, "scale": 2.0})
    f = (lambda z: fn(z, *args[1:]))
    assert_close(jvp(fn, args, (v,), wrt=0)[1], numerical_jvp(f, [x], 0, v), rtol=1e-6,
                 atol=1e-8)
    assert_close(hvp(fn, args, (v,), wrt=0), _second_differences(f, x, v), rtol=1e-4,
                 atol=1e-5)


def test_a_keyword_only_parameter_from_a_dict():
    """jvp takes it by name; hvp too since session 36 (call_jvp's reverse rule gives the
    keywords carrying a tangent cotangents by name; refused before)."""
    x, v = _point("keyword only")
    f = keyword_only_from_a_dict
    assert_close(jvp(f, (x,), (v,))[1], numerical_jvp(f, [x], 0, v), rtol=1e-6, atol=1e-8)
    assert_close(hvp(f, (x,), (v,)), _second_differences(f, x, v), rtol=1e-4, atol=1e-5)


def batches(m, size):
    for i in range(0, m.shape[0], size):
        yield m[i:i + size]


def loop_over_batches(w, m):
    total = 0.0
    for rows in batches(m, 2):            # no tangent: listed in the forward code
        total += np.sum(np.tanh(rows @ w) ** 2)
    return total


def test_hvp_through_a_loop_over_a_generator_without_a_tangent():
    w, v = _point("batches")
    m = rng("spread generators", "rows").normal(size=(5, 3))
    f = (lambda z: loop_over_batches(z, m))
    assert_close(hvp(loop_over_batches, (w, m), (v,), wrt=0), _second_differences(f, w, v),
                 rtol=1e-4, atol=1e-5)


def into_kwargs(x):
    p = {"a": x}
    p["extra"] = x * 2.0                  # lands in rest_helper's **rest
    return rest_helper(**p)


def test_a_differentiated_value_spread_into_kwargs_is_refused_at_the_line():
    """jvp and hvp's reverse over forward refuse the entry landing in **kwargs; hvp's
    default (auto: forward over reverse, whose gradient code refuses `**` of a dict
    when it runs) refuses the `**` at the same line."""
    x = np.ones(3)
    for call, match in ((lambda: jvp(into_kwargs, (x,), (x,)), r"\*\*kwargs"),
                        (lambda: hvp(into_kwargs, (x,), (x,), route="reverse_over_forward"),
                         r"\*\*kwargs"),
                        (lambda: hvp(into_kwargs, (x,), (x,)), r"`\*\*` of a dict")):
        with pytest.raises(TransformError, match=match) as info:
            call()
        assert info.value.line == into_kwargs.__code__.co_firstlineno + 3
