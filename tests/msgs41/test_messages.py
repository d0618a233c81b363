"""msgs41: refusals that named thunkgrad's file, a line of generated code, an internal
name or the wrong construct, or read like the user's mistake, now at the user's line in
the user's terms (each pins the message and that the refusal stays one); and two calls
that now compute, checked against central differences."""
import inspect

import numpy as np
import pytest

pytest.importorskip("scipy")     # (before the programs, which import scipy.stats)

import transform as tg  # noqa: E402
from tests.fd import assert_close, numerical_grad  # noqa: E402
from tests.msgs41 import programs as P  # noqa: E402

HERE = P.__file__
X = np.array([0.3, -0.5, 0.9])
V = np.array([1.0, 0.5, -0.2])


def _line(fn, text):
    """The line of fn's source holding `text`."""
    lines, first = inspect.getsourcelines(fn)
    return first + next(k for k, t in enumerate(lines) if text in t)


def _refused(call, fn, text, match):
    with pytest.raises(tg.TransformError, match=match) as info:
        call()
    assert info.value.filename == HERE, str(info.value)
    assert info.value.line == _line(fn, text), str(info.value)
    assert info.value.hint
    return info.value


def test_a_third_derivative_through_a_rules_tangent_is_at_the_users_line():
    """grad^3 through eigvalsh named runtime/rules/forward_linalg_helpers.py:32 and
    "hvp/hessian of eigh_jvp" (red41's beam_deflection_modes gog3)."""
    exc = _refused(lambda: tg.grad(tg.grad(tg.grad(P.lowest_mode)))(1.3), P.lowest_mode,
                   "eigvalsh(K)", "^.*: a higher derivative: the derivative code of a rule on "
                   r"this line \(thunkgrad's eigh_jvp\), differentiated again, calls a "
                   "helper of thunkgrad's that reverse mode cannot differentiate yet")
    assert "runtime" not in exc.filename and "hvp/hessian" not in str(exc)
    assert "finite differences" in exc.hint


@pytest.mark.parametrize("route", ["auto", "reverse_over_forward"])
def test_a_loop_snapshot_is_named_by_the_users_expression(route):
    """hvp of a loop over zip(q, table) named `seq1`, a name of the generated code."""
    call = lambda: tg.hvp(P.dh_chain_zip, (X,), (V,), route="reverse_over_forward")  # noqa
    exc = _refused(call, P.dh_chain_zip, "in zip(q", r"`q`, which is being differentiated, "
                   "reaches argument 1 of zip")
    assert "seq" not in str(exc) and "range(len(" in exc.hint
    got = tg.hvp(P.dh_chain_range, (X,), (V,), route=route)     # what the hint says
    g = tg.grad(P.dh_chain_range)
    assert_close(tg.grad(P.dh_chain_range)(X), numerical_grad(P.dh_chain_range, (X,), 0))
    assert_close(got, numerical_grad(lambda x: g(x) @ V, (X,), 0), 1e-5, 1e-7)


def test_own_getitem_in_reverse_mode_is_refused_at_the_users_line():
    """A TypeError with no file or line (jvp computes it); the method called by name is
    differentiated, as the message says."""
    for call in (lambda: tg.grad(P.own_getitem)(X), lambda: tg.hvp(P.own_getitem, (X,), (V,))):
        exc = _refused(call, P.own_getitem, "p[1]", r"`\[\.\.\.\]` on a Poly runs the "
                       "class's own __getitem__")
        assert "`obj.__getitem__(i)`" in exc.hint
    assert_close(tg.grad(P.own_getitem_method)(X), numerical_grad(P.own_getitem, (X,), 0))
    assert_close(tg.jvp(P.own_getitem, (X,), (V,))[1],
                 numerical_grad(P.own_getitem, (X,), 0) @ V)


@pytest.mark.parametrize("fn, label, advice", [
    (P.mean_where, "np.mean", "`np.sum(x * mask) / np.sum(mask)`"),
    (P.min_where, "np.min", "`np.min(np.where(mask, x, np.inf))`")])
def test_where_is_the_rules_limit_with_what_to_write(fn, label, advice):
    """'bad arguments ... unexpected keyword argument 'where'' read like a user error."""
    exc = _refused(lambda: tg.grad(fn)(X), fn, "where=",
                   rf"{label}\(\.\.\., where=\.\.\.\): thunkgrad's derivative rule for "
                   f"{label} does not support the keyword `where`")
    assert "bad arguments" not in str(exc) and advice in exc.hint


@pytest.mark.parametrize("fn, rule", [
    (P.poisson_cdf, "scipy.stats.poisson.cdf"), (P.poisson_cdf_value, "scipy.stats.poisson.cdf"),
    (P.divide_at, "np.divide.at")])
def test_a_rule_without_a_second_derivative_says_so(fn, rule):
    """hvp's default route said "rv_discrete.cdf is scipy's own code and has no derivative
    rule" of `cdf = stats.poisson.cdf; cdf(k, mu)` (grad refused it too: it computes now)
    and "the forward-mode code of ... calls a helper" of the others."""
    text = "cdf(3" if fn is not P.divide_at else "np.divide.at("
    exc = _refused(lambda: tg.hvp(fn, (X,), (V,)), fn, text,
                   rf"{rule} on this line has a derivative rule, but not the second "
                   "derivative hvp/hessian needs: its derivative calls a helper of thunkgrad's")
    assert "own code" not in str(exc) and "_vjp" not in str(exc)
    assert_close(tg.grad(fn)(X), numerical_grad(fn, (X,), 0))


def test_a_function_value_called_for_its_effect_is_named():
    """`op(y, i, v)` with op = np.divide.at said "passed to the method call call()"."""
    exc = _refused(lambda: tg.hvp(P.divide_at_passed, (X,), (V,)), P.divide_at_passed,
                   "op(y", r"is passed to `op\(\.\.\.\)`, a call of a function value, and "
                   "the call's result is not used")
    assert "call()" not in str(exc) and "np.add.at" in exc.hint
