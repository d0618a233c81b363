"""Stage 3, normalize: loops: for-loop iterables and comprehensions.

    for x in xs: ...          seq1 = iterable(xs)
                       ->     for x in seq1: ...
    [f(v) for v in xs]        items1 = []; for v in seq1: items1.append(f(v))

The iterable is kept in a fresh name so the backward sweep can walk it again.
"""
import gast

from ..ir.nodes import assign, const, load, renamed as _rename, walk
from ..ir.primitives import Prim
from .opaque_calls import hoisted


class LoopNormalizer:
    """A Normalizer's part: `for` statements, iterables and comprehensions."""

    def __init__(self, normalizer):
        self.norm = normalizer          # the Normalizer: its output, line, nested defs
        self.src, self.names = normalizer.src, normalizer.names

    def flatten_enumerate_zip(self, target, it):
        """`for i, (a, b) in enumerate(zip(A, B))` -> `for i, a, b in zip(range(..), A, B)`;
        `for v in d.values()` -> `for key, v in d.items()`."""
        if isinstance(it, gast.Call) and isinstance(it.func, gast.Attribute) and \
                it.func.attr == "values" and not it.args and self.src.resolve(it.func) is None:
            key = gast.Name(id=self.names.new("key"), ctx=gast.Store(), annotation=None,
                            type_comment=None)
            items = gast.Call(func=gast.Attribute(value=it.func.value, attr="items",
                                                  ctx=gast.Load()), args=[], keywords=[])
            return gast.Tuple(elts=[key, target], ctx=gast.Store()), items
        if not (isinstance(it, gast.Call) and self.src.resolve(it.func) is enumerate
                and it.args and isinstance(it.args[0], gast.Call)
                and self.src.resolve(it.args[0].func) is zip
                and isinstance(target, gast.Tuple) and len(target.elts) == 2
                and isinstance(target.elts[1], gast.Tuple)):
            return target, it
        start = it.args[1] if len(it.args) > 1 else const(0)
        counter = self.names.call("range", start, const(1 << 62))
        zipped = gast.Call(func=it.args[0].func, args=[counter] + it.args[0].args, keywords=[])
        flat = gast.Tuple(elts=[target.elts[0]] + target.elts[1].elts, ctx=gast.Store())
        return flat, zipped

    def unpacked_target(self, target, it):
        """`for pair in zip(a, b)` walks `for (pair_0, pair_1) in zip(a, b)` (the loops
        over zip and enumerate take one name per sequence): (new target, the tuple
        display `pair` stands for), or (target, None)."""
        fn = self.src.resolve(it.func) if isinstance(it, gast.Call) else None
        if not isinstance(target, gast.Name) or fn not in (zip, enumerate) or \
                any(isinstance(a, gast.Starred) for a in it.args) or it.keywords and fn is zip:
            return target, None
        count = 2 if fn is enumerate else len(it.args)
        names = [self.names.new(f"{target.id}_{k}") for k in range(count)]
        stores = [gast.Name(id=n, ctx=gast.Store(), annotation=None, type_comment=None)
                  for n in names]
        return gast.Tuple(elts=stores, ctx=gast.Store()), \
            gast.Tuple(elts=[load(n) for n in names], ctx=gast.Load())

    def stmt_For(self, s):
        original = s.target
        s.target, packed = self.unpacked_target(s.target, s.iter)
        if packed is not None:
            first = gast.Assign(targets=[original], value=packed, type_comment=None)
            s.body = [gast.copy_location(first, s)] + s.body
        s.target, s.iter = self.flatten_enumerate_zip(s.target, s.iter)
        s.target, s.body = self.free_loop_target(s.target, s.body)
        kind, seqs, forward_iter = self.loop_iterable(s.iter)
        node = gast.For(target=s.target, iter=forward_iter, body=[], orelse=[],
                        type_comment=None)
        node.iter_kind, node.seqs = kind, seqs
        self.norm.loop_depth += 1
        try:
            node.body = self.norm.block(s.body) or [gast.Pass()]
        finally:
            self.norm.loop_depth -= 1
        self.norm.emit(node)

    def free_loop_target(self, target, body):
        """A loop variable the body rebinds gets a fresh name; the body starts with
        `v = v_item`, so the backward sweep's header never clobbers the body's v."""
        stored = {n.id for st in body for n in walk(st)
                  if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store)}
        clash = [n.id for n in walk(target) if isinstance(n, gast.Name) and n.id in stored]
        if not clash:
            return target, body
        renames = {name: load(self.names.new(name + "_item")) for name in clash}
        firsts = [gast.Assign(targets=[gast.Name(id=name, ctx=gast.Store(), annotation=None,
                                                 type_comment=None)],
                              value=load(renames[name].id), type_comment=None)
                  for name in clash]
        for node in firsts:
            gast.copy_location(node, body[0])
        return _rename(target, renames), firsts + body

    def comprehension_scope(self, e):
        """A comprehension's variables are its own (Python 3): rename any the function
        also uses elsewhere, so the desugared loops cannot clobber them. The first
        iterable is evaluated outside the comprehension, so it keeps the outer names."""
        inside = [n.id for n in walk(e) if isinstance(n, gast.Name)]
        everywhere = [n.id for n in walk(self.src.node) if isinstance(n, gast.Name)]
        own = {n.id for gen in e.generators for n in walk(gen.target)
               if isinstance(n, gast.Name)}
        renames = {name: load(self.names.new(name + "_")) for name in sorted(own)
                   if everywhere.count(name) > inside.count(name)}
        if not renames:
            return
        for k, gen in enumerate(e.generators):
            gen.target = _rename(gen.target, renames)
            gen.ifs = [_rename(c, renames) for c in gen.ifs]
            if k:
                gen.iter = _rename(gen.iter, renames)
        for part in ("elt", "key", "value"):
            if hasattr(e, part):
                setattr(e, part, _rename(getattr(e, part), renames))

    def loop_iterable(self, it):
        """(kind, names of the sequences walked, forward iter expression)."""
        fn = self.src.resolve(it.func) if isinstance(it, gast.Call) else None
        if fn is reversed and len(it.args) == 1 and not it.keywords:
            return self.reversed_iterable(it.args[0])
        if fn is range:
            name = self.names.new("steps")
            args = [self.norm.atom(a) for a in it.args]
            call = self.names.call("range", *args)
            self.norm.emit(assign(name, call), Prim("nondiff", "range"))
            return "range", [name], load(name)
        if fn is enumerate or fn is zip:
            return self.enumerate_zip_iterable(fn, it)
        if isinstance(it, gast.Call) and isinstance(it.func, gast.Attribute) and \
                it.func.attr == "items" and not it.args and self.src.resolve(it.func) is None:
            name, source = self.names.new("seq"), self.norm.atom(it.func.value)
            self.norm.emit(assign(name, source), Prim("copy", "copy", args=[source]))
            call = gast.Call(func=gast.Attribute(value=load(name), attr="items",
                                                 ctx=gast.Load()), args=[], keywords=[])
            return "items", [name], call
        name = self.snapshot(it)
        return "seq", [name], load(name)

    def enumerate_zip_iterable(self, fn, it):
        """`enumerate(xs, k)` walks a snapshot of xs from a snapshot of k (a later
        `k = ...` in the body must not move the backward sweep's indices);
        `zip(xs, ys, strict=True)` keeps its keyword."""
        seqs = [self.snapshot(a) for a in it.args[:1 if fn is enumerate else None]]
        keywords = []
        if fn is enumerate:
            starts = it.args[1:] + [kw.value for kw in it.keywords if kw.arg == "start"]
            seqs += [self.start_snapshot(a) for a in starts]
            keywords = [kw for kw in it.keywords if kw.arg != "start"]
        else:
            keywords = [gast.keyword(arg=kw.arg, value=self.norm.atom(kw.value))
                        for kw in it.keywords]
        call = self.names.call(fn.__name__, *[load(n) for n in seqs])
        call.keywords = keywords
        return fn.__name__, seqs, call

    def start_snapshot(self, expr):
        """`k` of `enumerate(xs, k)` in a fresh name: an integer, not differentiated."""
        name = self.names.new("start")
        self.norm.emit(assign(name, self.norm.atom(expr)), Prim("nondiff", "enumerate"))
        return name

    def reversed_iterable(self, seq):
        """`for i in reversed(range(n))` walks `range(n)[::-1]`, still a range."""
        fn = self.src.resolve(seq.func) if isinstance(seq, gast.Call) else None
        if fn is not range:
            name = self.snapshot(_reversed(seq))
            return "seq", [name], load(name)
        name = self.names.new("steps")
        call = self.names.call("range", *[self.norm.atom(a) for a in seq.args])
        backwards = gast.Subscript(value=call, slice=_backwards(), ctx=gast.Load())
        self.norm.emit(assign(name, backwards), Prim("nondiff", "range"))
        return "range", [name], load(name)

    def snapshot(self, expr):
        """Keep an iterable in a fresh name the backward sweep can walk again."""
        name = self.names.new("seq")
        if isinstance(expr, gast.Call) and self.src.resolve(expr.func) is reversed and \
                len(expr.args) == 1 and not expr.keywords:
            expr = _reversed(expr.args[0])         # zip(reversed(xs), ys), enumerate(...)
        value = self.names.call("iterable", self.norm.atom(expr))
        self.norm.emit(assign(name, value), Prim("copy", "iterable", args=[value.args[0]]))
        return name

    def comprehension(self, e, target, reduce_sum):
        """[elt for v in it if c]  ->  acc = []; for v in it: (if c:) acc.append(elt);
        several `for` clauses nest, `{k: v for ...}` stores acc[k] = v."""
        for k, gen in enumerate(e.generators):
            name = getattr(gen.target, "id", None)
            gen.target, packed = self.unpacked_target(gen.target, gen.iter)
            if packed is not None:             # `pair` read inside: the tuple of names
                _substitute(e, e.generators[k + 1:], gen.ifs, name, packed)
            gen.target, gen.iter = self.flatten_enumerate_zip(gen.target, gen.iter)
        self.comprehension_scope(e)
        reads_target = target is not None and any(
            isinstance(n, gast.Name) and n.id == target for n in walk(e))
        acc = self.names.new("sum" if reduce_sum else "items") if reads_target or not target \
            else target
        if reduce_sum:
            self.norm.emit(assign(acc, const(0)), Prim("nondiff", "start"))
        elif isinstance(e, gast.DictComp):
            self.norm.expr_Dict(gast.Dict(keys=[], values=[]), acc, False)
        else:
            self.norm.emit(assign(acc, gast.List(elts=[], ctx=gast.Load())),
                      Prim("pack", "list", args=[]))

        def body():
            if isinstance(e, gast.DictComp):
                key = gast.Subscript(value=load(acc), slice=e.key, ctx=gast.Store())
                return self.norm.assign_to(key, e.value)
            value = self.norm.atom(e.elt)
            if reduce_sum:
                self.norm.expr(gast.BinOp(left=load(acc), op=gast.Add(), right=value), acc)
            else:
                self.append_to(acc, value)
        self.generator_loops(e.generators, body)
        if reads_target:                          # `x = sum(x for v in a)`: x read inside
            return self.norm.expr(load(acc), target)
        return acc

    def generator_loops(self, generators, body):
        """One loop per `for` clause, outermost first; a clause's `if`s guard the rest."""
        gen = generators[0]
        kind, seqs, forward_iter = self.loop_iterable(gen.iter)
        rest = (lambda: self.generator_loops(generators[1:], body)) if generators[1:] \
            else body
        inner = self.norm.block_of(rest)
        for cond in reversed(gen.ifs):
            name, kept = self.names.new("cond"), []
            first = self.norm.block_of(lambda c=cond: kept.append(hoisted(self.norm, c)))
            test = [assign(name, kept[0])]
            test[0].prim, test[0].origin_line = Prim("nondiff", "test"), self.norm.line
            inner = first + test + [gast.If(test=load(name), body=inner, orelse=[])]
            inner[-1].prim, inner[-1].origin_line = None, self.norm.line
        node = gast.For(target=gen.target, iter=forward_iter, body=inner or [gast.Pass()],
                        orelse=[], type_comment=None)
        node.iter_kind, node.seqs = kind, seqs
        self.norm.emit(node)

    def append_to(self, acc, value):
        call = gast.Call(func=gast.Attribute(value=load(acc), attr="append", ctx=gast.Load()),
                         args=[value], keywords=[])
        self.norm.emit(gast.Expr(value=call), Prim("append", "append", args=[load(acc), value]))


def _backwards():
    return gast.Slice(lower=None, upper=None, step=const(-1))


def _reversed(seq):
    """`reversed(xs)` walked as `xs[::-1]`: the same items, and a sequence the backward
    sweep can walk again. Python's reversed reads xs lazily, the slice at once; they
    differ only if the loop writes into xs, which the alias check refuses."""
    return gast.Subscript(value=seq, slice=_backwards(), ctx=gast.Load())


def _substitute(comp, later, ifs, name, packed):
    """Loads of `name` in a comprehension's element, `ifs` and later clauses -> packed."""
    import copy

    def swap(node):
        for n in walk(node):
            for field, value in gast.iter_fields(n):
                if isinstance(value, gast.Name) and value.id == name and \
                        isinstance(value.ctx, gast.Load):
                    setattr(n, field, copy.deepcopy(packed))
                elif isinstance(value, list):
                    setattr(n, field, [copy.deepcopy(packed) if isinstance(v, gast.Name) and
                                       v.id == name and isinstance(v.ctx, gast.Load) else v
                                       for v in value])
        return node
    holder = gast.Expr(value=None)
    for part in ("elt", "key", "value"):
        if hasattr(comp, part):
            holder.value = getattr(comp, part)
            setattr(comp, part, swap(holder).value)
    ifs[:] = [swap(gast.Expr(value=c)).value for c in ifs]
    for gen in later:
        gen.iter = swap(gast.Expr(value=gen.iter)).value
        gen.ifs[:] = [swap(gast.Expr(value=c)).value for c in gen.ifs]
