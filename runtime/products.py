"""Sums of outer products over a loop, computed as one matrix product per batch."""
import numpy as np

from .accumulate import accumulate_into
from .containers import getitem_vjp
from .helpers import matmul_lhs
from .rules.shape_helpers import cot_dtype
from .tape import ShapeOnly

_FLOATS = frozenset({float, np.float64, np.float32, np.float16})
_VECTORS = frozenset({np.ndarray, ShapeOnly})      # t itself, or its tape stand-in


class MatmulLhsSum:
    """Σ matmul_lhs(g, a, b) over the iterations of a backward loop.

    Each iteration's cotangent of `a` in `a @ b` is a rank-one (or rank-k) update;
    the pending g's and b's are stacked and multiplied once per batch. A batch is
    flushed when it holds about four times a's elements, so memory stays bounded.
    Nothing passed in is modified.
    """

    __slots__ = ("a", "gs", "bs", "rows", "pending", "limit", "sum")

    def __init__(self, a):
        self.a, self.gs, self.bs, self.pending = a, [], [], 0
        self.rows = {}                     # row index -> ([g], [b]) from add_row
        self.limit = max(4 * np.size(a), 4096)
        self.sum = None

    def add(self, g, b):
        if g is None:
            return
        self.gs.append(g)
        self.bs.append(b)
        self.pending += getattr(g, "size", 1) + getattr(b, "size", 1)
        if self.pending > self.limit:
            self.flush()

    def add_row(self, i, g, b):
        """matmul_lhs(index_vjp(g, a @ b, i), a, b) for a matrix a, a vector b and an int
        i: only row i changes, by g * b (g the cotangent of the number (a @ b)[i])."""
        if g is None:
            return
        gs, bs = self.rows.get(i) or self.rows.setdefault(i, ([], []))
        gs.append(g)
        bs.append(b)
        self.pending += 1 + getattr(b, "size", 1)
        if self.pending > self.limit:
            self.flush()

    def add_item(self, i, g, t, b):
        """add(getitem_vjp(g, t, i), b) for t = a @ b and an int i (the general rule's
        `(W @ x)[0]` in a loop): add_row when, checked here, a is a float matrix, t and
        b float vectors and g a float number; else the general path."""
        if type(g) in _FLOATS and type(b) is np.ndarray and b.ndim == 1 \
                and b.dtype.kind == "f" and type(t) in _VECTORS and t.ndim == 1 \
                and type(self.a) is np.ndarray and self.a.ndim == 2 \
                and self.a.dtype.kind == "f":
            self.add_row(i, g, b)
        else:
            self.add(getitem_vjp(g, t, i), b)

    def flush(self):
        if self.gs:
            self.sum = accumulate_into(self.sum, _stacked_lhs(self.gs, self.bs, self.a))
            self.gs, self.bs = [], []
        for i, (gs, bs) in self.rows.items():
            row = np.asarray(gs, dtype=cot_dtype(gs[0], self.a)) @ np.stack(bs)
            if self.sum is None:
                self.sum = np.zeros(np.shape(self.a), dtype=row.dtype)
            self.sum[i] += row
        self.rows, self.pending = {}, 0

    def total(self):
        """The sum so far (None if nothing was added)."""
        self.flush()
        return self.sum


def _stacked_lhs(gs, bs, a):
    """Σ_k matmul_lhs(gs[k], a, bs[k]) with one matmul when the shapes allow it."""
    if getattr(a, "ndim", 0) == 2 and _all_arrays_of_ndim(gs, 1) and _all_arrays_of_ndim(bs, 1):
        return np.stack(gs, axis=1) @ np.stack(bs)                    # Σ outer(g, b)
    if getattr(a, "ndim", 0) == 2 and _all_arrays_of_ndim(gs, 2) and _all_arrays_of_ndim(bs, 2):
        return np.concatenate(gs, axis=1) @ np.concatenate(bs, axis=1).T   # Σ g @ b.T
    total = None
    for g, b in zip(gs, bs):
        total = accumulate_into(total, matmul_lhs(g, a, b))
    return total


def _all_arrays_of_ndim(values, ndim):
    return all(type(v) is np.ndarray and v.ndim == ndim for v in values)
