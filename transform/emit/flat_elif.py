"""Emit: a long if/elif chain stays flat in the generated forward.

The normalizer evaluates each `elif` condition in a statement of its own, inside the
previous branch's else, so a chain of n branches nests n deep (Python allows 100
indentation levels). A chain longer than FLAT_AFTER is rendered with the conditions
bound in assignment expressions, evaluated in the same order:

    if cond1:                              if cond1:
        ...                                    ...
    else:                           ->     elif (cond2 := k == 1):
        cond2 = k == 1                         ...
        if cond2:
            ...
"""
import gast

from ..ir.comments import mark_of
from ..ir.nodes import statements

FLAT_AFTER = 16


def flatten_elif_chains(tree, source_lines=None):
    """Rewrite, in place, every chain in `tree` longer than FLAT_AFTER; iterative.
    source_lines: the user's source, when given a cheap first look (no long chain
    without as many `elif` lines)."""
    if source_lines is not None and \
            sum(1 for line in source_lines if line.lstrip().startswith("elif")) < FLAT_AFTER:
        return
    done = set()
    for s in list(statements(tree)):
        if type(s) is gast.If and id(s) not in done and _chain_length(s) > FLAT_AFTER:
            _flatten(s, done)


def _chain_length(s):
    length = 1
    while _next_link(s) is not None:
        s, length = _next_link(s), length + 1
    return length


def _next_link(s):
    """The If the else-branch of `s` ends with, when only simple statements (each one
    that an expression can say) come before it."""
    orelse = s.orelse
    if not orelse or type(orelse[-1]) is not gast.If:
        return None
    if all(_as_expression(p) is not None for p in orelse[:-1]):
        return orelse[-1]
    return None


def _as_expression(p):
    """`name = e` as `(name := e)`, a call statement as the call; else None."""
    if mark_of(p) is not None:
        return None
    if type(p) is gast.Assign and len(p.targets) == 1 and type(p.targets[0]) is gast.Name:
        return gast.NamedExpr(target=p.targets[0], value=p.value)
    if type(p) is gast.Expr and type(p.value) is gast.Call:
        return p.value
    return None


def _flatten(s, done):
    while True:
        done.add(id(s))
        inner = _next_link(s)
        if inner is None:
            return
        before = [_as_expression(p) for p in s.orelse[:-1]]
        if not _binds_test(before, inner.test):
            before.append(inner.test)
        if len(before) == 1:
            inner.test = before[0]
        else:
            parts = gast.Tuple(elts=before, ctx=gast.Load())
            inner.test = gast.Subscript(value=parts, slice=gast.Constant(value=-1, kind=None),
                                        ctx=gast.Load())
        s.orelse = [inner]
        s = inner


def _binds_test(before, test):
    """Whether the last expression binds the name the test reads (`(cond := e)`)."""
    last = before[-1] if before else None
    return type(last) is gast.NamedExpr and type(test) is gast.Name \
        and last.target.id == test.id
