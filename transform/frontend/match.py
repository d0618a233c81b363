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
Python's match does; a capture binds before its guard runs. A sequence pattern of
literals, captures and `_` (`case ("scale", k):`) tests the subject's kind and length
first (`is_sequence_of`), then its items; `*rest`, nested, mapping and class patterns
are refused with the if/elif hint.
"""
import collections.abc
import copy

import gast

from ..ir.nodes import assign as _assign, load as _load, located as _at

_HINT = "use if/elif/else"


def match_as_ifs(src, s, new_name):
    """The statements replacing the Match statement `s`."""
    subject = new_name("subject")
    rest = []
    fits = new_name("fits")
    for case in reversed(s.cases):
        rest = _case(src, case, (subject, fits), rest)
    return [_at(_assign(subject, s.subject), s)] + rest


def _case(src, case, names, rest):
    """Statements trying `case`, then (if it fails) `rest`; names: the subject's and
    the sequence test's."""
    subject, fits = names
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
    if isinstance(pattern, gast.MatchSequence):
        return _sequence_case(src, case, names, bind, rest)
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


def _sequence_case(src, case, names, bind, rest):
    """`case ("scale", k):` -> `if is_sequence_of(subject, 2) and subject[0] == "scale":
    k = subject[1]`, then the guard (its failure tries the later cases, copied)."""
    pattern, where = case.pattern, case.pattern
    (subject, fits), items = names, pattern.patterns
    # the kind and length test binds `fits` in a statement of its own: calls the
    # desugar stage writes are resolved where statements are normalized
    check = _at(_assign(fits, _sequence_test(subject, len(items))), where)
    tests = [_load(fits)]
    for k, item in enumerate(items):
        if isinstance(item, gast.MatchAs) and item.pattern is None:
            if item.name is not None:
                bind.append(_at(_assign(item.name, _item(subject, k)), where))
            continue
        if not isinstance(item, (gast.MatchValue, gast.MatchSingleton)):
            raise src.error("`match` with a `*rest`, nested, mapping or class pattern "
                            "inside a sequence pattern is not supported", item, hint=_HINT)
        item_name = _item(subject, k)
        test = _test(src, item, subject)
        test.left = item_name
        tests.append(test)
    test = _at(gast.BoolOp(op=gast.And(), values=tests), where)
    body = case.body
    if case.guard is not None:
        body = [_at(gast.If(test=case.guard, body=body, orelse=copy.deepcopy(rest)), where)]
    return [check, _at(gast.If(test=test, body=bind + body, orelse=rest), where)]


def _sequence_test(subject, count):
    func = _load("is_sequence_of")
    func.runtime_helper = is_sequence_of
    return gast.Call(func=func, args=[_load(subject), gast.Constant(value=count, kind=None)],
                     keywords=[])


def _item(subject, k):
    return gast.Subscript(value=_load(subject), slice=gast.Constant(value=k, kind=None),
                          ctx=gast.Load())


def is_sequence_of(value, count):
    """Whether a sequence pattern of `count` items matches `value`'s kind and length, as
    Python's match decides: a Sequence that is not str, bytes or bytearray."""
    return isinstance(value, collections.abc.Sequence) and \
        not isinstance(value, (str, bytes, bytearray)) and len(value) == count


def _captures(pattern):
    return any(isinstance(n, gast.MatchAs) and n.name is not None for n in gast.walk(pattern))
