"""`r.reshape(3, n)` where the source does not show what r is: dispatched when the code
runs (normalize_calls.py dispatch_method), the ndarray branch with its arguments checked
to be integers (runtime's `integer_shape`, no derivative):

    cond = is_user_object(r, "reshape")
    if cond: t = r.reshape(3, n)          (the user's method: n may be differentiated)
    else:    dims = integer_shape(n)
             t = r.reshape(3, dims)       (np.reshape's rule: a shape carries no tangent)

A shape or axes argument of an array's method is integers, so the check refuses (a
TypeError, as NumPy's) nothing NumPy would run, and the branch never reaches the
rule's shape position with a differentiated value (a refusal when compiling)."""
import gast

from ..ir.nodes import assign, load
from ..ir.primitives import Prim

SHAPE_METHODS = frozenset(("reshape", "transpose"))


def integer_checked(lowering, node, call):
    """(node, (fn, args, keywords)) of the ndarray branch, each named argument of a
    shape method replaced by `integer_shape(arg)`'s (emitted first); others as given."""
    fn, args, keywords = call
    if node.func.attr not in SHAPE_METHODS:
        return node, call
    checked = []
    for a in args:
        if isinstance(a, gast.Name):
            dims = lowering.names.new("dims")
            lowering.norm.emit(assign(dims, lowering.names.call("integer_shape", a)),
                               Prim("nondiff", "shape"))
            a = load(dims)
        checked.append(a)
    node.args = [load(a.id) if isinstance(a, gast.Name) else a for a in checked]
    return node, (fn, checked, keywords)


def array_branch(lowering, e, node, base, call, target):
    """The dispatch's ndarray branch (normalize_calls.py array_method), checked."""
    node, call = integer_checked(lowering, node, call)
    return lowering.array_method(e, node, base, call, target, False)


def user_branch(lowering, e, node, base, call, target):
    """The dispatch's user-object branch; a value being differentiated given to it, its
    result unused, is refused only if the branch runs (analysis/kept_values.py): the
    receiver may be an array (in reverse over forward's tangent code, a list item's
    `t9 = t8.prod(1)` whose result only the tangent's other branch read)."""
    stmts = lowering.norm.block_of(lambda: lowering.user_method(
        e, node, base, call[1], call[2], target, False))
    for stmt in stmts:
        if getattr(getattr(stmt, "prim", None), "method", None) == e.func.attr:
            stmt.prim.decided_when_run = f"{lowering.norm.where(e)}:{e.col_offset + 1}"
    return stmts
