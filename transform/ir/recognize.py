"""Recognizers for what the compiler itself generates and has no typed statement class
for (helper calls inside expressions, loop headers, comment markers in general),
shared by the optimizer passes. The generated statements are typed (`Push`, `Pop`,
`Accumulate`, and ir/generated.py's `Reset`, `ZeroBuffer`, `TapeStart`, ...): the
passes match those classes (`statements.typed_of`) instead.

They read the mark `Vocabulary.ref` puts on the Name nodes the compiler makes
(`node.role`), never the name in the source: a user's own `tape` or `pop` is a
different name, and is never mistaken for the compiler's.
"""
import gast

from .comments import mark_of
from .statements import Pop, Push, typed_of
from .vocabulary import role_of


def is_call(node, role):
    """A call of the compiler's `role` (a runtime helper), without keyword arguments."""
    return isinstance(node, gast.Call) and role_of(node.func) == role and not node.keywords


def called_role(node):
    """The role a call of a compiler-made name is for, else None."""
    return role_of(node.func) if isinstance(node, gast.Call) else None


def pair_of(s):
    """The id a tape push and the pop reading its entry back share (the `pair_id` of
    the typed `Push` or `Pop` the statement is marked with), else None."""
    typed = typed_of(s)
    return typed.pair_id if isinstance(typed, (Push, Pop)) else None


def assigns_role(s, role):
    """`role = ...` (e.g. `pop = tape_reader(tape)`) or `del role`."""
    targets = s.targets if isinstance(s, (gast.Assign, gast.Delete)) else []
    return bool(targets) and all(role_of(t) == role for t in targets)


def is_comment(s):
    """A comment marker (Compilation.comment, .note, .end_comment; render makes it a
    `# ...` line), known by its mark: a user's string statement is never one."""
    return mark_of(s) is not None
