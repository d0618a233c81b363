"""An element store into a name just bound to a fresh copy (transform/analysis/views.py
`_fresh_stores`) writes in place: `un = u.copy(); un[1:-1] = ...; u = un` copies u once
per step, not twice, though `u = un` makes u a second name for the array. A store after
anything else names the copy (a second name, a view, a branch) still writes into a copy
of its own. Behaviour: an ndarray subclass counts `.copy()` calls in the forward sweep;
every program runs against finite differences under every policy.
"""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_function, rng
from transform.api import _wrt_names, compiled, signature_of


def heat_copy(u, k, steps):
    for _ in range(steps):
        un = u.copy()
        un[1:-1] = u[1:-1] + k * (u[2:] - 2 * u[1:-1] + u[:-2])
        u = un
    return np.sum(np.sin(u) * u)


def reads_carried(u, steps):
    """The backward sweep reads each step's u (a product), the previous un."""
    for _ in range(steps):
        un = u.copy()
        un[1:] = un[1:] * u[:-1]
        u = un
    return np.sum(u)


def second_name_first(u, x):
    un = u.copy()
    c = un                       # c shares the copy, which c * c's adjoint reads back
    t = c * c
    un[0] = x * 2.0
    return np.sum(t) + np.sum(un * u)


def store_after_alias(u, x):
    un = u.copy()
    un[0] = x                    # fresh: in place
    w = un
    t = np.sin(w)                # w shares it now, read back by sin's adjoint: a copy
    un[1] = x * x
    return np.sum(t) + np.sum(un ** 3)


def store_in_a_branch(u, x, flag):
    un = u.copy()
    if flag:
        un[0] = x
    u = un
    return np.sum(u * u)


CASES = [
    (heat_copy, lambda r: [r.normal(size=7), 0.2, 3], (0, 1), 3),        # was 6
    (reads_carried, lambda r: [r.normal(size=5), 3], (0,), 6),         # un[1:] read first
    (second_name_first, lambda r: [r.normal(size=4), 0.5], (0, 1), 2),
    (store_after_alias, lambda r: [r.normal(size=4), 0.5], (0, 1), 3),
    (store_in_a_branch, lambda r: [r.normal(size=4), 0.5, True], (0, 1), 2),
]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn,make,wrt,copies", CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_gradients_match_finite_differences(fn, make, wrt, copies, policy):
    check_function(fn, make(rng("fresh_stores", fn.__name__)), wrt, policy)


class CountedCopies(np.ndarray):
    copies = 0

    def copy(self, *args, **kwargs):
        CountedCopies.copies += 1
        return super().copy(*args, **kwargs)


@pytest.mark.parametrize("fn,make,wrt,copies", CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_copies_in_the_forward_sweep(fn, make, wrt, copies):
    """copies: how many `.copy()` calls the forward sweep makes (before: one more for
    each store into un in heat_copy's steps)."""
    args = make(rng("fresh_stores", fn.__name__))
    params = fn.__code__.co_varnames[:fn.__code__.co_argcount]
    names, _ = _wrt_names(fn, tuple(params[k] for k in wrt))
    rule = compiled(fn, names, "loop", signature=signature_of(args))
    CountedCopies.copies = 0
    u = args[0].copy().view(CountedCopies)
    rule.rrule(u, *args[1:])
    assert CountedCopies.copies == copies
