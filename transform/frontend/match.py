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
first (`is_sequence_of`), then its items; a class pattern of those (`case Point(x=a,
y=b):`, `case Point(a, b):` by `__match_args__`, `case float(v):`) tests the subject's
class and attributes (`is_instance_with`), then reads them; `*rest`, nested and mapping
patterns are refused with the if/elif hint.
"""
import collections.abc
import copy

import gast

from runtime.patterns import is_instance_with

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
    if isinstance(pattern, gast.MatchClass):
        return _class_case(src, case, names, bind, rest)
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
    raise src.error("`match` with mapping patterns, or sequence and class patterns "
                    "there, is not supported", pattern, hint=_HINT)


def _sequence_case(src, case, names, bind, rest):
    """`case ("scale", k):` -> `if is_sequence_of(subject, 2) and subject[0] == "scale":
    k = subject[1]`, then the guard (its failure tries the later cases, copied)."""
    pattern, where = case.pattern, case.pattern
    (subject, fits), items = names, pattern.patterns
    # the kind and length test binds `fits` in a statement of its own: calls the
    # desugar stage writes are resolved where statements are normalized
    check = _at(_assign(fits, _sequence_test(subject, len(items))), where)
    parts = [(item, _item(subject, k)) for k, item in enumerate(items)]
    return [check] + _parts_case(src, case, (fits, parts, "a sequence"), bind, rest)


def _parts_case(src, case, test, bind, rest):
    """`if fits and part == value ...: bind captures; body` (a failed guard tries the
    later cases, copied); test: (the kind test's name, [(pattern, part)], what)."""
    fits, parts, what = test
    where = case.pattern
    tests = [_load(fits)]
    for item, part in parts:
        if isinstance(item, gast.MatchAs) and item.pattern is None:
            if item.name is not None:
                bind.append(_at(_assign(item.name, part), where))
            continue
        if not isinstance(item, (gast.MatchValue, gast.MatchSingleton)):
            raise src.error("`match` with a `*rest`, nested, mapping or class pattern "
                            f"inside {what} pattern is not supported", item, hint=_HINT)
        value_test = _test(src, item, fits)
        value_test.left = part
        tests.append(value_test)
    test = _at(gast.BoolOp(op=gast.And(), values=tests), where)
    body = case.body
    if case.guard is not None:
        body = [_at(gast.If(test=case.guard, body=body, orelse=copy.deepcopy(rest)), where)]
    return [_at(gast.If(test=test, body=bind + body, orelse=rest), where)]


def _class_case(src, case, names, bind, rest):
    """`case Point(a, y=b):` -> `fits = is_instance_with(subject, Point, ("x", "y"))`,
    then `if fits: a = subject.x; b = subject.y` (positional patterns name the class's
    `__match_args__`; `case float(v):` of a builtin type binds the subject itself)."""
    pattern, (subject, fits) = case.pattern, names
    cls = src.resolve(pattern.cls)
    if not isinstance(cls, type):
        raise src.error("`match` on a class the compiler cannot find", pattern.cls,
                        hint="name a module-level class, or use if/elif with isinstance")
    attributes = _positional_attributes(src, pattern, cls) + list(pattern.kwd_attrs)
    parts = [(p, _load(subject) if a is None else
              gast.Attribute(value=_load(subject), attr=a, ctx=gast.Load()))
             for p, a in zip(pattern.patterns + pattern.kwd_patterns, attributes)]
    func = _load("is_instance_with")
    func.runtime_helper = is_instance_with
    names = gast.Tuple(elts=[gast.Constant(value=a, kind=None) for a in attributes
                             if a is not None], ctx=gast.Load())
    test = gast.Call(func=func, args=[_load(subject), pattern.cls, names], keywords=[])
    check = _at(_assign(fits, test), pattern)
    return [check] + _parts_case(src, case, (fits, parts, "a class"), bind, rest)


_SELF_MATCHING = (bool, bytearray, bytes, dict, float, frozenset, int, list, set, str,
                  tuple)


def _positional_attributes(src, pattern, cls):
    """The attribute each positional sub-pattern reads (None: the subject itself)."""
    count = len(pattern.patterns)
    if count and cls in _SELF_MATCHING:
        if count > 1:
            raise src.error(f"{cls.__name__}() accepts one positional sub-pattern",
                            pattern, hint=_HINT)
        return [None]
    names = getattr(cls, "__match_args__", ())
    if count > len(names):
        raise src.error(f"{cls.__name__}() accepts {len(names)} positional sub-patterns "
                        f"(its __match_args__), not {count}", pattern,
                        hint="name the attributes: `case Point(x=a, y=b):`")
    return list(names[:count])


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
