"""The plain lowering's tapes inside nested loops hold no `None` (docs/ir.md, "Second
lowering", "Tapes by index"): a name an inner loop binds once at the top of its body,
unbound before the outermost loop, is appended after its assignment to a list in
execution order, its position kept in a dict keyed by the iterations
(`at_t[k, k_1] = len(tape_t)`), and read back one entry down (`at = at_t[k, k_1]; if at >
0: t = tape_t[at - 1]`): the value before this iteration's assignment, which may be an
earlier outer iteration's (an inner loop that ran no iteration, or `continue` before the
assignment, in between). Gradients against central finite differences; the source."""
import re

import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad
from transform import adjoint_source, value_and_grad


def sub_stepped(k, x0):
    x = x0
    v = np.zeros_like(x0)
    for i in range(3):
        for j in range(2):                      # a, t1..t6: first bound in here
            a = -k * x - 0.1 * v
            v = v + 0.2 * a
            x = x + 0.2 * v
    return np.sum(x ** 2)


def inner_count_moves(x):
    s = x
    for i in range(4):
        for j in range(i % 3):                  # no inner iteration at i = 0 and i = 3
            u = np.sin(s) * x[j]
            s = s * u + 0.3
    return np.sum(s * s)


def continue_before_the_binding(x):
    s = x
    for i in range(3):
        for j in range(3):
            if j == i:
                continue                        # this iteration saves nothing
            u = np.cos(s * x[j])
            s = s + u * u
    return np.sum(s)


def inner_while(x):
    s = x
    i = 0
    while i < 3:
        j = 0
        while j < i + 1:
            u = np.tanh(s + x[j])
            s = 0.5 * s + u * u
            j = j + 1
        i = i + 1
    return np.sum(s)


CASES = {sub_stepped: lambda r: (0.7, r.normal(size=3)),
         inner_count_moves: lambda r: (0.5 * r.normal(size=3),),
         continue_before_the_binding: lambda r: (0.5 * r.normal(size=3),),
         inner_while: lambda r: (0.5 * r.normal(size=3),)}


@pytest.mark.parametrize("fn", list(CASES), ids=lambda f: f.__name__)
def test_gradients_match_central_differences(fn):
    args = CASES[fn](np.random.default_rng(7))
    wrt = tuple(range(len(args)))
    value, grads = value_and_grad(fn, wrt, lowering="plain")(*args)
    assert_close(value, fn(*args), rtol=1e-12, atol=0)
    for k, g in enumerate(grads):
        assert_close(g, numerical_grad(fn, args, k), rtol=1e-6, atol=1e-8)


def test_an_inner_loops_first_bound_names_are_appended_in_order():
    source = adjoint_source(sub_stepped, (0, 1), lowering="plain")
    assert "at_a = {}" not in source                 # (a is never read back)
    assert "at_t1[k_1, k_2] = len(tape_t1)\n" in source and "tape_t1 = []" in source
    assert re.search(r"(at\w*) = at_t1\[k_1, k_2\]\n +if \1 > 0:\n +t1 = tape_t1\[\1 - 1\]",
                     source)
    assert "tape_x[k_1, k_2] = x" in source          # bound before the loops: keyed
    prelude = source.split("for ")[0]
    assert "tape_t1[k_1, k_2]" not in source and "at = " not in prelude
    assert not re.search(r"\bt1 = ", prelude)        # no None stand-in for it either


# A name bound in a branch of a loop, or twice in its body, unbound before the loop: its
# first entry would be None, so it is logged instead (`log_u.append(u)` after every
# assignment in the nest), each push keeping the log's length (`at_u[k] = len(log_u)`)
# and each pop reading the entry one down where the push found a value.
def branch_in_a_range(x):
    s = x
    for i in range(4):
        if i % 2 == 0:
            u = np.sin(s)
            s = s * u
        else:
            s = s + 0.5 * x
    return np.sum(s * s)


def bound_twice(x):
    s = x
    for i in range(3):
        u = np.sin(s)
        s = s * u
        u = np.cos(s) * x
        s = s + u
    return np.sum(s)


def branch_in_an_inner_loop(x):
    s = x
    for i in range(3):
        for j in range(i + 1):
            if x[j] > 0:
                u = np.tanh(s) * x[j]
                s = s - 0.3 * u
            else:
                u = np.sin(s)
                s = s * u
    return np.sum(s * s)


def _damp(s, c):
    for j in range(2):                  # (a loop: called, split, not inlined)
        s = np.tanh(s * c)
    return s


def callee_in_a_branch(x):
    s = x
    for i in range(4):
        if i % 3 != 1:
            s = _damp(s, x[0]) + x
    return np.sum(s)


BRANCHED = {branch_in_a_range: lambda r: (r.normal(size=3),),
            bound_twice: lambda r: (0.5 * r.normal(size=3),),
            branch_in_an_inner_loop: lambda r: (np.array([0.4, -0.6, 0.5]),),
            callee_in_a_branch: lambda r: (0.5 * r.normal(size=3),)}


@pytest.mark.parametrize("fn", list(BRANCHED), ids=lambda f: f.__name__)
def test_logged_names_match_central_differences(fn):
    args = BRANCHED[fn](np.random.default_rng(5))
    value, (g,) = value_and_grad(fn, (0,), lowering="plain")(*args)
    assert_close(value, fn(*args), rtol=1e-12, atol=0)
    assert_close(g, numerical_grad(fn, args, 0), rtol=1e-6, atol=1e-8)
    source = adjoint_source(fn, (0,), lowering="plain")
    assert "log_" in source and "[None]" not in source


def test_a_name_bound_twice_is_logged_after_each_assignment():
    source = adjoint_source(bound_twice, (0,), lowering="plain")
    assert source.count("log_u.append(u)") == 2 and "tape_u" not in source
    assert re.search(r"(at\w*) = at_u_1\[k\]\n +if \1 > 0:\n +u = log_u\[\1 - 1\]", source)
    keyed = adjoint_source(branch_in_an_inner_loop, (0,), lowering="plain")
    assert "at_u[k, k_1] = len(log_u)" in keyed
