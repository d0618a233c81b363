"""`match` on literals, constants, None/True/False and captures becomes if/elif.

    match mode:                      subject = mode
        case "l2" | "sq":            if subject == "l2" or subject == "sq":
            r = x @ x         ->         r = x @ x
        case None:                   elif subject is None:
            r = 0.0                      r = 0.0
        case k if k > 2:             else:
            r = k * x                    k = subject
        case _:                          if k > 2:
            r = x                            r = k * x
                                         else:
                                             r = x

The subject is evaluated once; values compare with `==`, singletons with `is`, as
Python's match does; a capture binds before its guard runs. Sequence, mapping and
class patterns are refused with the if/elif hint.
"""
import gast

from ..ir.nodes import assign as _assign, load as _load, located as _at

_HINT = "use if/elif/else"


def match_as_ifs(src, s, new_name):
    """The statements replacing the Match statement `s`."""
    subject = new_name("subject")
    rest = []
    for case in reversed(s.cases):
        rest = _case(src, case, subject, rest)
    return [_at(_assign(subject, s.subject), s)] + rest


def _case(src, case, subject, rest):
    """Statements trying `case`, then (if it fails) `rest`."""
    pattern, where = case.pattern, case.pattern
    bind = []
    if isinstance(pattern, gast.MatchAs) and pattern.name is not None:
        if pattern.pattern is None:                         # `case k:` binds, then guards
            binding = _at(_assign(pattern.name, _load(subject)), where)
            if case.guard is None:
                return [binding] + case.body
            return [binding, _at(gast.If(test=case.guard, body=case.body, orelse=rest),
                                 where)]
        if case.guard is not None:
            raise src.error("`match` with `as` and a guard is not supported", pattern,
                            hint=_HINT)
        bind = [_at(_assign(pattern.name, _load(subject)), where)]
        pattern = pattern.pattern
    test = _test(src, pattern, subject)
    if test is None:                                       # `case _:`
        if case.guard is None:
            return case.body
        test = case.guard
    elif case.guard is not None:
        test = gast.BoolOp(op=gast.And(), values=[test, case.guard])
    return [_at(gast.If(test=_at(test, where), body=bind + case.body, orelse=rest), where)]


def _test(src, pattern, subject):
    """The condition for `pattern` (None: always matches)."""
    if isinstance(pattern, gast.MatchValue):
        return gast.Compare(left=_load(subject), ops=[gast.Eq()], comparators=[pattern.value])
    if isinstance(pattern, gast.MatchSingleton):
        value = gast.Constant(value=pattern.value, kind=None)
        return gast.Compare(left=_load(subject), ops=[gast.Is()], comparators=[value])
    if isinstance(pattern, gast.MatchAs) and pattern.pattern is None and pattern.name is None:
        return None
    if isinstance(pattern, gast.MatchOr):
        tests = [_test(src, p, subject) for p in pattern.patterns]
        if any(t is None for t in tests) or any(_captures(p) for p in pattern.patterns):
            raise src.error("`match` with a capture inside `|` is not supported", pattern,
                            hint=_HINT)
        return gast.BoolOp(op=gast.Or(), values=tests)
    raise src.error("`match` with sequence, mapping or class patterns is not supported",
                    pattern, hint=_HINT)


def _captures(pattern):
    return any(isinstance(n, gast.MatchAs) and n.name is not None for n in gast.walk(pattern))
