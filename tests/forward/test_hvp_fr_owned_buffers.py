"""hvp forward over reverse where reverse mode's gradient code writes in place into
buffers it made itself (transform/alias/flat_helpers.py: what the flat gradient's
helpers return, so the alias check sees the buffer is its own): `dx = cotangent_zeros(x)`
then `dx[i] += g` in a loop, `dun_part1, dun = item_split(dun, -1)` then
`dun[-2] += g`, the optimiser's `du = reused_cotangent(du, u)` then `du[:-2] += g`.
Also containers written, then read: an entry of a dict display is no view of it, the
loop over `iterable(d)` of a dict walks a new list of its keys, and a name read after
a store into an array's elements only for its shape (`unbroadcast(g, t)`'s t) is not
live there. Each was refused before (route auto fell back); H v against central
differences of grad (tests/fd.py) and against route reverse_over_forward, each
argument in turn.

And the helpers' results as the alias check reads them in a user's code: a sum that
may hold one array at two keys, an item split's rest holding the entries of the
container it copied, are still refused when `+=` would change an array in place that
another slot holds."""
import numpy as np
import pytest

from runtime.accumulate import accum_eager
from runtime.flat import item_split
from runtime.helpers import unbroadcast
from tests.forward.fr_checks import check_forward_over_reverse
from transform import TransformError, grad


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
    acc = x * 0.0
    for _ in range(3):
        s = np.sum(acc + x, axis=1, keepdims=True)
        acc = acc + s * x
        acc[0] += s[0]
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


def slot_written_then_read(x):  # a dict display's entry read, its slot written after
    d = {"a": np.sin(x), "b": x * 2.0}
    a = d["a"]
    d["a"] = a * x + d["b"]
    return np.sum(d["a"] ** 2 + a * d["b"])


def popped_in_a_loop(x):         # iterable(d) of a dict: its keys, a new list
    d = {"a": x, "b": x * 2.0, "c": np.sin(x)}
    total = 0.0
    for k in ["a", "c"]:
        total = total + np.sum(d.pop(k) * x)
    return total + np.sum(d["b"] ** 2) * len(d)


def appended_in_an_entry(w):     # a list in a dict entry, appended to in a loop
    hist = {"loss": []}
    for k in range(3):
        hist["loss"].append(np.sum(np.sin(w * k)) + np.sum(w ** 2))
    return sum(hist["loss"]) * hist["loss"][-1]


def element_augmented(a):        # out[i] += ...: `t = out[i]` read after for its shape
    out = np.zeros(3)
    for i in range(3):
        out[i] += a[i]
        out[i] *= a[i]
    return np.sum(out)


CASES = [(edges_copied, [(6,), ()]), (rows_joined, [(3, 6), ()]), (kept_sum, [(3, 4)]),
         (early_return, [(4,)]), (periodic, [(5,), ()]), (slot_written_then_read, [(3,)]),
         (popped_in_a_loop, [(3,)]), (appended_in_an_entry, [(3,)]),
         (element_augmented, [(3,)])]


@pytest.mark.parametrize("fn, shapes", CASES, ids=[f.__name__ for f, _ in CASES])
def test_against_differences_and_the_other_route(fn, shapes):
    check_forward_over_reverse(fn, shapes, "hvp fr owned buffers", 0.8, 0.3)


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


def view_read_for_values(x):
    out = x * 1.0
    t = out[0:2]                            # a view of out
    out[0] = 3.0 * x[1]                     # t sees it: read for its values below
    return np.sum(unbroadcast(t * 2.0, t))


def entry_written_through(x):
    d = {"a": x * 2.0}
    a = d["a"]                              # the entry itself
    a[0] = 1.0                              # changes d["a"] too
    return np.sum(d["a"] * x)


def split_kept_whole(x):
    d = {"a": x * 2.0, "b": x * 3.0}
    parts = item_split(d, "a")              # not unpacked: parts[0] is d["a"] itself
    parts[0][0] = 1.0                       # changes d["a"] too
    return np.sum(parts[1]["b"] * d["a"])


@pytest.mark.parametrize("fn", [summed_twice, split_rest, split_piece, split_kept_whole,
                                view_read_for_values, entry_written_through])
def test_a_slot_holding_a_shared_array_stays_refused(fn):
    with pytest.raises(TransformError, match="not supported"):
        grad(fn)(np.array([0.5, -1.2]))
