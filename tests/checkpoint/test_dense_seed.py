"""Session 34 (chunk): the driver compiles a step's rule for the carries whose cotangents
it will pass as values (runtime/checkpoint_rule.py Loop.rule, `dense`), so a chunk's
reversed iterations run without None checks, as the taped loop's do; a carry whose
cotangent is None (the result does not read it) gets the rule with the checks. Also:
the loop variable of an online loop read after it, and the online loops' report line."""
import math

import numpy as np
import pytest

import runtime.checkpoint_rule as checkpoint_rule
from runtime import online
from runtime.checkpoint import STEPS
from tests.gradcheck import check_grad
from transform import TransformError, checkpoint_stats, checkpointed, checkpointed_while, \
    grad
from transform.api import compiled
from transform.public.parameters import _params


def scalar(x, n):
    for i in range(n):
        x = x * 0.999 + 0.001 * math.sin(x)
    return x


def scalar_chunks(x, n, s):
    for i in checkpointed(range(n), snapshots=s, chunk=10):
        x = x * 0.999 + 0.001 * math.sin(x)
    return x


def test_a_chunks_rule_for_a_value_cotangent_has_no_none_checks():
    grad(scalar_chunks)(0.5, 25, 2)
    [step] = [STEPS[k] for k in sorted(STEPS) if ".scalar_chunks:" in k]
    names = tuple(_params(step))
    guarded = compiled(step, names, "loop", consumed=False, varied=names[:1],
                       materialised=True).source
    dense = compiled(step, names, "loop", consumed=False, varied=names[:1],
                     materialised=True, dense=(0,)).source
    assert "is not None" in guarded and "accum_eager" in guarded
    assert "is not None" not in dense and "accum_eager" not in dense
    assert "dx = dx * 0.001 * math.cos(x) + dx * 0.999" in dense


@pytest.mark.parametrize("n, s", [(0, 2), (7, 1), (25, 2), (40, 3)])
def test_chunked_scalar_loop_equals_the_taped_one_bitwise(n, s):
    assert grad(scalar_chunks)(0.5, n, s) == grad(scalar)(0.5, n)


def unread_carry(x, w, n, s):
    y = 0.0
    for t in checkpointed(range(n), snapshots=s, chunk=2):
        y = y * 0.5 + w * x          # (never read after the loop: its cotangent is None)
        x = np.sin(x) * w + 0.1
    return x


def unread_carry_plain(x, w, n):
    y = 0.0
    for t in range(n):
        y = y * 0.5 + w * x
        x = np.sin(x) * w + 0.1
    return x


@pytest.mark.parametrize("s", [1, 3])
def test_a_carry_whose_cotangent_is_none_gets_the_checked_rule(monkeypatch, s):
    asked, real = [], checkpoint_rule.loop_body_rule

    def recorded(fn, wrt, dense=()):
        asked.append(dense)
        return real(fn, wrt, dense)
    monkeypatch.setattr(checkpoint_rule, "loop_body_rule", recorded)
    got = grad(unread_carry, (0, 1))(0.3, 0.8, 7, s)
    assert asked == [(1,)]          # (carries y, x; y never has a cotangent: x only)
    np.testing.assert_allclose(got, grad(unread_carry_plain, (0, 1))(0.3, 0.8, 7),
                               rtol=1e-14)
    check_grad(unread_carry, [0.3, 0.8, 7, s], wrt=(0, 1))


def last_item_after_break(x, n):
    j = 0
    for j in checkpointed(range(n), snapshots=2):
        x = x * 1.1
        if x > 2.0:
            break
    return x * j


def last_item_after_continue(x, n):
    j = 0
    for j in checkpointed(range(n), snapshots=2):
        if j % 3 == 0:
            continue
        x = x * 1.1
    return x * j


def last_item_after_continue_plain(x, n):
    j = 0
    for j in range(n):
        if j % 3 == 0:
            continue
        x = x * 1.1
    return x * j


def test_the_loop_variable_read_after_a_loop_with_break_is_refused():
    # (it was silently left at its value before the loop: gradient 0.0, not 15.0)
    with pytest.raises(TransformError, match="loop variable of a checkpointed loop with "
                       "`break` is read outside") as info:
        grad(last_item_after_break)(1.0, 20)
    assert info.value.line == last_item_after_break.__code__.co_firstlineno + 2


@pytest.mark.parametrize("n", [0, 1, 5, 20])
def test_the_loop_variable_read_after_a_loop_with_continue_is_the_last_item(n):
    got = grad(last_item_after_continue)(1.0, n)
    assert got == grad(last_item_after_continue_plain)(1.0, n)
    check_grad(last_item_after_continue, [1.0, n], wrt=0)


def counted(x, n, s):
    k = 0
    while checkpointed_while(k < n, snapshots=s):
        x = np.tanh(0.9 * x) + 0.1
        k = k + 1
    return x


def test_an_online_loop_has_a_report_line():
    with checkpoint_stats() as stats:
        grad(counted)(0.3, 30, 3)
    [r] = stats.reports
    assert r["schedule"] == "online" and r["snapshots"] == 3 and r["steps"] == 30
    assert r["theory"] == online.recomputations(30, 3) == stats.recomputed
    line = stats.report()
    first = counted.__code__.co_firstlineno
    assert f"test_dense_seed.py:{first + 2}: checkpointed (while loop" in line
    assert "30 iterations" in line and "(online schedule)" in line
