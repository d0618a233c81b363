"""Examples for the rules of reverse mode's container cotangent helpers (hvp forward
over reverse, runtime/rules/reverse_containers.py), joined into
tests/rules/test_every_rule_checked.py's EXTRA: each helper's cotangent `g` is the
differentiated argument (lists of numbers and arrays, arrays), the others its
primal values (entries, ties, orders, shapes)."""
import numpy as np

from runtime.containers import getattr_vjp, list_cotangent, pack_cotangent, record_field
from runtime.rules.operators_helpers import extreme_vjp, sequence_vjp, sorted_vjp, \
    sum_entries_vjp, transposed_vjp
from runtime.rules.sequences_helpers import in_order_vjp, reversed_items_vjp
from runtime.rules.linalg_helpers import diag_vjp, dot_vjp
from runtime.rules.reductions_helpers import trace_vjp
from runtime.rules.shape_helpers import cast_jvp, concatenate_vjp, stack_vjp, unstack_vjp
from tests.rules.checks import rand

A, B = rand(3, 4, seed=1), rand(3, 4, seed=2, low=0.5, high=1.5)
V3, V4 = rand(3, seed=3), rand(4, seed=4)
ROWS = [A[0].copy(), A[1].copy(), A[2].copy()]
_TIED = [0.3, 0.7, -0.2, 0.7]

REVERSE_CONTAINERS = {
    sequence_vjp: [([V4, 2.0 * V4, -V4], A), ([0.3, -1.1, 0.4], [1.0, 2.0, 3.0]),
                   ([V4, 2.0 * V4], [V4, V4]), ([V3, V4], (V3, V4))],
    sum_entries_vjp: [(V4, A), (V4, [V4, 2.0 * V4]), (A, [A, V4, 0.5])],
    extreme_vjp: [(0.7, 0.7, _TIED), (1.3, float(np.max(V3)), V3)],
    sorted_vjp: [([1.1, -0.4, 2.0], [0.3, 0.7, -0.2], [-0.2, 0.3, 0.7]),
                 ([V4, 2.0 * V4], [ROWS[0], ROWS[1]], [ROWS[1], ROWS[0]])],
    in_order_vjp: [([1.1, -0.4, 2.0], [0.3, 0.7, -0.2], [2, 0, 1]),
                   ([V4, 2.0 * V4], [ROWS[0], ROWS[1]], [1, 0])],
    list_cotangent: [(A, [V4, V4, V4]), (V3, [0.1, 0.2, 0.3]), (A, A)],
    stack_vjp: [(A, [V3, V3, V3, V3], 1), (A, [V4, V4, V4], 0),
                (rand(2, 6, seed=5), [np.ones((2, 3)), np.ones((2, 3))], 0)],
    unstack_vjp: [(A, [V4, V4, V4]), (rand(1, 3, 4, seed=8), [ROWS[0], ROWS[1], ROWS[2]]),
                  (A, A), ([V4, 2.0 * V4], [V4, V4]), (V3, [0.1, 0.2, 0.3]),
                  (A, [[V4[0], V4[1], V4[2], V4[3]], V4, V4])],
    getattr_vjp: [(B.T.copy(), A, "T"), (B, A, "real"), (rand(2, 4, 3, seed=6),
                                                           rand(2, 3, 4, seed=7), "mT")],
    concatenate_vjp: [(rand(7, 4, seed=9), [A, V4[None, :] * np.ones((4, 4))], 0),
                      (rand(3, 9, seed=10), [A, rand(3, 5, seed=11)], 1),
                      (rand(16, seed=12), [A, V4], None)],
    diag_vjp: [(rand(5, 5, seed=13), V4, 1), (V3, rand(3, 3, seed=14), 0),
               (rand(3, seed=15), rand(4, 4, seed=16), -1)],
    trace_vjp: [(V4, rand(3, 3, 4, seed=17), 0, 0, 1), (0.7, A, 1, 0, 1)],
    dot_vjp: [(V3, A, V4, 1), (0.7, (0.3, 1.2, -0.4), (1.1, 0.5, 2.0), 0), (V3, A, V4, 0), (A, A, 0.7, 0), (0.7, V4, 2.0 * V4, 1),
              (A, rand(3, 2, seed=18), rand(2, 4, seed=19), 0),
              (A, rand(3, 2, seed=18), rand(2, 4, seed=19), 1)],
    transposed_vjp: [([(0.3, 1.1, -0.2), (0.5, 0.7, 0.9)], [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]),
                     ([(V4, 2.0 * V4), (-V4, V4)], [(V4, V4), (V4, V4)]),
                     ([[0.3, 1.1], [0.5, 0.7], [0.2, 0.4]], A[:2, :3])],
    reversed_items_vjp: [([0.3, 1.1, -0.2], [1.0, 2.0, 3.0]), (A, A), ([V4, V3], (V4, V3))],
    pack_cotangent: [([(V4, 2.0 * V4), A], 0, (V4, -V4)), ((A, V4), 0, (V4, 2.0 * V4, -V4))],
    record_field: [((V4, 0.7), "b", 1, ("w", "b")), (A, "w", 1, ("u", "w", "b"))],
    cast_jvp: [(A, A, np.float64), (V3, V3, float),
               (V4, V4.astype(int), int), (A, A > 0.5, bool)],
}
_DICTS = ("a dict cotangent (the drivers step arrays and lists): "
          "tests/forward/test_hvp_forward_over_reverse_loops.py (dict_union, dict_of_pairs) "
          "against differences of grad")
# rule name: why it is not driven by the examples, and where it is checked
REVERSE_EXEMPT = {"runtime.rules.operators_helpers.union_vjp": _DICTS,
                  "runtime.rules.sequences_helpers.dict_pairs_vjp": _DICTS}
