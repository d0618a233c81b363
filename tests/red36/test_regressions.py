"""The wrong values red36 found, reduced, against central differences (tests/fd.py).

1. Forward mode walked a sequence without a tangent twice in a loop unpacking nested
   targets: `for (s, y), a in zip(zip(ss, ys), alphas)` ran
   `zip(zip(seq1, seq2), zip(seq1, seq2_dot))` over the one-shot inner zip, pairing
   alternate items and stopping after half the trips: jvp's value and tangent wrong
   (an L-BFGS two-loop recursion).
2. A nested def or a lambda bound to a local name, called in an `if`/`while` test, a
   comparison, a comprehension's filter or an assert, was left in that expression while
   its definition was inlined away: NameError, or with a module-level function of the
   same name, that function was called (a wrong branch in every mode). Such calls are
   now computed before the test (in a branch where the test may skip them).
"""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad, numerical_jvp
from transform import TransformError, grad, hvp, jvp


def f(v):                       # the module-level name the local lambdas shadow
    return v ** 3


def nested_zip(g, s):
    r = g
    for (si, yi), a in zip(zip(s, s), [g[0], g[1]]):
        r = r + a * si * yi
    return r


def zip_of_generator(g, s):
    r = g
    for si, a in zip((v for v in s), [g[0], 2 * g[1]]):
        r = r * a + si
    return r


def lbfgs(g, s, y):
    q, alphas = g.copy(), []
    for si, yi in reversed(list(zip(s, y))):
        a = si @ q / (yi @ si)
        q = q - a * yi
        alphas.append(a)
    r = q * (s[-1] @ y[-1]) / (y[-1] @ y[-1])
    for (si, yi), a in zip(zip(s, y), reversed(alphas)):
        r = r + si * (a - yi @ r / (yi @ si))
    return r


@pytest.mark.parametrize("fn", [nested_zip, zip_of_generator, lbfgs])
def test_jvp_walks_a_one_shot_iterator_once(fn):
    r = np.random.default_rng(36)
    g, t = r.normal(size=3), r.normal(size=3)
    args = [g, [r.normal(size=3) for _ in range(2)], [r.normal(size=3) + 2 for _ in range(2)]]
    args = args[:fn.__code__.co_argcount]
    out, tangent = jvp(fn, tuple(args), (t,), wrt=0)
    assert_close(out, fn(*args), 1e-12, 1e-12, "value")
    assert_close(tangent, numerical_jvp(fn, args, 0, t), 1e-5, 1e-6, "tangent")


def if_test(x):
    f = lambda v: v ** 2  # noqa: E731
    if f(x) > 0.3:
        return 2 * x * x
    return 3 * x


def while_test(x):
    def f(v):
        return v ** 2
    y = x
    while f(y) < 0.3:
        y = y * 1.5
    return y * x


def comparison_value(x):
    f = lambda v: v ** 2  # noqa: E731
    big = f(x) > 0.3
    return np.sin(x) if big else np.cos(x)


def conditional_expression(x):
    f = lambda v: v ** 2  # noqa: E731
    return 2 * x * x if f(x) > 0.3 else 3 * x


def comprehension_filter(x):
    f = lambda v: v ** 2  # noqa: E731
    return sum([v * v for v in x if f(v) > 0.3])


def asserted(x):
    f = lambda v: v ** 2  # noqa: E731
    assert f(x) > 0.3
    return x ** 3


def line_search(x):
    g = lambda t: (x - t) ** 2 + 0.1 * t ** 4  # noqa: E731
    t = 1.0
    while g(t) > g(0.0) - 0.1 * t:
        t *= 0.5
    return g(t) * t


@pytest.mark.parametrize("fn, x", [
    (if_test, 0.6), (while_test, 0.4), (comparison_value, 0.6),
    (conditional_expression, 0.6), (asserted, 0.6), (line_search, 0.8),
    (comprehension_filter, np.array([0.6, 0.2, -0.8]))])
def test_local_function_called_in_a_test(fn, x):
    assert_close(grad(fn)(x), numerical_grad(fn, [x], 0), 1e-5, 1e-6, "grad")
    t = 1.0 if isinstance(x, float) else np.ones_like(x)
    out, tangent = jvp(fn, (x,), (t,))
    assert_close(out, fn(x), 1e-12, 1e-12, "value")
    assert_close(tangent, numerical_jvp(fn, [x], 0, t), 1e-5, 1e-6, "tangent")
    g = grad(fn)
    want = numerical_jvp(g, [x], 0, t)
    for route in ("reverse_over_forward", "forward_over_reverse"):
        try:
            got = hvp(fn, (x,), (t,), route=route)
        except TransformError:
            continue
        assert_close(got, want, 1e-5, 1e-6, f"hvp {route}")


def skipped_by_and(x):
    f = lambda v: v ** 2  # noqa: E731
    if x > 0 and f(x) > 0.3:
        return 2 * x * x
    return 3 * x


def skipped_by_or(x):
    f = lambda v: v ** 2  # noqa: E731
    if x < 0 or f(x) > 0.3:
        return 2 * x * x
    return 3 * x


def chained_comparison(x):
    f = lambda v: v ** 2  # noqa: E731
    g = lambda v: v + 1  # noqa: E731
    return x * x if 0.0 < f(x) < g(x) < 1.7 else x


def branch_of_a_test(x):
    f = lambda v: v ** 2  # noqa: E731
    return x * x if (f(x) if x > 0 else -f(x)) > 0.3 else x


def comprehension_in_a_test(x):
    f = lambda v: v ** 2  # noqa: E731
    y = x
    while sum(f(v) for v in y) > 0.5 and np.sum(f(y) * 2) > 0.1:
        y = y * 0.8
    return np.sum(y * x)


@pytest.mark.parametrize("fn, x", [
    (skipped_by_and, 0.6), (skipped_by_and, -0.6), (skipped_by_or, 0.6),
    (skipped_by_or, 0.4), (chained_comparison, 0.6), (chained_comparison, 0.9),
    (branch_of_a_test, 0.6), (branch_of_a_test, -0.6),
    (comprehension_in_a_test, np.array([0.6, -0.9]))])
def test_local_function_a_test_may_skip_runs_in_a_branch(fn, x):
    # the call after `and`/`or`, in a branch or a chained comparison's later terms runs
    # only when Python's does (computed in a branch of the lowered test)
    test_local_function_called_in_a_test(fn, x)


def target_active_sequence_not(g, s):
    si = g[0]                   # `si` carries a tangent elsewhere; the zip's items none
    r = g * si
    for (si, yi), a in zip(zip(s, s), [g[0], g[1]]):
        r = r + a * si * yi
    return r


def test_jvp_zero_tangents_for_targets_of_a_sequence_without_one():
    # TypeError before: the loop walked zero_tangent(zip object), which is None
    r = np.random.default_rng(7)
    g, t, s = r.normal(size=3), r.normal(size=3), [r.normal(size=3) for _ in range(2)]
    out, tangent = jvp(target_active_sequence_not, (g, s), (t,), wrt=0)
    assert_close(out, target_active_sequence_not(g, s), 1e-12, 1e-12, "value")
    assert_close(tangent, numerical_jvp(target_active_sequence_not, [g, s], 0, t), 1e-5, 1e-6)
