"""Stage 1b, desugar (functions as values): map/filter consumed where they are written
become list comprehensions, a lambda given to them is inlined, `f = lambda a: e` (f only
ever called) becomes a nested def, `f(*(a, b))` is spread and `zip(*rows)` is
`transposed(rows)`, a helper with a rule.

    total = sum(map(lambda v: v * w, xs))   ->  total = sum([v * w for v in xs])
    kept = list(filter(None, xs))            ->  kept = list([v for v in xs if v])
"""
import copy
import functools

import gast

from ..ir.nodes import load as _load, located as _at, store as _store, walk
from .consumed_iterators import rewrite_consumed, spread_displays as _spread_displays
from .vectorize_calls import local_vectorized, vectorized_call


class Functional:
    """map/filter consumed where they are written become list comprehensions, a lambda
    given to them is inlined, and `f = lambda a: e` (f only ever called) becomes a
    nested `def f(a): return e`.

        total = sum(map(lambda v: v * w, xs))   ->  total = sum([v * w for v in xs])
        kept = list(filter(None, xs))            ->  kept = list([v for v in xs if v])
    """

    def __init__(self, src, names):
        self.src, self.names = src, names
        fdef = src.node
        self.stores, self.values, self.vectorized = {}, set(), set()
        called = {id(n.func) for n in walk(fdef) if isinstance(n, gast.Call)}
        for n in walk(fdef):
            if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store):
                self.stores[n.id] = self.stores.get(n.id, 0) + 1
            elif isinstance(n, gast.Name) and id(n) not in called:
                self.values.add(n.id)

    def lambda_def(self, s):
        """`f = lambda a: e` as `def f(a): return e`, or None."""
        if not (isinstance(s, gast.Assign) and len(s.targets) == 1 and
                isinstance(s.targets[0], gast.Name) and isinstance(s.value, gast.Lambda)):
            return None
        name, fn = s.targets[0].id, s.value
        if self.stores.get(name) != 1 or name in self.values:
            return None                       # rebound, or used as a value: stays a lambda
        body = [_at(gast.Return(value=fn.body), fn.body)]
        fdef = gast.FunctionDef(name=name, args=fn.args, body=body, decorator_list=[],
                                returns=None, type_comment=None)
        fdef.source_lambda = fn             # its code is the lambda's (closure records)
        return _at(fdef, s)

    def consumed_maps(self, s):
        """Rewrite map/filter calls that are call arguments or loop iterables; spread
        `f(*(a, b))` and write `zip(*rows)` as `transposed(rows)`."""
        name = local_vectorized(self.src, s, self.stores, self.values)
        if name is not None:
            self.vectorized.add(name)
        for node in walk(s):
            if isinstance(node, gast.Call):
                vectorized_call(self.src, node, self.vectorized)
                node.args = [self.as_list(a) for a in _spread_displays(node.args)]
                rewrite_consumed(self.src, node)
                self.unzip(node)
                self.reduce_in_python(node)
                _shape_unstarred(node)
                for kw in node.keywords:
                    kw.value = self.as_list(kw.value)
            elif isinstance(node, (gast.For, gast.comprehension)):
                node.iter = self.as_list(node.iter)

    def unzip(self, call):
        """`zip(*rows)` -> `transposed(rows)`: one call with a rule."""
        if not (len(call.args) == 1 and isinstance(call.args[0], gast.Starred) and
                not call.keywords and self.src.resolve(call.func) is zip):
            return
        from runtime.rules.operators_helpers import transposed
        func = _load("transposed")
        func.runtime_helper = transposed
        call.func, call.args = gast.copy_location(func, call.func), [call.args[0].value]

    def reduce_in_python(self, call):
        """`functools.reduce(f, xs[, init])` -> the same loop written in Python
        (runtime/reduce_source.py), compiled like a user's helper."""
        if call.keywords or len(call.args) not in (2, 3) or \
                any(isinstance(a, gast.Starred) for a in call.args) or \
                self.src.resolve(call.func) is not functools.reduce:
            return
        from runtime import reduce_source
        helper = reduce_source.reduce_with_initial if len(call.args) == 3 else \
            reduce_source.reduce_from_first
        func = _load(helper.__name__)
        func.runtime_helper = helper
        call.func = gast.copy_location(func, call.func)

    def as_list(self, e):
        fn = self.src.resolve(e.func) if isinstance(e, gast.Call) else None
        if fn not in (map, filter) or e.keywords or len(e.args) < 2 or \
                fn is filter and len(e.args) != 2:
            return e
        f, seqs = e.args[0], e.args[1:]
        items = [self.names.new("item") for _ in seqs]
        target = _store(items[0]) if len(items) == 1 else \
            gast.Tuple(elts=[_store(v) for v in items], ctx=gast.Store())
        it = seqs[0] if len(seqs) == 1 else gast.Call(func=_load("zip"), args=seqs,
                                                        keywords=[])
        applied = self.apply(f, items)
        if fn is map:
            elt, ifs = applied, []
        else:
            elt, ifs = _load(items[0]), [_load(items[0]) if applied is None else applied]
        gen = gast.comprehension(target=target, iter=it, ifs=ifs, is_async=0)
        return _at(gast.ListComp(elt=elt, generators=[gen]), e)

    def apply(self, f, items):
        """`f(items...)` as an expression: a lambda's body with its parameters renamed."""
        if isinstance(f, gast.Constant) and f.value is None:
            return None
        if isinstance(f, gast.Lambda) and _plain_parameters(f, len(items)):
            renames = {a.id: v for a, v in zip(f.args.args, items)}
            return _renamed(f.body, renames)
        return gast.Call(func=f, args=[_load(v) for v in items], keywords=[])


def _shape_unstarred(call):
    """`x.reshape(*shape)` -> `x.reshape(shape)` (the methods take a tuple too)."""
    if isinstance(call.func, gast.Attribute) and call.func.attr in ("reshape", "transpose") \
            and len(call.args) == 1 and isinstance(call.args[0], gast.Starred):
        call.args = [call.args[0].value]


def _plain_parameters(fn, count):
    args = fn.args
    return len(args.args) == count and not (args.vararg or args.kwarg or args.kwonlyargs
                                            or args.defaults or args.posonlyargs)


def _renamed(expr, renames):
    expr = copy.deepcopy(expr)
    for n in walk(expr):
        if isinstance(n, gast.Name) and n.id in renames:
            n.id = renames[n.id]
    return expr
