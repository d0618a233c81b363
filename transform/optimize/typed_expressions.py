"""The gast expressions inside typed statements (docs/ir.md: statements typed,
expressions gast), for the typed phase's expression passes (InlineForcedThunks):

    Accumulate(dx, unthunk(Thunk(lambda g=g: g * 2)), "set")   its value
    Spread(target, buffer, like, index, value)                  its gast fields
    tape.append(x), a user's statement                          its node
    for i in reversed(steps): ...                               its header only

`rewrite_expressions(block, transformer)` hands every such expression of `block` (loop
and branch bodies included) to a gast.NodeTransformer and puts back what it returns, so
a transformer may replace an expression's root (`unthunk(...)` -> `e`). The statements
are not lowered yet (the typed phase): a generated statement's fields are as built.
"""
import gast

from ..ir.generated import Generated
from ..ir.statements import Accumulate, Control, For
from ..ir.typed_names import typed_statements


def rewrite_expressions(block, transformer):
    """Rewrite, in place, every gast expression of the typed statements of `block`."""
    for s in typed_statements(block):
        if isinstance(s, Control):
            _header(s, transformer)
        elif isinstance(s, Accumulate) and s.node is None:
            new = transformer.visit(s._value)
            if new is not s._value:
                s._value = new
        elif isinstance(s, Generated) and s.node is None:
            _fields(s, transformer)
        elif s.node is not None:
            transformer.visit(s.node)        # a statement: its children rewritten in place


def _header(s, transformer):
    """A loop's or branch's header (its node's body is not its typed body)."""
    node = s.node
    if isinstance(s, For):
        node.iter = transformer.visit(node.iter)
    else:
        node.test = transformer.visit(node.test)


def _fields(s, transformer):
    """A generated statement's gast fields, as built (lists of them included). A field
    is set, and a list's element replaced in place, only where the transformer replaced
    a root: a list may be shared (a call's arguments, with the node a comment quotes)."""
    for key, value in list(vars(s).items()):
        if key == "node":
            continue
        if isinstance(value, gast.expr):
            new = transformer.visit(value)
            if new is not value:
                s.__dict__[key] = new
        elif isinstance(value, list):
            for k, v in enumerate(value):
                if isinstance(v, gast.expr):
                    new = transformer.visit(v)
                    if new is not v:
                        value[k] = new


# generated statements lowered to `target = ...` (ir/lower_generated.py); SliceAdd
# (`target[i] = v`), Scale (`target *= f`), AddProduct (`batch.add(...)`) are not
_ASSIGNING = frozenset({"Bind", "CallPullback", "Spread", "ZeroBuffer", "ListCotangent",
                        "ReuseBuffer", "ProductSum"})


def assigned_name(s):
    """The name `s` assigns as lowered when it lowers to `name = value` (one Name
    target), else None: an `Accumulate` but "in_place" (`d += v`), a generated statement
    of `_ASSIGNING`, a statement keeping an `Assign` node."""
    if isinstance(s, Control):
        return None
    if isinstance(s, Accumulate) and s.node is None:
        return None if s.mode == "in_place" else s.target
    if isinstance(s, Generated) and s.node is None:
        return s.target if type(s).__name__ in _ASSIGNING else None
    node = s.node
    if type(node) is gast.Assign and len(node.targets) == 1 and \
            type(node.targets[0]) is gast.Name:
        return node.targets[0].id
    return None
