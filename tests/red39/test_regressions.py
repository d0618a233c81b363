"""What red39 found, each against central finite differences or as the refusal it
must be."""
import dataclasses
import inspect
import re
from functools import partial

import numpy as np
import pytest

pytest.importorskip("scipy")    # red39's programs call SciPy throughout

from scipy.special import logsumexp  # noqa: E402

from tests.fd import assert_close, numerical_grad
from tests.red39 import programs_alias as A
from tests.red41 import programs_habits as H
from tests.red39 import programs_impl as I
from transform import TransformError, grad, hessian, hvp

W = np.array([0.3, -0.2, 0.5, 0.1, -0.4])
IDX = np.array([0, 2, 0, 1, 2])


def test_add_at_forward_over_reverse_names_the_missing_rule():
    """np.add.at's reverse code called `added_at(a, indices, b)` (the ufunc helper) but
    forward over reverse bound that name to runtime.flat's added_at(buffer, like,
    index, value): 'bad arguments for runtime.flat.added_at'. runtime.flat's is now
    accumulated_at; the refusal left is the true one (at_gather has no JVP)."""
    with pytest.raises(TransformError, match="at_gather") as info:
        hvp(A.add_at_histogram, (W, IDX), (np.ones(5),), route="forward_over_reverse")
    assert info.value.filename == A.__file__
    assert "runtime.flat" not in str(info.value)


def test_add_at_hessian_by_auto_matches():
    g = grad(A.add_at_histogram)
    want = np.stack([numerical_grad(lambda w, i=i: g(w, IDX)[i], [W], 0) for i in range(5)])
    assert_close(hessian(A.add_at_histogram)(W, IDX), want)


X2 = np.array([[0.5, -1.0], [1.2, 0.3], [-0.7, 0.8]])
Y2 = np.array([0.1, -0.4, 0.9])


def test_partial_object_as_the_function():
    f = partial(I._quartic_loss, X=X2, y=Y2)
    w = np.array([0.3, -0.6])
    assert_close(grad(f)(w), numerical_grad(f, [w], 0))


def test_grad_inside_refused_at_user_line():
    """hvp forward over reverse of force_norm, which calls thunkgrad's grad inside, was
    refused at transform/api.py:194 (grad's own wrapper compiled when the tangent code
    ran); now at compile time at the call of grad, so auto falls back to reverse over
    forward (which refuses it at the same line)."""
    x = np.array([0.0, 1.2, 1.9, 3.1])
    line = next(k for k, text in enumerate(open(I.__file__), 1) if "grad(_morse_energy)" in text)
    for route in ("forward_over_reverse", "auto"):
        with pytest.raises(TransformError, match="grad") as info:
            hvp(I.force_norm, (x,), (np.ones(4),), route=route)
        assert (info.value.filename, info.value.line) == (I.__file__, line)


def _lse_scaled(eps):
    return eps * logsumexp(np.array([1.0, 2.0, 0.5]) / eps)


def test_logsumexp_third_derivative():
    """grad^3 through scipy's logsumexp raised `TypeError: logsumexp_jvp() got an
    unexpected keyword argument 'answer'` (found by sinkhorn_eps, programs_stats.py:218):
    forward mode's tidy passed the rule's arguments by its declared names, and
    logsumexp_jvp's def calls `answer` `ans`. Now positional when the names differ."""
    g2 = grad(grad(_lse_scaled))
    assert_close(grad(g2)(0.7), numerical_grad(g2, [0.7], 0))


def test_solve_ivp_jvp_reads_sol_y():
    """jvp through solve_ivp (t_eval given) raised `TypeError: forward mode: .y of
    OdeResult is computed by code` (programs_lib.py:ivp_decay_t): the rule's tangent is
    a dict by entry, and OdeResult's attributes are its entries."""
    from tests.fd import numerical_jvp
    from tests.red39 import programs_lib as B
    from transform import jvp
    y0, t = np.array([1.0, 0.6]), np.array([0.3, -0.8])
    _, got = jvp(B.ivp_trajectory, (y0,), (t,))
    assert_close(got, numerical_jvp(B.ivp_trajectory, [y0], 0, t), 1e-5, 1e-6)


def _cited_lines(message):
    return [int(n) for n in re.findall(r"\(line (\d+)\)", message)]


@pytest.mark.parametrize("fn, callee, args", [   # (thomas_loss passes since session 38,
    # gauss_seidel since session 40: the gradient code's own buffers, s40-autofall)
    (H.in_place_slices_on_copy, H.in_place_slices_on_copy, (np.array([3.0, 4.0, 3.5, 5.0]),))])
def test_alias_refusal_names_user_lines(fn, callee, args):
    """hvp forward over reverse's alias refusals cited the gradient code's own names
    (`tape` holds `cp`) and its own line numbers ("(line 21)" of gauss_seidel: a line of
    thomas_solve); now names the user never wrote are "a value it made", and each cited
    line is one of the user's function the write is in."""
    with pytest.raises(TransformError) as info:
        hvp(fn, args, (np.ones(4),), route="forward_over_reverse")
    lines, first = inspect.getsourcelines(callee)
    message = str(info.value)
    assert "tape" not in message and info.value.filename == inspect.getsourcefile(callee)
    assert _cited_lines(message) and all(first <= n < first + len(lines)
                                         for n in _cited_lines(message))


@dataclasses.dataclass
class _State:
    v: np.ndarray


def _attribute_sum(w):
    s = _State(np.zeros(2))
    for k in range(3):
        s.v = s.v + np.sin(w * k)
    return np.sum(s.v ** 2)


def _attribute_augmented(w):
    s = _State(np.zeros(2))
    for k in range(3):
        s.v += np.sin(w * k)
    return np.sum(s.v ** 2)


def test_augmented_attribute_says_what_to_write():
    """`s.v += e` on a dataclass attribute was refused with "assign to a local name";
    the hint now gives the rewrite, `s.v = s.v + ...`, which is differentiated. Since
    session 39 (red40fix: `self.n += v` on a number is rebound) an array there is
    refused when the line runs, at the user's line."""
    w = np.array([0.3, -0.5])
    with pytest.raises(TypeError, match=r"test_regressions.py:\d+: .*held by an object.*"
                                        r"`s\.v = s\.v \+ \.\.\.`"):
        grad(_attribute_augmented)(w)
    assert_close(grad(_attribute_sum)(w), numerical_grad(_attribute_sum, [w], 0))
