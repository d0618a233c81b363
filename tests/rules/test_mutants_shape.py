"""Behaviour the mutation run (tools/mutate.py) found unpinned in runtime/rules/shape.py:
each test kills a mutant the other tests let through.

The view traits of the shape functions the alias matrix (tests/safety/alias_matrix.py)
does not list: writing the base while the result is read later is refused, as for
np.reshape. Declared without the trait, the result was taken for a copy and the write
passed unseen (the gradient missed it)."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES
from tests.safety.alias_matrix import build
from transform import TransformError, grad

VIEWS = {
    "swapaxes": "v = np.swapaxes(a, 0, 1)",
    "atleast_1d": "v = np.atleast_1d(a)",
    "atleast_3d": "v = np.atleast_3d(a)",
    "fliplr": "v = np.fliplr(a)",
    "flipud": "v = np.flipud(a)",
    "rot90": "v = np.rot90(a)",
    "split": "v = np.split(a, 2)[0]",
    "array_split": "v = np.array_split(a, 2)[0]",
    "hsplit": "v = np.hsplit(a, 2)[0]",
    "vsplit": "v = np.vsplit(a, 2)[0]",
    "dsplit": "v = np.dsplit(np.reshape(a, (1, 2, 2)), 2)[0]",
    "unstack": "v = np.unstack(a)[0]",
    "broadcast_arrays": "v = np.broadcast_arrays(a, 1.0)[0]",
    "require": "v = np.require(a)",
    "asarray_chkfinite": "v = np.asarray_chkfinite(a)",
    "rollaxis": "v = np.rollaxis(a, 1)",
    "as_strided": "v = np.lib.stride_tricks.as_strided(a)",
    "sliding_window_view": "v = np.lib.stride_tricks.sliding_window_view(a, 2)",
}
if not hasattr(np, "unstack"):                                            # NumPy < 2.1
    del VIEWS["unstack"]
FUNCTIONS = build({name: f"def f(X, w):\n    a = np.array(X)\n    {make}\n    a[0] = w\n"
                         "    return np.sum(a) + np.sum(v)\n" for name, make in VIEWS.items()})
X = np.array([[0.5, -1.2], [0.3, 0.8]])


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("name", list(VIEWS))
def test_writing_the_base_of_a_view_is_refused(name, policy):
    with pytest.raises(TransformError, match="`a`"):
        grad(FUNCTIONS[name], wrt=(0, 1), policy=policy)(X.copy(), 0.7)


def concatenated_then_added(x, w):
    v = np.concatenate([x, x])
    u = v
    v += w
    return np.sum(u * u)


def stacked_then_added(x, w):
    v = np.stack([x, x])
    u = v
    v += w
    return np.sum(u * u)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("f", [concatenated_then_added, stacked_then_added])
def test_a_join_is_known_to_be_an_array(f, policy):
    """np.concatenate and np.stack are declared fresh: their result is an array, so
    `v += w` with another name for v is refused when compiling, at the write. Without
    the trait the compiler could not tell whether `+=` writes in place, and only the
    run-time check caught it (a TypeError)."""
    with pytest.raises(TransformError, match="writing into `v`"):
        grad(f, wrt=(0, 1), policy=policy)(np.array([1.0, 2.0]), 3.0)
