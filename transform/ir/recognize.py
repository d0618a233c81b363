"""Recognizers for the statements the compiler itself generates (tape pushes and pops,
comment markers, helper calls), shared by the optimizer passes.

They read the mark `Vocabulary.ref` puts on the Name nodes the compiler makes
(`node.role`), never the name in the source: a user's own `tape` or `pop` is a
different name, and is never mistaken for the compiler's.
"""
import gast

from .comments import mark_of
from .vocabulary import role_of


def is_call(node, role):
    """A call of the compiler's `role` (a runtime helper), without keyword arguments."""
    return isinstance(node, gast.Call) and role_of(node.func) == role and not node.keywords


def called_role(node):
    """The role a call of a compiler-made name is for, else None."""
    return role_of(node.func) if isinstance(node, gast.Call) else None


def is_pop(node):
    """`pop()`: the backward sweep reading the tape."""
    return is_call(node, "pop") and not node.args


def popped_into(s):
    """N for the statement `N = pop()`, else None."""
    if isinstance(s, gast.Assign) and len(s.targets) == 1 \
            and isinstance(s.targets[0], gast.Name) and is_pop(s.value):
        return s.targets[0].id
    return None


def is_push(s):
    """`tape.append(...)`: the forward sweep saving a value."""
    return isinstance(s, gast.Expr) and isinstance(s.value, gast.Call) \
        and isinstance(s.value.func, gast.Attribute) and s.value.func.attr == "append" \
        and role_of(s.value.func.value) == "tape"


def pushed(s):
    """N for `tape.append(N)` and `tape.append(shape_only(N))`, else None."""
    if not (is_push(s) and len(s.value.args) == 1):
        return None
    arg = s.value.args[0]
    if is_call(arg, "shape_only") and len(arg.args) == 1:
        arg = arg.args[0]
    return arg.id if isinstance(arg, gast.Name) else None


def pair_of(s):
    """The id a tape push and the pop reading its entry back share (the mark the
    typed form's `Push` and `Pop` lower with), else None."""
    return getattr(s, "pair_id", None) if pushed(s) or popped_into(s) else None


def assigns_role(s, role):
    """`role = ...` (e.g. `pop = tape_reader(tape)`) or `del role`."""
    targets = s.targets if isinstance(s, (gast.Assign, gast.Delete)) else []
    return bool(targets) and all(role_of(t) == role for t in targets)


def is_comment(s):
    """A comment marker (Compilation.comment, .note, .end_comment; render makes it a
    `# ...` line), known by its mark: a user's string statement is never one."""
    return mark_of(s) is not None


def is_end_comment(s):
    """A marker for a comment at the end of the previous line."""
    mark = mark_of(s)
    return mark is not None and mark.end
