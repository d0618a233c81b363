"""What generated adjoint code needs at run time: thunks, accumulation, the tape,
and the derivative rules. Never imports `transform`."""
from .thunks import Thunk, unthunk, thunk_stats, ThunkStats
from .accumulate import (accum, accum_eager, accum_flat, accum_nested, accumulate_into, accumulate_at,
                         add_values, own, FlatSum, cotangent_zeros,
                         reused_cotangent)
from .registry import (TEMPLATE_NAMESPACE, Rule, defvjp, nondiff, rrule, lookup, ZERO, SHAPE, NONE,
                       template_helper, defmethod, method_function, registered_names)
from .tape import (tape_reader, iterable, shape_only, unviewed, ShapeOnly, reversed_prefix, reversed_enumerate, reversed_zip,
                   reversed_indices, popped)
from . import helpers  # noqa: F401  (registers template helpers)
from . import operators, patterns, spread  # noqa: F401  (operator_side, spread_call)
from . import attributes  # noqa: F401  (with_attribute)
from .checkpoint import checkpointed, checkpoint_stats
from . import checkpoint_rule  # noqa: F401  (run_checkpointed's rule)
from .checkpoint_online import checkpointed_while
from . import checkpoint_trial  # noqa: F401  (memory_limit: checkpoint_fits)
from . import checkpoint_online_budget  # noqa: F401  (memory_limit's while/break loops)
from .helpers import accumulate_unbroadcast, matmul_lhs_spread, matmul_rhs_spread
from .products import MatmulLhsSum
from .containers import not_shared_array, unpacked_count
from .forward import (zero_tangent, stored_tangent, broadcast_to_output, receiver_tangent,
                      attribute_tangent)
from . import rules
rules.register_all()                # the rule catalogue

__all__ = ["Thunk", "unthunk", "thunk_stats", "ThunkStats", "accum", "accum_eager",
           "accum_flat", "accum_nested", "accumulate_into", "accumulate_at", "add_values", "own", "FlatSum",
           "Rule", "defvjp", "nondiff", "ZERO", "SHAPE", "NONE", "rrule", "lookup", "template_helper", "defmethod",
           "method_function", "registered_names", "tape_reader", "iterable", "shape_only", "unviewed", "ShapeOnly",
           "reversed_prefix", "reversed_enumerate", "reversed_zip", "reversed_indices", "popped",
           "TEMPLATE_NAMESPACE", "not_shared_array", "unpacked_count",
           "accumulate_unbroadcast", "MatmulLhsSum",
           "matmul_lhs_spread", "matmul_rhs_spread", "cotangent_zeros", "reused_cotangent",
           "checkpointed", "checkpointed_while",
           "checkpoint_stats", "zero_tangent", "stored_tangent", "broadcast_to_output",
           "receiver_tangent", "attribute_tangent"]


def generated_namespace():
    """Globals for generated code: the template namespace plus the runtime's names."""
    namespace = dict(TEMPLATE_NAMESPACE)
    namespace.update({name: globals()[name] for name in __all__})
    return namespace
