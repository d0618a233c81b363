"""Behaviour the mutation run (tools/mutate.py) found unpinned in runtime/products.py:
each test kills a mutant that every other test let through."""
import numpy as np

from runtime.products import MatmulLhsSum
from tests.gradcheck import rng


def test_a_long_sum_of_outer_products_flushes_in_bounded_batches():
    """MatmulLhsSum keeps at most about `limit` numbers pending (memory stays bounded
    over a long loop) and still sums every update."""
    r = rng("products", "bounded")
    a = np.zeros((2, 2))
    s = MatmulLhsSum(a)
    want = np.zeros((2, 2))
    for _ in range(3000):
        g, b = r.normal(size=2), r.normal(size=2)
        s.add(g, b)
        want += np.outer(g, b)
        assert sum(x.size for x in s.gs) + sum(x.size for x in s.bs) <= s.limit
    np.testing.assert_allclose(s.total(), want)


def test_row_updates_flush_in_bounded_batches():
    r = rng("products", "rows")
    a = np.zeros((3, 2))
    s = MatmulLhsSum(a)
    want = np.zeros((3, 2))
    for k in range(3000):
        g, b = float(r.normal()), r.normal(size=2)
        s.add_row(k % 3, g, b)
        want[k % 3] += g * b
        assert sum(len(gs) * 3 for gs, _ in s.rows.values()) <= s.limit
    np.testing.assert_allclose(s.total(), want)
