"""hvp forward over reverse over constructs session 38 (fwdcov) took from the refusals of
the corpus sweep (tests/forward/corpus_hvp.py), one small program each, against
central differences of grad (float64), with the route named so that no fallback hides
a refusal.

- an item stored into a dict or list the function made: reverse mode's tape keeps the
  container itself for its shape (`shape_only(d)`), which the next store changes, and
  forward mode's alias check refused that; the flat gradient now keeps a copy
  (runtime/flat.py shape_snapshot); and an entry read `t = d[k]`, `t = unviewed(t)` is
  written `t = unviewed(d[k])`, which the alias check sees as the entry (a view's
  copy), never d itself (transform/flat_gradient.py _entries_unviewed). The alias check
  follows nothing a shape_snapshot holds, nor counts its argument as read (a write
  changes no shape, and its tangent is never read): a row stored then scaled in place,
  a masked part of an array scaled in place.
- a generator function of the user's walked through zip or enumerate: reverse mode's
  rule of it returns the list of its items, and the flat gradient called the function
  itself (a lazy generator, which forward mode refused as kept for later); it calls
  `list(gen(x))` now (transform/flat_calls.py), and its cotangents go through its rule.
- a rule's VJP helper in plain NumPy (logsumexp's, divmod's, np.diff's, a split's
  join): forward mode compiles it from its source (generated_calls.FORWARD_BY_SOURCE),
  before anything runs, so that a refusal inside one is a compile-time TransformError
  (route "auto" falls back: the last test, with a helper whose source it refuses).
- `for t, r in enumerate(xs, start=1)`: forward mode refused a loop over enumerate with
  a start (both routes: reverse over forward too); it walks xs's tangent beside xs,
  the start kept (transform/forward/tangents.py)."""
import numpy as np
import pytest

import transform.generated_calls as generated_calls

from tests.fd import assert_close, numerical_jvp
from tests.optional_scipy import if_scipy, scipy_module
from transform import TransformError, grad, hvp, jvp


def dict_stores(x):
    d = {}
    d["sq"] = x * x
    d["cube"] = d["sq"] * x
    return np.sum(d["sq"] + np.sin(d["cube"]))


def list_slot_stores(x):
    xs = [x, 2.0 * x]
    for k in range(2):
        xs[k] = np.tanh(xs[k] * x)
    return np.sum(xs[0] * xs[1])


def row_scaled_in_place(x):
    S = np.zeros((2, 3))
    S[0] = np.sin(x)
    S[0] *= x
    return np.sum(np.tanh(S))


def masked_part_scaled(x):
    loss = np.where(np.abs(x) > 0.5, np.abs(x) * x, 0.5 * x ** 2)
    loss[np.abs(x) > 0.5] *= 0.5
    return np.sum(np.sin(loss))


def powers(x, n):
    for k in range(1, n + 1):
        yield x ** k


def zipped_generators(x):
    total = 0.0
    for a, b in zip(powers(x, 2), powers(x, 3)):
        total = total + np.sum(np.sin(a) * b)
    return total


def discounted(x):
    total = 0.0
    for t, r in enumerate(np.sin(x), start=1):
        total += 0.9 ** t * r * r
    for t, r in enumerate(x, 2):
        total += np.cos(r) / t
    return total


special = scipy_module("special")


def log_mixture(x):
    return special.logsumexp(np.sin(x) * x) + np.sum(np.diff(x ** 3))


def diff_and_divmod(x):
    return np.sum(np.diff(np.sin(x) * x) ** 2) + divmod(x[0] * 3.0, 0.7)[1] ** 2


def split_joined(x):
    a, b = np.split(np.tanh(x * x[0]), [1])
    return np.sum(a * a) + np.sum(b ** 3)


CASES = if_scipy(log_mixture) + [diff_and_divmod, split_joined, discounted, dict_stores,
                                 list_slot_stores, row_scaled_in_place, masked_part_scaled,
                                 zipped_generators]


@pytest.mark.parametrize("fn", CASES)
def test_forward_over_reverse_matches_differences_of_the_gradient(fn):
    x = np.array([0.3, -0.7, 1.1])
    v = np.array([0.5, 1.0, -0.25])
    want = numerical_jvp(grad(fn), [x], 0, v)
    assert_close(hvp(fn, (x,), (v,), route="forward_over_reverse"), want,
                 rtol=1e-5, atol=1e-7)


def test_enumerate_with_a_start_in_both_routes_and_jvp():
    x = np.array([0.3, -0.7, 1.1])
    v = np.array([0.5, 1.0, -0.25])
    want = numerical_jvp(grad(discounted), [x], 0, v)
    assert_close(hvp(discounted, (x,), (v,), route="reverse_over_forward"), want,
                 rtol=1e-5, atol=1e-7)
    assert_close(jvp(discounted, (x,), (v,))[1], numerical_jvp(discounted, [x], 0, v),
                 rtol=1e-5, atol=1e-7)


def stacked(x):
    return np.sum(np.hstack([x * x, np.sin(x)]) ** 2)


def test_a_source_helper_forward_mode_refuses_is_refused_before_anything_runs(monkeypatch):
    """hstack's VJP helper (not listed: forward mode refuses its split's reshape)
    listed for this test: auto's check compiles it first and takes reverse over
    forward, whose H v matches the differences."""
    monkeypatch.setattr(generated_calls, "FORWARD_BY_SOURCE", generated_calls.FORWARD_BY_SOURCE |
                        {"runtime.rules.shape_helpers." + n for n in ("hstack_vjp", "_split_back")})
    x, v = np.array([0.3, -0.7, 1.1]), np.array([0.5, 1.0, -0.25])
    with pytest.raises(TransformError):
        hvp(stacked, (x,), (v,), route="forward_over_reverse")
    assert_close(hvp(stacked, (x,), (v,), route="auto"), numerical_jvp(grad(stacked), [x], 0, v),
                 rtol=1e-5, atol=1e-7)
