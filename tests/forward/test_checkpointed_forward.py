"""jvp of a function with a checkpointed loop (issue 21's marker): forward mode keeps no
tape, so the marked loop runs as a plain loop; tangents against finite differences and
against the same function unmarked, nested markers included."""
import numpy as np

from tests.fd import assert_close, numerical_jvp
from tests.gradcheck import rng
from transform import checkpointed, checkpointed_while, jvp


def marked(u, k):
    for t in checkpointed(range(6), snapshots=2):
        u = u + k * np.sin(u) * (t + 1)
    return np.sum(u ** 2)


def unmarked(u, k):
    for t in range(6):
        u = u + k * np.sin(u) * (t + 1)
    return np.sum(u ** 2)


def nested(u, ws):
    for w in checkpointed(ws, snapshots=1):
        for t in checkpointed(range(3), snapshots=2):
            u = np.tanh(w * u + t)
    return u


def test_marked_loop_tangent_matches_differences_and_the_plain_loop():
    r = rng(32)
    args = (r.normal(size=4), 0.3)
    tangents = (r.normal(size=4), 0.7)
    out, tangent = jvp(marked, args, tangents)
    plain_out, plain_tangent = jvp(unmarked, args, tangents)
    expected = numerical_jvp(marked, args, 0, tangents[0]) + \
        numerical_jvp(marked, args, 1, tangents[1])
    assert out == plain_out and tangent == plain_tangent
    assert_close(tangent, expected)


def test_nested_markers_over_rows():
    r = rng(33)
    args = (r.normal(size=3), r.normal(size=(4, 3)) * 0.5)
    for argnum in (0, 1):
        tangents = [None, None]
        tangents[argnum] = r.normal(size=np.shape(args[argnum]))
        _, tangent = jvp(nested, args, (tangents[argnum],), wrt=argnum)
        assert_close(tangent, numerical_jvp(nested, args, argnum, tangents[argnum]))


def _while_marked(x, w, n):
    k = 0
    while checkpointed_while(k < n, snapshots=2):
        x = np.sin(w * x) + 0.1
        if x > 0.95:
            break
        k = k + 1
    return x


def _while_plain(x, w, n):
    k = 0
    while k < n:
        x = np.sin(w * x) + 0.1
        if x > 0.95:
            break
        k = k + 1
    return x


def test_a_marked_while_loop_runs_plainly_in_forward_mode():
    got = jvp(_while_marked, (0.3, 1.2, 6), (1.0, 0.5), wrt=(0, 1))
    want = jvp(_while_plain, (0.3, 1.2, 6), (1.0, 0.5), wrt=(0, 1))
    assert got[0] == want[0] and got[1] == want[1]
