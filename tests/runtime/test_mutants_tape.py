"""The backward headers' trip counts (runtime/tape.py `count_arg`), pinned by value: a
backward loop that pops one tape entry per iteration reads its entries in its header,
`popped(pop, <the header's count>)` (transform/optimize/tape_iteration.py), so a count
taken from the wrong argument walks the wrong number of iterations (for
`enumerate(xs, start)` the start: a wrong gradient) or crashes (zip's first sequence)."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad
from tests.gradcheck import POLICIES
from transform import adjoint_source, grad


def enumerate_from(w, xs, start):
    s = 0.5
    for i, x in enumerate(xs, start):
        s = s * w
    return s


def enumerate_from_one(w, xs):
    return enumerate_from(w, xs, 1)


def enumerate_from_seven(w, xs):
    return enumerate_from(w, xs, 7)


def zipped(w, xs, ys):
    s = 0.5
    for x, y in zip(xs, ys):
        s = s * w
    return s


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("f", [enumerate_from_one, enumerate_from_seven],
                         ids=lambda f: f.__name__)
def test_enumerate_with_a_start_walks_every_iteration_back(f, policy):
    """d(0.5 w^5)/dw = 2.5 w^4 over five items, whatever the start (1 or 7, not 5)."""
    w, xs = 0.9, np.arange(5.0)
    assert_close(grad(f, policy=policy)(w, xs), 2.5 * w ** 4)
    assert_close(grad(f, policy=policy)(w, xs), numerical_grad(f, [w, xs], 0))


@pytest.mark.parametrize("policy", POLICIES)
def test_zip_loop_with_hoisted_pops(policy):
    """zip stops at the shorter sequence: four iterations, d(0.5 w^4)/dw = 2 w^3."""
    w, xs, ys = 0.9, np.arange(5.0), np.arange(4.0)
    assert_close(grad(zipped, policy=policy)(w, xs, ys), 2.0 * w ** 3)


@pytest.mark.parametrize("f", [enumerate_from, zipped], ids=lambda f: f.__name__)
def test_these_loops_take_their_entries_in_the_header(f):
    """The precondition of the tests above: the hoisted form, whose count they check."""
    assert "popped(pop, n" in adjoint_source(f)
