"""Behaviour the mutation run (tools/mutate.py) found unpinned in runtime/complex_safety.py:
a complex value reaching a rule written for real values is refused wherever it sits in a
list argument. The run showed no test looked inside nested or long lists; looking showed
a silent wrong gradient (the check stopped at 64 entries and two levels of nesting)."""
import numpy as np
import pytest

from runtime.complex_safety import ComplexRefused, refuse_complex
from transform import TransformError, grad
from tests.gradcheck import POLICIES, check_grad, rng

SVD = "numpy.linalg.svd"


def _rows(x, n, scale):
    return [[x[i] * scale, x[i + 1]] for i in range(n)]


def singular_values_of_long_list(x):
    """65 rows of Python numbers, complex ones among them: svdvals' output is real, so
    only the argument shows the complex value (the rule's math has no conjugates)."""
    return np.sum(np.linalg.svd(_rows(x, 65, 1 + 1j), compute_uv=False))


def singular_values_of_stacked_lists(x):
    """A stack of two 2x2 matrices written as a 3-deep nested list."""
    stack = [[[x[0] * 1j, x[1]], [x[2], x[3]]], [[x[4], x[5]], [x[6], x[7]]]]
    return np.sum(np.linalg.svd(stack, compute_uv=False))


def singular_values_of_nested_list(x):
    """One matrix as a list of rows holding complex numbers."""
    return np.sum(np.linalg.svd([[x[0] * 1j, x[1]], [x[2], x[3]]], compute_uv=False))


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("f", [singular_values_of_long_list, singular_values_of_stacked_lists,
                               singular_values_of_nested_list], ids=lambda f: f.__name__)
def test_complex_entries_deep_or_late_in_a_list_are_refused(f, policy):
    """Before: the 65-row list and the stack were differentiated by the real rule (the
    long list's gradient was off by 0.45 from finite differences), with no error."""
    x = rng("complex-list", f.__name__).normal(size=70)
    with pytest.raises(TransformError, match="real values") as info:
        grad(f, policy=policy)(x)
    assert info.value.filename == __file__


def real_singular_values_of_long_list(x):
    return np.sum(np.linalg.svd(_rows(x, 65, 2.0), compute_uv=False) ** 2)


def test_a_long_real_list_stays_differentiable():
    check_grad(real_singular_values_of_long_list, [rng("real-list").normal(size=70)])


@pytest.mark.parametrize("where", [0, 64, 65, 199])
def test_refuse_complex_reads_every_entry_of_a_long_list(where):
    rows = [[1.0, 2.0] for _ in range(200)]
    assert refuse_complex(SVD, rows) is None
    rows[where][1] = 2.0 + 0.5j
    with pytest.raises(ComplexRefused, match="np.linalg.svd"):
        refuse_complex(SVD, rows)


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_refuse_complex_reads_nested_lists_and_tuples_at_any_depth(depth):
    value, real = np.complex128(1j), 1.0
    for level in range(depth):
        value, real = [real, (value,)] if level % 2 else (real, [value]), [real, (real,)]
    assert refuse_complex(SVD, real) is None
    with pytest.raises(ComplexRefused):
        refuse_complex(SVD, value)


@pytest.mark.parametrize("value", [1j, np.complex64(1), np.zeros(2, complex), [1.0, 1j]])
def test_refuse_complex_checks_every_value_it_is_given(value):
    """The output is checked as well as the argument (`refuse_complex(name, a, ans)`)."""
    with pytest.raises(ComplexRefused):
        refuse_complex(SVD, np.ones(2), value)
    assert refuse_complex(SVD, np.ones(2), 1.0, [np.ones(2)]) is None
