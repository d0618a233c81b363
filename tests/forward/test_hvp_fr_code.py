"""The code hvp's forward-over-reverse route runs, made lean (transform/forward/prune.py,
zeros.py, common.py; docs/forward.md "Forward over reverse: the waste removed"): what
is gone from the generated text, values against central differences of grad, the
`plus_zero` and `zero_plus` helpers against the sums they stand for, and route "auto"."""
import numpy as np
import pytest

from runtime.flat import plus_zero, zero_plus
from runtime.rules.forward_container_helpers import zero_addend
from tests.fd import assert_close, numerical_jvp
from tests.gradcheck import rng
from transform import TransformError, grad, hvp
from transform.hessians import hvp_source, run as hessians_run
from transform.hvp_forward import tangent_code
from transform.api import compiled
from transform.public.parameters import _full_signature

FR = "forward_over_reverse"


def rnn(Wh, Wx, b, xs, h):
    for x in xs:
        h = np.tanh(Wh @ h + Wx @ x + b)
    return np.sum(h * h)


def mlp(W1, X, W2):
    h = np.tanh(X @ W1)
    z = h @ W2
    return np.mean(np.log(np.sum(np.exp(z - np.max(z, axis=1, keepdims=True)), axis=1)))


def _tangent_source(fn, args, wrt):
    signature = _full_signature(fn, args, {})
    return tangent_code(compiled(fn, (wrt,), "loop", signature=signature), fn, (wrt,),
                        signature).source


def _rnn_args(r):
    return (0.5 * r.normal(size=(4, 4)), r.normal(size=(4, 3)), r.normal(size=4),
            r.normal(size=(5, 3)), r.normal(size=4))


def _mlp_args(r):
    return r.normal(size=(3, 4)), r.normal(size=(5, 3)), r.normal(size=(4, 2))


def test_the_rnns_tangent_code_computes_no_gradient_and_adds_no_zeros():
    r = rng(361)
    args, v = _rnn_args(r), r.normal(size=(4, 4))
    text = _tangent_source(rnn, args, "Wh")
    assert "zero_addend" not in text and "plus_zero(" in text
    assert "lhs_products(dWh_products_gs, dWh_products_bs, Wh)" not in text   # the gradient
    assert "n2 += 1" not in text                # forward mode's own loop count, unread
    assert_close(hvp(rnn, args, (v,), route=FR), numerical_jvp(grad(rnn), args, 0, v),
                 rtol=1e-5, atol=1e-6)


def test_the_mlps_tangent_code_shares_tanhs_slope_and_frees_its_temporaries():
    r = rng(362)
    args, v = _mlp_args(r), r.normal(size=(3, 4))
    text = _tangent_source(mlp, args, "W1")
    assert text.count("h ** 2") == 1
    assert "\n    del " in text and "matmul_rhs(t" in text
    assert_close(hvp(mlp, args, (v,), route=FR), numerical_jvp(grad(mlp), args, 0, v),
                 rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("tangent, other", [
    (np.ones(3), np.zeros(3)),                          # the tangent itself
    (np.ones(3, np.float32), np.zeros(3)),              # promoted to float64
    (np.ones(3), np.zeros((2, 3))),                     # broadcast to the sum's shape
    (np.ones(3), np.zeros(3, int)),                     # an int operand's zeros are float
    (np.float64(2.0), np.zeros(3)),
    (np.ones(()), np.zeros(())),                        # a 0-d sum is a NumPy scalar
    (np.ones(3, np.float32), 1.5),
    (np.ones(2), True),
    ([1.0, 2.0], [3.0]),                                # lists concatenate
    ((np.ones(2),), (np.zeros(2),)),                    # tuples too
])
@pytest.mark.parametrize("zero_first", [False, True])
def test_plus_zero_and_zero_plus_are_the_sums_they_stand_for(tangent, other, zero_first):
    got, want = (zero_plus(other, tangent), zero_addend(other) + tangent) if zero_first \
        else (plus_zero(tangent, other), tangent + zero_addend(other))
    assert type(got) is type(want) and np.shape(got) == np.shape(want)
    assert getattr(got, "dtype", None) == getattr(want, "dtype", None)
    assert np.array_equal(got, want)
    got, want = zero_plus(other, tangent), zero_addend(other) + tangent    # the zeros first
    assert type(got) is type(want) and np.array_equal(got, want)


def starred_rows(x, rows):        # session 37: x's tangent went to rows[0]'s place
    return np.sum(np.stack([*rows, x]) ** 2 * np.arange(1.0, 4.0)[:, None])


def rows_tuple_then_x(x, rows):
    return np.sum(np.stack(tuple(rows) + (x,)) ** 3)


@pytest.mark.parametrize("fn", [starred_rows, rows_tuple_then_x])
def test_a_tangent_after_a_list_without_one_keeps_its_place(fn):
    """`zero_addend(rows) + x_dot` concatenates: zero_plus keeps rows' zeros first."""
    r = rng(371)
    args, v = (r.normal(size=3), [r.normal(size=3), r.normal(size=3)]), r.normal(size=3)
    assert "zero_plus(" in _tangent_source(fn, args, "x")
    assert_close(hvp(fn, args, (v,), route=FR), numerical_jvp(grad(fn), args, 0, v),
                 rtol=1e-5, atol=1e-6)


def solved(x):
    """vstack's cotangent helper has no tangent under forward over reverse (np.linalg.solve's
    stood here until session 39 gave solve_vjp a rule)."""
    return np.sum(np.vstack([x, np.sin(x)]) ** 3)


def _inner(x):
    return np.sum(np.sin(x) ** 2)


def _grad_weighted(x):
    return np.sum(grad(_inner)(x) * x)


def uses_grad(x):
    return 2.0 * _grad_weighted(x)


def test_auto_takes_reverse_over_forward_where_forward_over_reverse_will_not_compile():
    x, v = np.array([0.3, 0.5]), np.array([1.0, -2.0])
    with pytest.raises(TransformError, match="derivative code of `vstack`"):  # before it runs
        hvp(solved, (x,), (v,), route=FR)
    want = hvp(solved, (x,), (v,), route="reverse_over_forward")
    assert_close(hvp(solved, (x,), (v,), route="auto"), want, rtol=1e-12, atol=0)
    header, code = hvp_source(solved, route="auto").split("\n", 1)
    assert code == hvp_source(solved, route="reverse_over_forward")
    assert header.startswith("# thunkgrad: hvp route auto takes reverse over forward for "
                             "solved: forward over reverse refuses it (line ")
    assert "vstack_vjp" in header
    assert hvp_source(rnn, route="auto") == hvp_source(rnn, route=FR)


def test_the_default_route_is_auto(monkeypatch):
    """hvp without `route` runs forward over reverse's code where it compiles (_inner) and
    reverse over forward where it refuses at compile time (solved): H v against central
    differences of grad either way."""
    import transform.hessians as hessians
    assert hessians.DEFAULT_ROUTE == "auto"
    ran = []
    monkeypatch.setattr(hessians, "run", lambda *a: ran.append(1) or hessians_run(*a))
    r = rng(381)
    for fn, x, took in ((_inner, r.normal(size=3), [1]), (solved, np.array([0.3, 0.5]), [])):
        ran.clear()
        v = r.normal(size=x.shape)
        assert_close(hvp(fn, (x,), (v,)), numerical_jvp(grad(fn), (x,), 0, v),
                     rtol=1e-5, atol=1e-6)
        assert ran == took, fn.__name__
    assert hvp_source(rnn) == hvp_source(rnn, route=FR)


def test_auto_does_not_fall_back_once_forward_over_reverse_runs():
    """A refusal while its code runs would be the answer (a fallback then would run the
    user's code twice; the last one the corpus knew, a keyword given a name bound to a
    constant, computes since session 39: test_hvp_fr_run_time_sites.py). grad called inside
    a helper (whose gradient code is built as it runs) is found before anything runs since
    session 38 (autofix, transform/hvp_recursion.py): auto takes reverse over forward,
    whose refusal names the user's line."""
    with pytest.raises(TransformError, match="forward over reverse"):
        hvp(uses_grad, (np.ones(3),), (np.ones(3),), route=FR)
    with pytest.raises(TransformError, match="calls a helper of thunkgrad.s") as caught:
        hvp(uses_grad, (np.ones(3),), (np.ones(3),), route="auto")
    assert caught.value.line == _grad_weighted.__code__.co_firstlineno + 1
