"""hvp forward over reverse where reverse mode's gradient code writes in place into
buffers it made itself (transform/alias/flat_helpers.py: what the flat gradient's
helpers return, so the alias check sees the buffer is its own): `dx = cotangent_zeros(x)`
then `dx[i] += g` in a loop, `dun_part1, dun = item_split(dun, -1)` then
`dun[-2] += g`, the optimiser's `du = reused_cotangent(du, u)` then `du[:-2] += g`.
Each was refused before (route auto fell back); H v against central differences of
grad (tests/fd.py) and against route reverse_over_forward, each argument in turn.

And the helpers' results as the alias check reads them in a user's code: a sum that
may hold one array at two keys, an item split's rest holding the entries of the
container it copied, are still refused when `+=` would change an array in place that
another slot holds."""
import numpy as np
import pytest

from runtime.accumulate import accum_eager
from runtime.flat import item_split
from tests.fd import assert_close, numerical_jvp
from tests.gradcheck import rng
from transform import TransformError, grad, hvp


def edges_copied(u, k):          # un[-1] = un[-2]: the backward sweep's dun[-2] += ...
    for _ in range(3):
        un = u.copy()
        un[1:-1] = u[1:-1] + k * (u[2:] - 2.0 * u[1:-1] + u[:-2])
        un[0] = un[1]
        un[-1] = un[-2]
        u = un
    return np.sum(u ** 2 * np.arange(u.shape[0]))


def rows_joined(A, k):           # the optimiser's reused buffer, then dA[:, :-2] += ...
    for _ in range(2):
        lap = A[:, 2:] - 2.0 * A[:, 1:-1] + A[:, :-2]
        A = np.concatenate([A[:, :1], A[:, 1:-1] + k * lap, A[:, -1:]], axis=1)
    return np.sum(A ** 3)


def kept_sum(x):                 # acc[0] += s[0] in a loop: dacc[0] += ... back
    acc = np.zeros(4)
    for _ in range(3):
        s = np.tanh(x).sum(axis=0)
        acc[0] += s[0]
        acc = acc * x[0]
    return np.sum(acc ** 2)


def early_return(a):             # da = cotangent_zeros(a); da[0] += ... in a loop
    s = 0.0
    for i in range(4):
        for j in range(4):
            s = s + a[i] * a[j]
            if s > 2.0:
                return s * a[0]
    return s


def periodic(u, c):              # a fresh slice store, then un[1:] = 0 in the sweep
    c = 0.3 * np.tanh(c)
    for _ in range(3):
        un = u.copy()
        un[1:] = u[1:] - c * (u[1:] - u[:-1])
        un[0] = u[0] - c * (u[0] - u[-1])
        u = un
    return np.sum(u ** 3)


CASES = [(edges_copied, [(6,), ()]), (rows_joined, [(3, 6), ()]), (kept_sum, [(3, 4)]),
         (early_return, [(4,)]), (periodic, [(5,), ()])]


@pytest.mark.parametrize("fn, shapes", CASES, ids=[f.__name__ for f, _ in CASES])
def test_against_differences_and_the_other_route(fn, shapes):
    r = rng("hvp fr owned buffers", fn.__name__)
    args = tuple(0.8 + 0.3 * r.normal(size=s) for s in shapes)
    for k in range(len(args)):
        v = r.normal(size=shapes[k])
        got = hvp(fn, args, (v,), wrt=k, route="forward_over_reverse")
        assert_close(got, numerical_jvp(grad(fn, k), args, k, v), rtol=1e-5, atol=1e-6)
        want = hvp(fn, args, (v,), wrt=k, route="reverse_over_forward")
        assert_close(got, want, rtol=1e-9, atol=1e-12)


def summed_twice(x):
    y = x * 2.0
    s = accum_eager({"p": y}, {"q": y})     # y at both keys of the sum
    s["p"] += x                             # changes y, which s["q"] holds too
    return np.sum(s["p"] * s["q"])


def split_rest(x):
    d = {"a": x * 2.0, "b": x * 3.0}
    piece, rest = item_split(d, "b")        # rest holds d's entry "a" itself
    rest["a"] += x                          # changes d["a"] too
    return np.sum(rest["a"] * d["a"] * piece)


def split_piece(x):
    d = {"a": x * 2.0, "b": x * 3.0}
    piece, rest = item_split(d, "a")        # piece is d's entry "a" itself
    piece[0] = 1.0                          # changes d["a"] too
    return np.sum(piece * d["a"])


@pytest.mark.parametrize("fn", [summed_twice, split_rest, split_piece])
def test_a_slot_holding_a_shared_array_stays_refused(fn):
    with pytest.raises(TransformError, match="not supported"):
        grad(fn)(np.array([0.5, -1.2]))
