"""Behaviour the mutation run (tools/mutate.py) found unpinned in runtime/rules/layouts.py:
each test kills a mutant the other tests let through.

np.real_if_close of real input returns the input itself (declared view), and
np.meshgrid(..., copy=False) returns views of its inputs (declared parts_view): writing
an input while an output is read later is refused, as for any view. Declared without
the trait, the outputs were taken for copies and the write passed unseen."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES
from tests.safety.alias_matrix import build
from transform import TransformError, grad

GRIDS = {
    "copy=False": "X, Y = np.meshgrid(a, b, copy=False)",
    "sparse": "X, Y = np.meshgrid(a, b, sparse=True, copy=False)",
    "ij": "X, Y = np.meshgrid(a, b, indexing='ij', copy=False)",
}
FUNCTIONS = build({name: "def f(x, w):\n    a = np.array(x)\n    b = x * 2.0\n"
                         f"    {make}\n    a[0] = w\n    return np.sum(X * Y) + np.sum(a)\n"
                   for name, make in GRIDS.items()})
X0 = np.array([0.5, -1.2, 0.3])
SAME = build({"real_if_close": "def f(x, w):\n    a = np.array(x)\n    v = np.real_if_close(a)\n"
                               "    a[0] = w\n    return np.sum(v * v) + np.sum(a)\n"})


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("name", list(GRIDS))
def test_writing_an_input_of_a_meshgrid_view_is_refused(name, policy):
    with pytest.raises(TransformError, match="`a`"):
        grad(FUNCTIONS[name], wrt=(0, 1), policy=policy)(X0.copy(), 0.7)


@pytest.mark.parametrize("policy", POLICIES)
def test_writing_the_input_of_real_if_close_is_refused(policy):
    with pytest.raises(TransformError, match="`a`"):
        grad(SAME["real_if_close"], wrt=(0, 1), policy=policy)(X0.copy(), 0.7)


def test_vstack_keeps_its_one_rule_from_shape():
    """np.row_stack gets its own rule (layouts) only where it is a function of its own
    (NumPy 2.x's deprecated wrapper); on NumPy 1.x it *is* np.vstack, whose rule (and its
    row in docs/rules.md) stays shape's. Judged on NumPy 1.26 (the compat venv), where
    registering row_stack anyway re-registered vstack under layouts."""
    import runtime
    assert runtime.lookup(np.vstack).family == "shape"
    row_stack = getattr(np, "row_stack", None)
    if row_stack is not None and row_stack is not np.vstack:
        assert runtime.lookup(row_stack).family == "layouts"
