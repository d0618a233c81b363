"""Recognizers for the statements the compiler itself generates (tape pushes and pops,
comment markers, helper calls), shared by the optimizer passes."""
import gast

from .comments import mark_of


def is_call(node, name):
    """A call of the bare name `name` (a runtime helper), without keyword arguments."""
    return isinstance(node, gast.Call) and isinstance(node.func, gast.Name) \
        and node.func.id == name and not node.keywords


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
        and isinstance(s.value.func.value, gast.Name) and s.value.func.value.id == "tape"


def pushed(s):
    """N for `tape.append(N)` and `tape.append(shape_only(N))`, else None."""
    if not (is_push(s) and len(s.value.args) == 1):
        return None
    arg = s.value.args[0]
    if is_call(arg, "shape_only") and len(arg.args) == 1:
        arg = arg.args[0]
    return arg.id if isinstance(arg, gast.Name) else None


def is_comment(s):
    """A comment marker (Compilation.comment, .note, .end_comment; render makes it a
    `# ...` line), known by its mark: a user's string statement is never one."""
    return mark_of(s) is not None


def is_end_comment(s):
    """A marker for a comment at the end of the previous line."""
    mark = mark_of(s)
    return mark is not None and mark.end
