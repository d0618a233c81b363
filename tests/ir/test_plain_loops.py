"""The plain lowering's loops beyond one level of `for` over a range (ir/plain_tapes.py,
docs/ir.md "Second lowering"): nested loops, tapes keyed by the iterations of the loops
around the push (`tape_t[k, k_1]`); loops over a sequence (a list, an array's rows,
enumerate or zip of those), walked by `enumerate` and read back by index; `while` loops
and `break`, read back under the trip counter; a dict's items, listed before the backward
loop. Gradients against central finite differences and the source's tapes (the user's
lambdas: test_plain_lambdas.py)."""
import numpy as np
import pytest

from tests.corpus import jumps  # noqa: F401  (registers its cases)
from tests.corpus.case import REGISTRY
from tests.fd import assert_close, numerical_grad
from tools.plain_sweep import outcome
from transform import adjoint_source, value_and_grad


def nested(x):
    s = 0.1
    for i in range(2):
        for j in range(3):
            s = s + np.sum(np.sin(x * s)) * x[j]
    return s


def triangular_with_branch(x):
    h = x
    for i in range(3):
        for j in range(i + 1):                  # the inner count moves with i
            if np.sum(h) > 0.5:
                t = np.sin(h) * x[j]
            else:
                t = np.cos(h)
            h = h * 0.5 + t
    return np.sum(h * h)


def three_deep(x):
    s = x
    for i in range(2):
        u = s * 2.0                             # bound between the loops
        for j in range(2):
            for m in range(2):
                s = np.tanh(s * u + x[m])
    return np.sum(s)


def in_a_branch(x):
    s = x
    if x[0] > 0:
        for i in range(2):
            for j in range(2):
                s = np.sin(s) * x + x[j]
    return np.sum(s * s)


def over_rows(X):
    s = 0.5
    for row in X:
        s = s + np.sum(np.sin(row) * s)
    return s


def enumerated_from_one(X, y):
    s = 0.5
    for i, row in enumerate(X, 1):
        s = s + np.sum(np.sin(row) * y[i - 1]) * s + i * 0.1
    return s


def zipped(xs, ys):
    s = 0.0
    for a, b in zip(xs, ys):
        s = s + np.sin(a * b * s + a)
    return s


def over_a_list_in_a_range(x):
    items = [x, x * 2.0, np.sin(x)]
    s = x
    for t in range(2):
        for v in reversed(items):
            s = np.tanh(s * v) + 1.0
    return np.sum(s)


def generator_sum(x):
    return sum(np.sin(v) * v for v in x)


def with_break(x):
    s = 0.0
    for i in range(10):
        s = s + np.sin(x[i % 3] * s + x[i % 3])
        if s > 1.5:
            break
        s = s * 1.1
    return s


def while_with_a_branch(x):
    i = 0
    s = x
    while i < 5:
        if np.sum(s) > 0:
            s = np.sin(s) * x
        else:
            s = s * s + x
        i += 1
    return np.sum(s)


def nested_whiles(x):
    s = x
    i = 0
    while i < 3:
        j = 0
        while j < i:                            # the inner trip count moves with i
            s = np.tanh(s * x + j)
            j += 1
        i += 1
        s = s + 0.1 * np.sin(s)
    return np.sum(s)


def break_in_an_inner_loop(x):
    s = 0.0
    for i in range(3):
        for j in range(5):
            s = s + np.cos(x[j % 3] * s) * x[i]
            if s > 2.0 + i:
                break
    return s


def early_return(x):
    s = x
    for i in range(5):
        s = np.sin(s) * x + x
        if np.sum(s) > 2.0:
            return np.sum(s * s)
        s = s * 0.9
    return np.sum(s)


def over_a_dicts_items(x, y):
    s = x
    for i in range(2):
        d = {"a": x * i, "b": y + s}            # a dict per outer iteration
        for key, v in d.items():
            s = np.sin(s * v) + x
    return np.sum(s)


CASES = {nested: lambda r: (0.3 * r.normal(size=3),),
         triangular_with_branch: lambda r: (r.normal(size=3),),
         three_deep: lambda r: (0.5 * r.normal(size=2),),
         in_a_branch: lambda r: (np.abs(r.normal(size=3)) + 0.1,),
         over_rows: lambda r: (r.normal(size=(3, 4)),),
         enumerated_from_one: lambda r: (r.normal(size=(3, 4)), r.normal(size=3)),
         zipped: lambda r: (r.normal(size=4), r.normal(size=4)),
         over_a_list_in_a_range: lambda r: (r.normal(size=3),),
         generator_sum: lambda r: (r.normal(size=4),),
         with_break: lambda r: (np.abs(r.normal(size=3)) + 0.3,),
         while_with_a_branch: lambda r: (r.normal(size=3),),
         nested_whiles: lambda r: (0.5 * r.normal(size=3),),
         break_in_an_inner_loop: lambda r: (np.abs(r.normal(size=3)) + 0.5,),
         early_return: lambda r: (r.normal(size=3),),
         over_a_dicts_items: lambda r: (r.normal(size=3), r.normal(size=3))}


def check(fn, args):
    wrt = tuple(range(len(args)))
    value, grads = value_and_grad(fn, wrt, lowering="plain")(*args)
    assert_close(value, fn(*args), rtol=1e-12, atol=0)
    for k, g in enumerate(grads):
        want = numerical_grad(fn, args, k)
        assert np.max(np.abs(want)) > 1e-3, "a gradient that cannot tell"
        assert_close(g, want, rtol=1e-5, atol=1e-7, what=f"gradient of argument {k}")


@pytest.mark.parametrize("fn", list(CASES), ids=lambda f: f.__name__)
def test_gradients_match_central_differences(fn):
    check(fn, CASES[fn](np.random.default_rng(5)))


def test_the_corpus_jumps_all_pass():
    """tools/plain_sweep.py over the corpus's jumps (break, continue, return in loops,
    while): every case accepted, each gradient within the case's tolerance."""
    cases = [c for c in REGISTRY if c.name.startswith("jumps.")]
    found = {c.name: outcome(c) for c in cases}
    assert len(found) > 10
    assert {n: o for n, o in found.items() if o[0] != "ok"} == {}


def test_nested_tapes_are_keyed_by_both_indices():
    source = adjoint_source(triangular_with_branch, lowering="plain")
    for word in ("lambda", "del ", "Thunk", "pullback", "tape_reader", "pop("):
        assert word not in source, word
    assert "tape_h = {}" in source and "tape_h[k, k_1] = h" in source
    assert "h = tape_h[k, k_1]" in source
    assert "n_1 = len(steps2)" in source            # the inner count, per outer iteration


def test_a_sequence_is_walked_by_enumerate_and_read_back_by_index():
    source = adjoint_source(enumerated_from_one, lowering="plain")
    assert "for k, (i, row) in enumerate(enumerate(seq1, start1)):" in source
    assert "for k in range(n1 - 1, -1, -1):" in source      # the trip counter
    assert "i, row = (start1 + k, seq1[k])" in source
    assert "tape_s[k] = s" in source and "s = tape_s[k]" in source
    assert "reversed_enumerate" not in source and "lambda" not in source


def test_a_dicts_items_are_listed_before_the_backward_loop():
    source = adjoint_source(over_a_dicts_items, (0, 1), lowering="plain")
    assert "items = list(seq1.items())" in source and "key, v = items[k_1]" in source
    assert "tape_s[k, k_1] = s" in source


def test_a_while_loop_reads_back_under_its_trip_counter():
    source = adjoint_source(nested_whiles, lowering="plain")
    assert "n2 += 1\n        k = n2 - 1" in source          # the index, from the counter
    assert "tape_s[k, k_1] = s" in source and "s = tape_s[k, k_1]" in source
    assert "for k_1 in range(n1 - 1, -1, -1):" in source
    assert "n1 = tape_n1[k]" in source                  # the inner count, per iteration
    for word in ("lambda", "del ", "popped(", "tape_reader", "pop("):
        assert word not in source, word
