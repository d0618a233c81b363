"""Stage 1b, desugar: `zip(a, b)` and `reversed(xs)` given to a builtin that reads all
their items where they are written (list, tuple, sorted, dict, sum, max, min) become
calls with rules, built at the call:

    pairs = sorted(zip(a, b))     ->  pairs = sorted(transposed((a, b)))
    d = dict(zip(keys, values))   ->  d = dict(transposed((keys, values)))
    ys = list(reversed(xs))       ->  ys = list(reversed_items(xs))

`transposed(rows)` is zip(*rows) as a tuple of tuples (runtime/rules/operators_helpers.py),
`reversed_items(xs)` is xs[::-1] for lists, tuples, arrays and ranges
(runtime/rules/sequences_helpers.py). A zip of a generator is left to generators.py
(zip may read it in part), a zip with `strict=` or `*rows` to the rules it has.
"""
import inspect

import gast

from ..ir.nodes import load as _load

CONSUMERS = (list, tuple, sorted, dict, sum, max, min)


def rewrite_consumed(src, call):
    """Rewrite the zip/reversed arguments of `call` when it is one of CONSUMERS."""
    if src.resolve(call.func) not in CONSUMERS:
        return
    call.args = [_consumed(src, a) for a in call.args]


def consumes_iterator(src, fn, call):
    """Whether `call` (of fn) is one of CONSUMERS given a zip or reversed (a sugar call)."""
    return fn in CONSUMERS and any(
        isinstance(a, gast.Call) and src.resolve(a.func) in (zip, reversed) for a in call.args)


def _consumed(src, arg):
    if not isinstance(arg, gast.Call) or arg.keywords:
        return arg
    fn = src.resolve(arg.func)
    if fn is reversed and len(arg.args) == 1 and not isinstance(arg.args[0], gast.Starred):
        return _helper_call(arg, "reversed_items", arg.args[0])
    if fn is not zip:
        return arg
    rows = spread_displays(arg.args)
    if not rows or any(isinstance(r, gast.Starred) or _generator(src, r) for r in rows):
        return arg
    rows = [_consumed_row(src, r) for r in rows]
    return _helper_call(arg, "transposed", gast.Tuple(elts=rows, ctx=gast.Load()))


def _consumed_row(src, row):
    """A row of zip: `reversed(xs)` in it is read whole too."""
    if isinstance(row, gast.Call) and not row.keywords and len(row.args) == 1 and \
            src.resolve(row.func) is reversed and not isinstance(row.args[0], gast.Starred):
        return _helper_call(row, "reversed_items", row.args[0])
    return row


def _helper_call(at, name, arg):
    from runtime.rules import operators_helpers, sequences_helpers
    helper = getattr(operators_helpers, name, None) or getattr(sequences_helpers, name)
    func = _load(name)
    func.runtime_helper = helper
    return gast.copy_location(gast.Call(func=gast.copy_location(func, at.func), args=[arg],
                                        keywords=[]), at)


def spread_displays(args):
    """`f(*(a, b), c)` / `zip(*(a, b))` -> [a, b, c]; other args as they are."""
    out = []
    for a in args:
        if isinstance(a, gast.Starred) and isinstance(a.value, (gast.Tuple, gast.List)):
            out.extend(a.value.elts)
        else:
            out.append(a)
    return out


def _generator(src, e):
    """Whether e is a call of a generator function (zip may read it in part)."""
    return isinstance(e, gast.Call) and inspect.isgeneratorfunction(src.resolve(e.func))
