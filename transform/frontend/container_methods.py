"""Stage 1b, desugar (data): list and dict methods that change their receiver become
a new list or dict bound to the same name, or item writes, which the later stages
differentiate:

    last = xs.pop()          ->  last = xs[-1]; xs = xs[:-1]
    v = xs.pop(i)            ->  k = range(len(xs))[i]; v = xs[k]; xs = xs[:k] + xs[k + 1:]
    xs.insert(i, v)          ->  xs = xs[:i] + [v] + xs[i:]   (slicing clamps as insert does)
    xs.remove(v)             ->  k = list.index(xs, v); xs = xs[:k] + xs[k + 1:]
    xs.reverse()             ->  xs = xs[::-1]
    xs.sort(key=f)           ->  xs = sorted(xs, key=f)   (both stable: the same order)
    xs.clear()               ->  xs = []
    v = d.pop(k)             ->  v = d[k]; d = {key: d[key] for key in d if key != k}
    k, v = d.popitem()       ->  t = list(d)[-1]; k, v = (t, d[t]); d = {... if key != t}
    v = d.setdefault(k, w)   ->  t = w; if k not in d: d[k] = t; v = d[k]
    d.update(a=u, b=w)       ->  t1 = u; t2 = w; d["a"] = t1; d["b"] = t2

Rebinding the name means what changing the object means only when no other name,
container or pending loop can see the object, so the rebinding forms (pop, insert,
reverse, clear) apply only to a list or dict the function builds itself and reads only
by index, `len`, its own methods, NumPy and consuming builtins, loops that do not change
it, or `return` (local_uses.py); otherwise the call stays and the alias check refuses it
as before. setdefault and update become item writes, which the alias check judges like
any other write (a dict another live name shares is refused).
"""

import gast

from ..ir.nodes import assign, builtin_ref, const, load, located, store
from .hoist_mutators import hoisted
from .local_uses import LocalUses

REBINDING = {"pop", "insert", "reverse", "clear", "remove", "popitem", "sort"}
ITEM_WRITING = {"setdefault", "update"}
_RETURNING = {"pop", "setdefault", "popitem"}            # hoisted out of larger expressions first
# the receiver's own methods that neither keep nor expose it (no `keys()` view kept)
_OWN_METHODS = REBINDING | ITEM_WRITING | {"append", "extend", "index", "count", "copy", "get"}


def rewrite_container_methods(src, new_name, uses=None):
    """Rewrite each statement-level mutator call in `src.node`; True if any."""
    uses = uses or LocalUses(src)
    rewriter = _Rewriter(src, new_name, uses)
    src.node.body = rewriter.block(src.node.body)
    return rewriter.changed


class _Rewriter:
    def __init__(self, src, new_name, uses):
        self.src, self.new, self.uses = src, new_name, uses
        self.private = {}                     # name -> whether it may be rebound
        self.changed = False

    def block(self, stmts):
        out = []
        for s in stmts:
            for field in ("body", "orelse", "finalbody"):
                if isinstance(getattr(s, field, None), list):
                    setattr(s, field, self.block(getattr(s, field)))
            for handler in getattr(s, "handlers", ()):
                handler.body = self.block(handler.body)
            out.extend(self.statement(s))
        return out

    def statement(self, s):
        before = hoisted(s, _RETURNING, self.new)
        return [out for t in before + [s] for out in self.one(t)]

    def one(self, s):
        found = _mutator_call(s) or _shuffle_call(s)
        if found is None:
            return [s]
        target, call, name, method = found
        kind = self.dict_kind(name) if method in ITEM_WRITING else self.kind_of(name)
        rewrite = getattr(self, f"{method}_{kind}", None) if kind else None
        out = rewrite(name, call, target) if rewrite is not None else None
        if out is None:
            return [s]
        self.changed = True
        out = [located(n, s) for n in out]
        if hasattr(s, "user_text"):         # a hoisted call: errors name the call
            for n in out:
                n.user_text = s.user_text
        return out

    def kind_of(self, name):
        """"list" or "dict" when `name` may be rebound for a change in place, else None."""
        if name not in self.private:
            self.private[name] = _private(name, self.uses)
        return self.private[name]

    def dict_kind(self, name):
        """"dict" when every binding of `name` makes a new dict (a user object with an
        `update` method of its own is left alone), else None."""
        uses = self.uses
        kinds = {uses.made_kind(uses.plain_assignment(b)) for b in uses.bindings(name)}
        return "dict" if uses.candidate(name) and kinds == {"dict"} else None

    def once(self, value, out):
        """`value` as an atom evaluated once here: a constant or name, else a temporary."""
        if isinstance(value, (gast.Constant, gast.Name)):
            return value
        temp = self.new("item")
        out.append(assign(temp, value))
        return load(temp)

    # ---- lists -----------------------------------------------------------------------
    def pop_list(self, name, call, target):
        if len(call.args) > 1:
            return None                       # the primal's TypeError
        if call.args:
            return self.pop_at(name, call.args[0], target)
        out = [] if target is None else [_bind(target, _index(name, const(-1)))]
        return out + [assign(name, _fresh(_slice(name, upper=const(-1))))]

    def pop_at(self, name, index, target):
        out, k = [], self.new("at")
        size = gast.Call(func=builtin_ref("len"), args=[load(name)], keywords=[])
        positions = gast.Call(func=builtin_ref("range"), args=[size], keywords=[])
        out.append(assign(k, _index(positions, index)))   # a negative index counted back
        if target is not None:
            out.append(_bind(target, _index(name, load(k))))
        after = gast.BinOp(left=load(k), op=gast.Add(), right=const(1))
        out.append(assign(name, gast.BinOp(left=_fresh(_slice(name, upper=load(k))),
                                           op=gast.Add(),
                                           right=_fresh(_slice(name, lower=after)))))
        return out

    def insert_list(self, name, call, target):
        if target is not None or len(call.args) != 2:
            return None
        out = []
        where = self.once(call.args[0], out)
        item = self.once(call.args[1], out)
        joined = gast.BinOp(left=gast.BinOp(left=_fresh(_slice(name, upper=where)),
                                            op=gast.Add(),
                                            right=gast.List(elts=[item], ctx=gast.Load())),
                            op=gast.Add(), right=_fresh(_slice(name, lower=where)))
        return out + [assign(name, joined)]

    def remove_list(self, name, call, target):
        if target is not None or len(call.args) != 1:
            return None
        out, k = [], self.new("at")
        index = load("list_index")       # list.index itself: its rule is known
        index.runtime_helper = list.index
        find = gast.Call(func=index, args=[load(name), self.once(call.args[0], out)],
                         keywords=[])
        out.append(assign(k, find))        # the primal's ValueError when v is not there
        after = gast.BinOp(left=load(k), op=gast.Add(), right=const(1))
        out.append(assign(name, gast.BinOp(left=_fresh(_slice(name, upper=load(k))),
                                           op=gast.Add(),
                                           right=_fresh(_slice(name, lower=after)))))
        return out

    def reverse_list(self, name, call, target):
        if target is not None or call.args:
            return None
        step = gast.UnaryOp(op=gast.USub(), operand=const(1))
        return [assign(name, _fresh(_slice(name, step=step)))]

    def sort_list(self, name, call, target):
        if target is not None or call.args or \
                any(k.arg not in ("key", "reverse") for k in call.keywords):
            return None                       # the primal's TypeError
        return [assign(name, gast.Call(func=builtin_ref("sorted"), args=[load(name)],
                                       keywords=call.keywords))]

    def shuffle_list(self, name, call, target):
        """`rng.shuffle(xs)` -> `order = shuffle_order(rng, xs); xs = in_order(xs, order)`
        (the same draws, runtime/rules/sequences_helpers.py)."""
        from runtime.rules.sequences_helpers import in_order, shuffle_order
        order = self.new("order")
        return [assign(order, _helper(shuffle_order, call.func.value, load(name))),
                assign(name, _helper(in_order, load(name), load(order)))]

    def clear_list(self, name, call, target):
        if target is not None or call.args:
            return None
        return [assign(name, gast.List(elts=[], ctx=gast.Load()))]

    # ---- dicts -----------------------------------------------------------------------
    def clear_dict(self, name, call, target):
        if target is not None or call.args:
            return None
        return [assign(name, gast.Dict(keys=[], values=[]))]

    def pop_dict(self, name, call, target):
        if len(call.args) not in (1, 2):
            return None
        out = []
        key = self.once(call.args[0], out)
        default = call.args[1:]
        if target is not None:
            read = gast.Call(func=gast.Attribute(value=load(name), attr="get",
                                                 ctx=gast.Load()),
                             args=[key] + default, keywords=[]) if default \
                else _item(name, key)
            out.append(_bind(target, read))
        elif not default:
            out.append(gast.Expr(value=_index(name, key)))   # the primal's KeyError
        out.append(assign(name, self.without(name, key)))
        return out

    def popitem_dict(self, name, call, target):
        if call.args:
            return None
        key = self.new("key")
        keys = gast.Call(func=builtin_ref("list"), args=[load(name)], keywords=[])
        out = [assign(key, _index(keys, gast.UnaryOp(op=gast.USub(), operand=const(1))))]
        if target is not None:
            pair = gast.Tuple(elts=[load(key), _item(name, load(key))], ctx=gast.Load())
            out.append(_bind(target, pair))
        return out + [assign(name, self.without(name, load(key)))]

    def without(self, name, key):
        """{other: d[other] for other in d if other != key}"""
        other = self.new("key")
        test = gast.Compare(left=load(other), ops=[gast.NotEq()], comparators=[key])
        gen = gast.comprehension(target=store(other), iter=load(name), ifs=[test],
                                 is_async=0)
        return gast.DictComp(key=load(other), value=_index(name, load(other)),
                             generators=[gen])

    def setdefault_dict(self, name, call, target):
        if len(call.args) not in (1, 2):
            return None
        out = []
        key = self.once(call.args[0], out)
        value = self.once(call.args[1], out) if len(call.args) > 1 else const(None)
        missing = gast.Compare(left=key, ops=[gast.NotIn()], comparators=[load(name)])
        out.append(gast.If(test=missing, body=[_write(name, key, value)], orelse=[]))
        if target is not None:
            out.append(_bind(target, _item(name, key)))
        return out

    def update_dict(self, name, call, target):
        if target is not None:
            return None
        pairs = _update_pairs(call)
        if pairs is None:
            return None
        out = []
        atoms = [(self.once(k, out), self.once(v, out)) for k, v in pairs]
        return out + [_write(name, k, v) for k, v in atoms]


def _mutator_call(s):
    """(target Name or None, call, receiver name, method) for `xs.m(...)` as a statement
    or as the whole value of `v = xs.m(...)`, m a method this module rewrites."""
    if isinstance(s, gast.Expr):
        target, call = None, s.value
    elif isinstance(s, gast.Assign) and len(s.targets) == 1 and \
            isinstance(s.targets[0], gast.Name):
        target, call = s.targets[0], s.value
    elif isinstance(s, gast.Assign) and len(s.targets) == 1 and _popitem(s.value) and \
            isinstance(s.targets[0], gast.Tuple) and \
            all(isinstance(t, gast.Name) for t in s.targets[0].elts):
        target, call = s.targets[0], s.value          # `k, v = d.popitem()`
    else:
        return None
    if not (isinstance(call, gast.Call) and isinstance(call.func, gast.Attribute) and
            isinstance(call.func.value, gast.Name)):
        return None
    name, method = call.func.value.id, call.func.attr
    bound = [] if target is None else [n.id for n in gast.walk(target)
                                       if isinstance(n, gast.Name)]
    if method not in REBINDING | ITEM_WRITING or name in bound:
        return None
    if any(isinstance(a, gast.Starred) for a in call.args):
        return None
    if call.keywords and method not in ("update", "sort"):
        return None
    return target, call, name, method


def _shuffle_call(s):
    """(None, call, name, "shuffle") for the statement `rng.shuffle(xs)`, xs a name."""
    call = s.value if isinstance(s, gast.Expr) else None
    if isinstance(call, gast.Call) and isinstance(call.func, gast.Attribute) and \
            call.func.attr == "shuffle" and len(call.args) == 1 and not call.keywords and \
            isinstance(call.args[0], gast.Name):
        return None, call, call.args[0].id, "shuffle"
    return None


def _helper(fn, *args):
    func = load(fn.__name__)
    func.runtime_helper = fn
    return gast.Call(func=func, args=list(args), keywords=[])


def _popitem(value):
    return isinstance(value, gast.Call) and isinstance(value.func, gast.Attribute) and \
        value.func.attr == "popitem"


def _private(name, uses):
    """"list" or "dict" if `name` is one the function builds and nobody else can see."""
    return uses.private_container(name, _OWN_METHODS, REBINDING)


def _bind(target, value):
    return gast.Assign(targets=[target], value=value, type_comment=None)


def _index(name, key):
    base = load(name) if isinstance(name, str) else name
    return gast.Subscript(value=base, slice=key, ctx=gast.Load())


def _item(name, key):
    """d[k] of a dict: the entry, never a view of `d` (the alias check would take a
    subscript of an unknown base for one)."""
    read = _index(name, key)
    read.dict_item = True
    return read


def _slice(name, lower=None, upper=None, step=None):
    return _index(name, gast.Slice(lower=lower, upper=upper, step=step))


def _fresh(subscript):
    """A slice of a list is a new list (the alias check would take it for a view)."""
    subscript.fresh_list = True
    return subscript


def _write(name, key, value):
    target = gast.Subscript(value=load(name), slice=key, ctx=gast.Store())
    return gast.Assign(targets=[target], value=value, type_comment=None)


def _update_pairs(call):
    """[(key, value)] of `d.update({...})` or `d.update(k=v)`, in the order Python
    writes them; None for another form (a dict held by a name, pairs)."""
    pairs = [(const(kw.arg), kw.value) for kw in call.keywords if kw.arg is not None]
    if len(pairs) != len(call.keywords):
        return None
    if not call.args:
        return pairs
    if len(call.args) == 1 and isinstance(call.args[0], gast.Dict) and \
            all(k is not None for k in call.args[0].keys):
        return list(zip(call.args[0].keys, call.args[0].values)) + pairs
    return None
