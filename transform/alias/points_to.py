"""Alias analysis: which names may share memory at each point of the user's function.

A points-to analysis over abstract objects: an argument (`arg:x`), a module global
(`global:W`), an enclosing function's name (`outer:a`), or the value an expression
makes (`site3`, the latest one made there; `site3*`, older ones from earlier loop
trips). A name maps to the objects it may refer to; a container object maps to the
objects it may hold. Views share their base's objects:

    a = np.zeros(3)      # a -> {site1}
    s = a[:1]            # s -> {site1}          (a view)
    hist = [a]           # hist -> {site2}, site2 holds {site1}
    b = a.copy()         # b -> {site3}          (fresh: no sharing)

When unsure whether a call returns a view, it is assumed it may.
"""
import copy

import gast
import numpy as np

from .jvp_calls import jvp_call_value
from .flat_helpers import flat_helper_result
from .value import Value
from .duplicates import comprehended_twice, concatenated_twice, stored_twice
from .tables import (ARRAY_MAKERS, CONTAINER_MAKERS, CONTAINER_MUTATORS, GETTERS,
                     INPLACE_FUNCTIONS, INPLACE_METHODS, PICKERS, SHAPE_SNAPSHOTS, ENTRY_COPIES,
                     SCALAR_ATTRS, SPLIT_FUNCTIONS, VIEW_ATTRS, VIEW_FUNCTIONS,
                     VIEW_METHODS, _array_method, _copy_false, _is_in, _is_numpy,
                     _is_ufunc_at, _label, _plain_object, _root, astype_may_share)
from ..frontend.generators import objects_own_method
from ..ir.nodes import walk


class ExprAliases:
    """The objects an expression may refer to: a part of an AliasCheck (`check`), whose
    current State it reads and updates and whose write checks it calls. It owns the
    sites: the abstract object each expression makes."""

    def __init__(self, check):
        self.check = check              # the AliasCheck: state, write, assign, refusals
        self.src, self.helpers = check.src, check.helpers
        self.sites, self.made = {}, set()

    @property
    def state(self):
        return self.check.state         # replaced as the check walks branches and loops

    def site(self, node, part=None):
        """The abstract object made at node (part: a second one made there)."""
        key = id(node) if part is None else (id(node), part)
        obj = self.sites.get(key)
        if obj is None:
            obj = self.sites[key] = f"site{len(self.sites) + 1}"
        return obj

    def value(self, e):
        method = getattr(self, "value_" + type(e).__name__, None)
        if method is not None:
            return method(e)
        for child in gast.iter_child_nodes(e):
            if isinstance(child, gast.expr):
                self.value(child)
        return Value()

    def fresh(self, e, holds=(), array=False, in_place=False, part=None):
        """A new object made at e; in_place: `+=` on it changes it (a list, dict or
        copy), though it may not be an ndarray; part: a second object made at e."""
        obj = self.site(e, part)
        if obj in self.made:                   # made before: older ones become obj*
            self.state.age(obj)
        self.made.add(obj)
        if holds:
            self.state.put([obj], holds)
        return Value({obj}, array, in_place)

    def value_Name(self, e):
        if e.id in self.state.names:
            return Value(self.state.names[e.id], e.id in self.state.arrays,
                         e.id in self.state.in_place, seq=e.id in self.state.lists)
        if e.id in self.src.locals:
            return self.check.outer_name(e.id)
        found = self.src.resolve(e)
        if isinstance(found, (np.ndarray, list, dict)) or _plain_object(found):
            return Value({"global:" + e.id}, isinstance(found, np.ndarray))
        return Value()

    def value_Constant(self, e):
        return Value()

    def value_Subscript(self, e):
        base = self.value(e.value)
        self.value(e.slice)
        if getattr(e, "fresh_list", False):    # a slice of a list the desugar stage made
            return self.fresh(e, holds=self.state.contents(base.objs), in_place=True)
        if getattr(e, "dict_item", False):     # an entry of a dict the desugar stage read
            return Value(self.state.contents(base.objs))
        viewish = any(isinstance(n, gast.Slice) or (isinstance(n, gast.Constant) and n.value
                                                     in (Ellipsis, None))
                      for n in walk(e.slice))
        if base.seq and not viewish:           # `traj[-1]` of a list: an entry, no view
            return Value(self.state.contents(base.objs))
        return Value(base.objs | self.state.contents(base.objs), base.array and viewish)

    def value_Attribute(self, e):
        found = self.src.resolve(e)
        if found is not None:                  # a module attribute such as np.pi
            data = isinstance(found, (np.ndarray, list, dict)) or _plain_object(found)
            return Value({"global:" + _root(e)} if data else (), isinstance(found, np.ndarray))
        base = self.value(e.value)
        if e.attr in SCALAR_ATTRS:
            return Value()
        if e.attr in VIEW_ATTRS:
            return Value(base.objs, True)
        return Value(base.objs | self.state.contents(base.objs))

    def value_BinOp(self, e):
        left, right = self.value(e.left), self.value(e.right)
        if _numeric(e, left, right):                   # `0.9 * d["m"]`: a new number
            return self.fresh(e, array=left.array or right.array)
        held = self.state.contents(left.objs | right.objs)    # `xs + [h]` still holds h
        if isinstance(e.op, gast.Mult):                        # `[y] * 2` holds y twice
            self.state.multi |= held
        elif isinstance(e.op, gast.Add) and held:              # `xs + [y]` when xs holds y
            concatenated_twice(self, e)
        return self.fresh(e, holds=held, array=left.array or right.array)

    def value_UnaryOp(self, e):
        return self.fresh(e, array=self.value(e.operand).array)

    def value_Compare(self, e):
        for part in [e.left] + e.comparators:
            self.value(part)
        return self.fresh(e)

    def value_BoolOp(self, e):
        return _union([self.value(v) for v in e.values])

    def value_IfExp(self, e):
        self.value(e.test)
        return _union([self.value(e.body), self.value(e.orelse)])

    def value_Starred(self, e):
        return self.value(e.value)

    def value_List(self, e):
        entries = [self.spread(x.value) if isinstance(x, gast.Starred) else self.value(x)
                   for x in e.elts]
        stored_twice(self.state, entries)
        made = self.fresh(e, holds=_union(entries).objs, in_place=isinstance(e, gast.List))
        if not any(isinstance(x, gast.Starred) for x in e.elts):
            made.elements = entries
        made.seq = True
        return made

    value_Tuple = value_List

    def value_Dict(self, e):
        for k in e.keys:
            if k is not None:
                self.value(k)
        entries = [self.spread(v) if k is None else self.value(v)
                   for k, v in zip(e.keys, e.values)]
        stored_twice(self.state, entries)
        made = self.fresh(e, holds=_union(entries).objs, in_place=True)
        made.seq = True                        # `d["a"]` of a dict: an entry, no view
        return made

    def spread(self, e):
        """`*xs` in a list or tuple display, `**p` in a dict display: the new container
        holds xs's entries, not xs (as `xs.copy()`), so changing xs later leaves it be."""
        return Value(self.state.contents(self.value(e).objs))

    def value_ListComp(self, e):
        gen = e.generators[0]
        seq = self.value(gen.iter)
        saved = self.state.copy()
        self.check.assign(gen.target, Value(seq.objs | self.state.contents(seq.objs)), gen)
        for cond in gen.ifs:
            self.value(cond)
        parts = [e.key, e.value] if isinstance(e, gast.DictComp) else [e.elt]
        elt = _union([self.value(part) for part in parts])
        comprehended_twice(self, parts, elt)                  # `{k: y for k in ks}`
        self.state.names, self.state.arrays = saved.names, saved.arrays  # its own scope
        self.state.origin, self.state.lists = saved.origin, saved.lists
        made = self.fresh(e, holds=elt.objs,
                          in_place=isinstance(e, (gast.ListComp, gast.DictComp)))
        made.seq = isinstance(e, (gast.ListComp, gast.DictComp))
        return made

    value_GeneratorExp = value_DictComp = value_SetComp = value_ListComp

    def value_Call(self, e):
        args = [self.value(a) for a in e.args]
        kwargs = {kw.arg: self.value(kw.value) for kw in e.keywords}
        for kw in e.keywords:
            if kw.arg == "out" and not _is_none(kw.value):   # `out=None` writes nothing
                self.check.in_place(kw.value, e, "the `out=` argument writes into it",
                                    "`out=`", "out=")
            target = overwritten(e, kw)
            if target is not None:      # SciPy's overwrite_a=True, NumPy's overwrite_input
                self.check.in_place(target, e, f"`{kw.arg}=` lets the function write "
                                    "into it", f"`{kw.arg}=`", "overwrite")
        func = e.func
        fn = self.src.resolve(func)
        if fn is None and isinstance(func, gast.Attribute):
            return self.method_value(e, self.value(func.value), args, kwargs)
        if fn is None:
            self.check.calls.call_through_local(e)
            callee = self.value(func)
            return self.unknown_result(e, [callee] + args + list(kwargs.values()))
        return self.function_value(e, fn, args, kwargs)

    def method_value(self, e, receiver, args, kwargs):
        name, func = e.func.attr, e.func
        if _writes_out(e):
            return kwargs["out"]
        if name in INPLACE_METHODS and isinstance(func.value, gast.Name) and \
                objects_own_method(self.src, func.value.id, name):
            return self.unknown_result(e, [receiver] + args + list(kwargs.values()))
        if name in INPLACE_METHODS or (name == "shuffle" and e.args):
            target = e.args[0] if name == "shuffle" else func.value
            if name == "fill":                 # fill on a fresh array has a rule
                self.check.write(target, e, f"`.{name}()` changes it in place")
            else:
                self.check.in_place(target, e, f"`.{name}()` changes it in place",
                                    f"`.{name}()`", name)
            return Value()
        if name in CONTAINER_MUTATORS:
            self.check.calls.container_mutator(e, receiver)
            self.check.write(func.value, e, f"`.{name}()` changes it in place")
            added = _union(args + list(kwargs.values()))
            self.state.put(receiver.objs, added.objs | self.state.contents(added.objs))
            if isinstance(func.value, gast.Name) and added.objs:
                self.state.origin[func.value.id] = self.check.current
        if name in GETTERS:
            return Value(self.state.contents(receiver.objs))
        if name in VIEW_METHODS:
            return Value(receiver.objs, True)
        if name == "copy":                     # a display's list or dict: its kind
            made = self.fresh(e, self.state.contents(receiver.objs), receiver.array,
                              in_place=True)
            made.seq = receiver.seq
            return made
        if name in CONTAINER_MUTATORS:
            return Value()
        if name == "astype" and astype_may_share(e):     # x itself when the dtype is x's
            return Value(receiver.objs, True)
        if _array_method(name):
            return self.fresh(e, array=name in ("astype", "flatten", "conj", "round"))
        return self.unknown_result(e, [receiver] + args + list(kwargs.values()))

    def function_value(self, e, fn, args, kwargs):
        if _writes_out(e):
            return kwargs["out"]
        if isinstance(fn, np.ufunc) and len(e.args) > fn.nin:    # np.add(a, b, out)
            for target in e.args[fn.nin:]:
                self.check.in_place(target, e, f"`np.{fn.__name__}` writes into it",
                                    "an output argument", "out=")
        self.check.calls.inplace_call(e, fn)
        if _is_in(fn, INPLACE_FUNCTIONS) or _is_ufunc_at(fn):
            if e.args:
                self.check.in_place(e.args[0], e, f"`{_label(fn)}` writes into it",
                                    f"`{_label(fn)}`", getattr(fn, "__name__", ""))
            return Value()
        if fn in (copy.copy, copy.deepcopy) and len(args) == 1:   # a new object, like .copy()
            return self.fresh(e, self.state.contents(args[0].objs), args[0].array,
                              in_place=True)
        flat = self.flat_helper_value(e, fn, args, kwargs)     # before iterable's view
        if flat is not None:
            return flat
        if _is_in(fn, VIEW_FUNCTIONS) or (fn is np.array and _copy_false(e)):
            return Value(args[0].objs if args else frozenset(), True)
        if _is_in(fn, SPLIT_FUNCTIONS):
            return self.fresh(e, holds=_union(args).objs)
        if _is_in(fn, ARRAY_MAKERS):
            return self.fresh(e, array=True)
        if _is_in(fn, CONTAINER_MAKERS):
            stored_twice(self.state, args + list(kwargs.values()))
            given = _union(args + list(kwargs.values())).objs
            return self.fresh(e, holds=given | self.state.contents(given),
                              in_place=fn in (list, dict))
        if _is_in(fn, PICKERS):
            given = _union(args).objs
            return Value(given | self.state.contents(given))
        if isinstance(fn, np.ufunc) and fn.nout == 1:    # `np.tanh(a)` of an array is one,
            return self.fresh(e, array=any(a.array for a in args))   # like `a * 2`
        if _is_numpy(fn) or getattr(fn, "__module__", None) in ("math", "builtins") \
                or isinstance(fn, type):
            return self.fresh(e)
        paired = jvp_call_value(self, e, fn, args, kwargs)   # forward mode's helper calls
        if paired is not None:
            return paired
        nodes = e.args + [k.value for k in e.keywords]
        self.check.calls.helper_writes(e, fn, dict(zip(map(id, nodes),
                                                       args + list(kwargs.values()))))
        shared = self.helper_shares(fn, args, kwargs)
        if shared is not None:                 # a helper read from its source
            return self.unknown_result(e, shared)
        return self.unknown_result(e, args + list(kwargs.values()))

    def flat_helper_value(self, e, fn, args, kwargs):
        """The Value of a call of the flat gradient's own (hvp forward over reverse:
        shape_snapshot, `unviewed(d[k])`, its cotangent helpers: flat_helpers.py),
        else None."""
        if _is_in(fn, SHAPE_SNAPSHOTS) and len(args) == 1 and not kwargs:
            return self.snapshot(e, args[0])
        if _is_in(fn, ENTRY_COPIES) and len(e.args) == 1 and not kwargs and \
                isinstance(e.args[0], gast.Subscript) and isinstance(e.args[0].value, gast.Name):
            held = self.state.contents(self.value(e.args[0].value).objs)
            return Value(self.fresh(e).objs | held | self.state.contents(held))
        return flat_helper_result(self, e, fn, args, kwargs)

    def snapshot(self, e, given):
        """shape_snapshot(x): a new ShapeOnly, list or dict, or x itself (another
        object), which the code reads back for its shape alone (reverse mode's tape
        entry): no write changes a shape, and its tangent is never read, so nothing it
        holds is followed."""
        return self.fresh(e)

    def helper_shares(self, fn, args, kwargs):
        """The argument Values a helper's result may share memory with, or None."""
        params = self.helpers.returned_params(fn)
        bound = self.helpers.bind(fn, args, kwargs) if params is not None else None
        if bound is None:
            return None
        return [value for name, value in bound if name in params]

    def unknown_result(self, e, given):
        """A call the analysis cannot see into may return any of its arguments or parts."""
        objs = _union(given).objs
        made = self.fresh(e)
        self.state.multi |= objs | self.state.contents(objs)    # it may store them twice
        return Value(made.objs | objs | self.state.contents(objs))


def _numeric(e, left, right):
    """`a op b` that cannot build a container: an operand is an array or a float
    constant (`0.9 * d["m"]`), so the result holds none of the operands' items."""
    floats = [isinstance(o, gast.Constant) and isinstance(o.value, (float, complex))
              for o in (e.left, e.right)]
    return left.array or right.array or any(floats)


def _union(values):
    return Value(frozenset().union(*(v.objs for v in values)) if values else frozenset(),
                 bool(values) and all(v.array for v in values),
                 bool(values) and all(v.in_place for v in values))


def overwritten(call, kw):
    """The argument SciPy's `overwrite_a=`/`overwrite_b=` and NumPy's `overwrite_input=`
    (np.median, np.percentile, ...; not a literal False) let the function reuse as scratch
    space: `a` (NumPy's input) is the first positional argument or keyword `a`, `b` the
    second; the backward sweep reads them after the call."""
    if not (kw.arg or "").startswith("overwrite_") or \
            isinstance(kw.value, gast.Constant) and not kw.value.value:
        return None
    name = {"input": "a"}.get(kw.arg[len("overwrite_"):], kw.arg[len("overwrite_"):])
    for other in call.keywords:
        if other.arg == name:
            return other.value
    position = {"a": 0, "b": 1}.get(name, 0)
    args = call.args
    return args[position] if position < len(args) else (args[0] if args else kw.value)


def _writes_out(call):
    """The call passes `out=` an array (not the constant None)."""
    return any(kw.arg == "out" and not _is_none(kw.value) for kw in call.keywords)


def _is_none(node):
    """The constant None (generated forward code spells out a reduction's `out=None`)."""
    return isinstance(node, gast.Constant) and node.value is None
