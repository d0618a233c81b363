"""Stage 3, normalize: calls of nested defs inside expressions kept as written.

Tests of `if` and `while`, comparisons and boolean expressions stay as the user wrote
them (their values carry no derivative), but a nested def or a lambda bound to a local
name is not a name of the generated code: it is inlined where it is called. Such a call
inside a kept expression is computed first, by the inlined body, and the expression
reads its result:

    f = lambda v: v ** 2              f_v = x
    if f(x) > 0.3:           ->       t1 = f_v ** 2
        ...                           cond1 = t1 > 0.3

Left in place it raised NameError, or, with a module-level function of the same name,
silently called that one (a wrong branch, a wrong gradient). A `while` test is computed
again on each trip (`while True: if not test: break`). A call the expression may skip
(after `and`/`or`, in a branch of `a if c else b`, a chained comparison's later terms)
is refused: hoisted, it would run when Python's would not.
"""
import gast

from ..ir.nodes import load

_CONDITIONAL = {gast.BoolOp: ("values", 1), gast.IfExp: ("body", 0),
                gast.Compare: ("comparators", 1)}


def reads_local_def(norm, e):
    """Whether `e` names a nested def or a lambda bound to a local name."""
    return e is not None and any(isinstance(n, gast.Name) and n.id in norm.local_defs
                                 for n in gast.walk(e))


def while_with_local_test(s):
    """`while test: body` as `while True: if not test: break` then the body."""
    leave = gast.If(test=gast.UnaryOp(op=gast.Not(), operand=s.test), body=[gast.Break()],
                    orelse=[])
    gast.copy_location(leave, s.test)
    return gast.While(test=gast.Constant(value=True, kind=None), body=[leave] + s.body,
                      orelse=s.orelse)


def hoisted(norm, e):
    """`e` with each call of a local def computed before it (see the module's doc)."""
    if not reads_local_def(norm, e):
        return e
    return _hoist(norm, e)


def _hoist(norm, e):
    if isinstance(e, gast.Call) and isinstance(e.func, gast.Name) and \
            e.func.id in norm.local_defs:
        return load(norm.calls.inline_call(norm.local_defs[e.func.id], e, None))
    if isinstance(e, gast.Name) and e.id in norm.local_defs:
        return norm.atom(e)
    if isinstance(e, (gast.Lambda, gast.ListComp, gast.SetComp, gast.DictComp,
                      gast.GeneratorExp)) or _skippable(norm, e):
        raise norm.src.error("a call of the nested function or lambda "
                             f"{_first_local(norm, e)}() where this expression may skip it",
                             e, hint="compute it on its own line first, then test the "
                             "result")
    for field, value in gast.iter_fields(e):
        if isinstance(value, list):
            setattr(e, field, [_hoist(norm, v) if isinstance(v, gast.AST) else v
                               for v in value])
        elif isinstance(value, gast.expr):
            setattr(e, field, _hoist(norm, value))
    return e


def _skippable(norm, e):
    kind = _CONDITIONAL.get(type(e))
    if kind is None:
        return False
    field, start = kind
    parts = getattr(e, field)[start:]
    if isinstance(e, gast.IfExp):
        parts = [e.body, e.orelse]
    return any(reads_local_def(norm, p) for p in parts)


def _first_local(norm, e):
    return next(n.id for n in gast.walk(e) if isinstance(n, gast.Name)
                and n.id in norm.local_defs)
