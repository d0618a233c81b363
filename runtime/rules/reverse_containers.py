"""Rules for reverse mode's cotangent helpers of containers and of a few linear
rules (runtime/containers.py, operators_helpers.py, sequences_helpers.py,
shape_helpers.py, linalg_helpers.py, reductions_helpers.py) that forward mode meets
in the flat gradient (hvp forward over reverse, transform/flat_gradient.py). Each is
linear in its cotangent `g` (JVP LINEAR: the helper of the cotangent's tangent); the
primal values beside it give only kinds, shapes, positions and which entries tie
(None: piecewise constant). The cotangent templates are the transposes
(reverse_containers_helpers.py)."""
from ..containers import getattr_vjp, list_cotangent, pack_cotangent, record_field
from ..registry import LINEAR, defvjp, lookup
from .operators_helpers import extreme_vjp, sequence_vjp, sorted_vjp, sum_entries_vjp, \
    transposed_vjp, union_vjp
from .sequences_helpers import dict_pairs_vjp, in_order_vjp, reversed_items_vjp
from .linalg_helpers import diag_vjp, dot_vjp
from .reductions_helpers import trace_vjp
from .shape_helpers import cast_jvp, concatenate_vjp, stack_vjp, unstack_vjp

# list(xs)/tuple(xs)'s cotangent: the entries' as xs's kind (an array: rows stacked)
defvjp(sequence_vjp, "slopes, iterable", "sequence_vjp_vjp(g, iterable)", None,
       jvp=(LINEAR, None))
# sum(xs)'s cotangent: the sum's summed back to each entry
defvjp(sum_entries_vjp, "slopes, iterable", "sum_entries_vjp_vjp(g, slopes, iterable)", None,
       jvp=(LINEAR, None))
# max(xs)/min(xs)'s: the tied entries' shares (which entries tie: piecewise constant)
defvjp(extreme_vjp, "slopes, answer, values", "extreme_vjp_vjp(g, answer, values)", None,
       None, jvp=(LINEAR, None, None))
# sorted(xs)'s: back to each entry's origin (the order: piecewise constant)
defvjp(sorted_vjp, "slopes, values, answer", "sorted_vjp_vjp(g, values, answer)", None, None,
       jvp=(LINEAR, None, None))
# a shuffle's: back to each entry's origin (the order is drawn, not differentiated)
defvjp(in_order_vjp, "slopes, xs, order", "in_order_vjp_vjp(g, xs, order)", None, None,
       jvp=(LINEAR, None, None))
# a list's cotangent as a list (an array's rows split)
defvjp(list_cotangent, "slopes, like", "list_cotangent_vjp(g, slopes, like)", None,
       jvp=(LINEAR, None))
# np.stack's: g's slices along the new axis
defvjp(stack_vjp, "slopes, arrays, axis", "stack_vjp_vjp(g, slopes, arrays, axis)", None,
       None, jvp=(LINEAR, None, None))
# obj.name's: a field's (a dict by name, a namedtuple by position), a transpose's; a
# computed attribute's depends on obj (its getter's derivative): refused (the object's
# term, getattr_vjp_obj, raises there; none otherwise)
defvjp(getattr_vjp, "slopes, obj, name, answer=None", "getattr_vjp_vjp(g, obj, name)",
       "getattr_vjp_obj(g, obj, name)", None, None,
       jvp=("getattr_vjp_slopes_jvp(t_slopes, obj, name, answer)",
            "getattr_vjp_obj_jvp(t_obj, slopes, obj, name, answer)", None, None))
# np.array(xs)'s (and a copy's): g split to mirror xs (the entries' kinds and nesting)
defvjp(unstack_vjp, "slopes, obj", "unstack_vjp_vjp(g, slopes, obj)", None, jvp=(LINEAR, None))
# np.concatenate's: g cut back into the pieces
defvjp(concatenate_vjp, "slopes, arrays, axis", "concatenate_vjp_vjp(g, slopes, arrays, axis)",
       None, None, jvp=(LINEAR, None, None))
# np.diag's: a diagonal read or written, its own transpose (v read for its kind)
defvjp(diag_vjp, "slopes, v, k", "diag_vjp(g, slopes, k)", None, None, jvp=(LINEAR, None, None))
# np.trace's: g on the diagonal, whose transpose is the trace
defvjp(trace_vjp, "slopes, a, offset, axis1, axis2", "np.trace(g, offset, axis1, axis2)", None,
       None, None, None, jvp=(LINEAR, None, None, None, None))
# np.dot's cotangent of a (operand 0: g b^T) or of b (1: a^T g): bilinear in g and the
# other factor; the operand's own factor gives only its shape
defvjp(dot_vjp, "slopes, a, b, operand",
       "np.dot(g, b) if operand == 0 else np.dot(a, g)",
       "dot_vjp(slopes, a, g, 0) if operand == 1 else None",
       "dot_vjp(slopes, g, b, 1) if operand == 0 else None", None,
       jvp=("dot_vjp(t_slopes, a, b, operand)", "dot_vjp_factor(slopes, t_a, b, operand, 0)",
            "dot_vjp_factor(slopes, a, t_b, operand, 1)", None))
# a record's field's cotangent: the record's entry by name or position
defvjp(record_field, "slopes, name, position, fields",
       "record_field_vjp(g, slopes, name, position, fields)", None, None, None,
       jvp=(LINEAR, None, None, None))
# zip(*rows)'s: the columns' cotangents back into the rows
defvjp(transposed_vjp, "slopes, rows", "transposed_vjp_vjp(g, slopes, rows)", None,
       jvp=(LINEAR, None))
# reversed(xs)'s: g read backwards, its own transpose
defvjp(reversed_items_vjp, "slopes, xs", "reversed_items_vjp(g, xs)", None, jvp=(LINEAR, None))
# `a, b = seq[index]`'s: the parts' cotangents packed into seq[index]'s
defvjp(pack_cotangent, "seq, index, parts", None, None, "pack_cotangent_vjp(g, seq, index, parts)",
       jvp=(None, None, LINEAR))
# dict cotangents (checked in programs: tests/forward/test_hvp_forward_over_reverse_loops.py):
# `x | y`'s, the merged dict's entries back to the side that gave them (a restriction)
defvjp(union_vjp, "slopes, x, y, which", "union_vjp_vjp(g, x, y, which)", None, None, None,
       jvp=(LINEAR, None, None, None))
# dict(pairs)'s: each key's cotangent back to the pair dict() kept
defvjp(dict_pairs_vjp, "slopes, pairs", "dict_pairs_vjp_vjp(g, pairs)", None,
       jvp=(LINEAR, None))
# x.astype(dtype)'s tangent (forward mode, then reverse over it: hvp): the tangent cast
# back, none through an integer or bool cast
defvjp(cast_jvp, "t, ans, dtype", "cast_back(g, t, dtype)", None, None, complex_ok=True,
       jvp=(LINEAR, None, None))
lookup(cast_jvp).maybe_none = True       # (None through an integer cast: guarded)
