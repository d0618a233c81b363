"""The tangent body: each lowered statement followed by its tangent statement, loops and
branches kept as they are (no tape: forward mode runs beside the primal).

    t1 = np.sin(x)          t1 = np.sin(x)
                            t1_dot = x_dot * np.cos(x)
    for v in seq1:    ->    for v, v_dot in zip(seq1, seq1_dot):
        ...                     ...

Names are the activity analysis's: a name both varied by the differentiated arguments
and useful to the output has a tangent `<name>_dot`; every binding of such a name
binds its tangent too (a zero where the value does not depend on the arguments).
"""
import builtins

import gast

from runtime.forward import dict_items_guard

from ..ir import statements as ir
from ..ir.nodes import assign, load, located, name_ids, store
from ..ir.templates import clone
from ..ir.vocabulary import role_of
from .refusals import refusal_when_run, refuse
from .statements import statement_tangent


class Forward:
    """What the tangent statements are built from: the compilation's names, activity and
    shapes, and the tangent name chosen for each active name."""

    def __init__(self, ctx):
        self.ctx, self.names = ctx, ctx.names
        self.active = ctx.activity.active
        self.tangents = {}
        self.where = ctx.src.node
        self.copy_tests = set()         # `cond = is_user_object(x, "copy")`
        self.dispatching = False        # in its branch: inactive methods dispatched too
        self.builtins = {}
        self.tangent_only = False       # return the tangent alone (forward_pipeline variants)
        self.complex = False            # complex values may appear (forward/complex_terms.py)

    def dot(self, name):
        """The tangent name of an active name (chosen on first use)."""
        if name not in self.tangents:
            self.tangents[name] = self.names.reserve(f"{name}_dot")
        return self.tangents[name]

    def helper(self, name):
        """A template's helper (np, unbroadcast) by the compiler's name for it; a builtin
        outside the vocabulary (`sum`) under a name the user's function does not bind."""
        if name in self.names.objects or not hasattr(builtins, name):
            return self.names.template_ref(name)
        if name not in self.builtins:
            self.builtins[name] = self.names.reserve(name)
            self.ctx.globals[self.builtins[name]] = getattr(builtins, name)
        return load(self.builtins[name])

    def is_active(self, atom):
        return isinstance(atom, gast.Name) and atom.id in self.active

    def tangent_or_zero(self, atom):
        """The atom's tangent name, or `zero_tangent(atom)` for an inactive one."""
        if self.is_active(atom):
            return load(self.dot(atom.id))
        return self.names.call("zero_tangent", _copy(atom))

    def same_shape(self, atom, target):
        return self.ctx.shapes is not None and self.ctx.shapes.same(atom, target)

    def block(self, stmts):
        """Typed statements (ir/statements.py), each followed by its tangent's."""
        out = []
        for s in stmts:
            self.where = s.node if hasattr(s.node, "lineno") else self.where
            out.extend(self.statement(s))
        return out

    def statement(self, s):
        match s:
            case ir.For():
                return [self.loop(s)]
            case ir.If() if _names(s.test) & self.copy_tests:
                self.dispatching = True         # `obj.copy()`: the object's own, or refused
                s.body = self.block(s.body)     # (an argument's entry copy, desugar.py)
                self.dispatching = False
                s.orelse = self.block(s.orelse)
                return [s]
            case ir.While() | ir.If():
                s.body, s.orelse = self.block(s.body), self.block(s.orelse)
                return [s]
            case ir.Return():
                return [self.returned(s)]
            case ir.Simple() | ir.Break() | ir.Continue() | ir.Pass():
                return statement_tangent(self, s)
        refuse(self, s, f"a `{type(s).__name__}` statement", "use vjp")

    def loop(self, s):
        """`for v in seq:` over an active sequence walks its tangent beside it."""
        first = []
        if not isinstance(s.target, gast.Name):
            if _names(s.target) & self.active:
                first = self.items_loop(s) if _dict_items(s) else \
                    self.unpacking_loop(s) or []
        elif s.target.id in self.active:
            if self.is_active(s.iter):
                pair = gast.Tuple(elts=[store(s.target.id), store(self.dot(s.target.id))],
                                  ctx=gast.Store())
                s.iter = gast.Call(func=self.names.ref("zip"), args=[
                    s.iter, load(self.dot(s.iter.id))], keywords=[])
                s.target = pair
            else:       # (the name's tangent before the loop is not its items': fuzz)
                first = [self.zero_for(s.target.id, s)]
        s.body, s.orelse = first + self.block(s.body), self.block(s.orelse)
        return s

    def unpacking_loop(self, s):
        """`for i, v in enumerate(seq)` and `for a, b in zip(xs, ys)` (as lowering writes
        them) walk the sequences' tangents beside them, in loops reverse mode walks too
        (hvp differentiates this code):

            for a, b, a_dot in zip(xs, ys, xs_dot):      (b_dot = zero_tangent(b) inside)
            for i, (v, v_dot) in enumerate(zip(seq, seq_dot)):
            for (a, (b, c)), (a_dot, (b_dot, c_dot)) in zip(zip(xs, ys), zip(...)):  (nested)
        """
        call, names = s.iter, s.target.elts
        if isinstance(call, gast.Name) and _unpacks_names(s.target):
            return self.unpacking_sequence(s, call)
        role = _walk_role(call, names)
        first = []
        if role == "enumerate":                             # `enumerate(seq, start=1)` too
            dotted = names[1:]
            if isinstance(names[0], gast.Name) and names[0].id in self.active:
                first = [self.zero_for(names[0].id, s)]   # the index: no derivative
        elif role == "zip":
            dotted = names
        else:
            refuse(self, _located_part(s.node), "a loop unpacking several names from this "
                   "iterable", "loop over one sequence and unpack inside the body")
        walked = call.args[:1] if role == "enumerate" else call.args
        seqs, dotted, first = self._walked(walked, dotted, s, first)
        if not dotted:
            return first
        if role == "zip" and all(isinstance(n, gast.Name) for n in names):
            # one flat zip (`for a, b, a_dot, b_dot in zip(xs, ys, xs_dot, ys_dot)`):
            # reverse mode (hvp) walks that, not a zip of zips
            s.target.elts = list(names) + [self._tangent_target(n) for n in dotted]
            call.args = list(call.args) + seqs
            return first
        if role == "enumerate":
            # `for i, (v, v_dot) in enumerate(zip(seq, seq_dot))`, as reverse mode walks it
            # (`for i, ((W, b), (W_dot, b_dot)) in ...` for items unpacked: session 34)
            pair = [names[1], self._tangent_target(names[1])]
            s.target.elts = [names[0], gast.Tuple(elts=pair, ctx=gast.Store())]
            call.args = [gast.Call(func=self.names.ref("zip"), args=[call.args[0], seqs[0]],
                                   keywords=[])] + call.args[1:]     # (its start kept)
            return first
        tangents = seqs[0] if len(seqs) == 1 else gast.Call(
            func=self.names.ref("zip"), args=seqs, keywords=[])
        stores = [self._tangent_target(n) for n in dotted]
        dots = gast.Tuple(elts=stores, ctx=gast.Store()) if len(stores) > 1 else stores[0]
        s.target = gast.Tuple(elts=[s.target, dots], ctx=gast.Store())
        s.iter = gast.Call(func=self.names.ref("zip"), args=[call, tangents], keywords=[])
        return first

    def items_loop(self, s):
        """`for k, v in d.items():` (and `for v in d.values():`, lowered to it): each
        value's tangent read from the dict's tangent by its key (a dict's tangent has
        its keys), inside the body:

            for key1, v in seq1.items():
                v_dot = seq1_dot[key1]
        """
        (key, value), seq = s.target.elts, s.iter.func.value
        first = [self.items_guard(s, seq)]
        if key.id in self.active:
            first.append(self.zero_for(key.id, s))
        if value.id in self.active:
            read = gast.Subscript(value=self.tangent_or_zero(seq), slice=load(key.id),
                                  ctx=gast.Load())
            first.append(ir.Emitted(located(assign(self.dot(value.id), read), s.node)))
        return first

    def items_guard(self, s, seq):
        """`dict_items_guard(seq, refusal)`: another object's `.items()` is refused when
        the loop runs (its tangent is not read by key)."""
        refusal = refusal_when_run(self, _located_part(s.node), "a loop over `.items()` or "
                                   "`.values()` of an object that is not a dict",
                                   "loop over a dict, or use vjp")
        if "dict_items_guard" not in self.builtins:
            self.builtins["dict_items_guard"] = self.names.reserve("dict_items_guard")
            self.ctx.globals[self.builtins["dict_items_guard"]] = dict_items_guard
        call = gast.Call(func=load(self.builtins["dict_items_guard"]),
                         args=[clone(seq), load(refusal)], keywords=[])
        return ir.Emitted(located(gast.Expr(value=call), s.node))

    def zero_for(self, name, s):
        """`name_dot = zero_tangent(name)`: a loop target bound to items without a
        tangent (a range's, an inactive sequence's, enumerate's index)."""
        tangent = assign(self.dot(name), self.names.call("zero_tangent", load(name)))
        return ir.Emitted(located(tangent, s.node))

    def unpacking_sequence(self, s, seq):
        """`for W, b in layers:` walks the sequence's tangent beside it, its items'
        tangents unpacked alike (a tuple's tangent is a tuple, an array row's a row):

            for (W, b), (W_dot, b_dot) in zip(layers, layers_dot):
        """
        s.target = gast.Tuple(elts=[s.target, self._tangent_target(s.target)],
                              ctx=gast.Store())
        s.iter = gast.Call(func=self.names.ref("zip"),
                           args=[seq, self.tangent_or_zero(seq)], keywords=[])

    def _walked(self, seqs, targets, s, first):
        """(the tangents walked, their targets, `first` and zero tangents to start the
        body with): a sequence is walked again only for its tangent. One without a
        tangent is not (a one-shot iterator walked twice, `zip(zip(xs, ys), alphas)`,
        paired alternate items: a wrong value and tangent, or `zero_tangent` of a zip
        object, None: a TypeError); its targets' tangents are zeros."""
        keep, zeros = [], list(first)
        for k, target in enumerate(targets):
            active = _names(target) & self.active
            if active and self.is_active(seqs[k]):
                keep.append(k)
            else:
                zeros += [self.zero_for(name, s) for name in sorted(active)]
        return [load(self.dot(seqs[k].id)) for k in keep], [targets[k] for k in keep], zeros

    def _tangent_target(self, target):
        if isinstance(target, gast.Name):
            return self._tangent_store(target)
        return gast.Tuple(elts=[self._tangent_target(t) for t in target.elts],
                          ctx=gast.Store())

    def _tangent_store(self, name):
        return store(self.dot(name.id)) if name.id in self.active else \
            store(self.names.name("_"))

    def returned(self, s):
        value = s.value if s.value is not None else gast.Constant(value=None, kind=None)
        if self.tangent_only:
            return ir.Emitted(located(gast.Return(value=self.tangent_or_zero(value)), s.node))
        pair = gast.Tuple(elts=[value, self.tangent_or_zero(value)], ctx=gast.Load())
        return ir.Emitted(located(gast.Return(value=pair), s.node))

    def deferred(self, s):
        """`y = obj.copy()` carrying a tangent in the branch of `is_user_object(obj,
        "copy")` (the user's own call, or an argument's entry copy, desugar.py): refused
        if it runs. Dispatched like another method, its result would be taken by reverse
        mode over this code (hvp) for memory `obj` shares, refusing a later write into
        it even where obj is an array and the branch never runs."""
        name = refusal_when_run(
            self, getattr(s.prim, "site", None) or s.node,
            "`.copy()` calling a class's own method named copy on an object carrying a "
            "derivative is not supported yet (hvp and hessian run forward-mode code too)",
            "give the method another name (`def clone(self)`, called `p.clone()`; "
            "copy.copy(p) works too), or use vjp/grad")
        return ir.Emitted(located(gast.Raise(exc=load(name), cause=None), s.node))


def _names(node):
    return set(name_ids(node))


def _copy(atom):
    return clone(atom)


def _dict_items(s):
    """`for k, v in seq.items():`, seq a name (how lowering writes a dict's loop)."""
    call = s.iter
    return isinstance(call, gast.Call) and isinstance(call.func, gast.Attribute) and \
        call.func.attr == "items" and isinstance(call.func.value, gast.Name) and \
        not call.args and not call.keywords and len(s.target.elts) == 2 and \
        all(isinstance(n, gast.Name) for n in s.target.elts)


def _unpacks_names(target):
    """A loop target of names, in tuples or lists nested any depth (no `*rest`)."""
    if isinstance(target, gast.Name):
        return True
    return isinstance(target, (gast.Tuple, gast.List)) and \
        all(_unpacks_names(t) for t in target.elts)


def _located_part(loop):
    """The loop, or its first part that knows the user's line (lowering's loops may not)."""
    return next((n for n in gast.walk(loop) if hasattr(n, "lineno")), loop)


def _walk_role(call, names):
    """"enumerate" or "zip" for a loop target `names` the code walks beside the call's
    sequences' tangents, else None."""
    role = role_of(call.func) if isinstance(call, gast.Call) else None
    if not all(_unpacks_names(n) for n in names):
        return None
    if role == "enumerate" and _counted(call) and len(names) == 2:
        return role
    plain = not call.keywords and all(isinstance(a, gast.Name) for a in call.args)
    return role if role == "zip" and plain and len(call.args) == len(names) else None


def _counted(call):
    """`enumerate(seq)`, `enumerate(seq, k)` or `enumerate(seq, start=k)`, seq a name."""
    args, keywords = call.args, call.keywords
    return bool(args) and isinstance(args[0], gast.Name) and (
        len(args) == 2 and not keywords or
        len(args) == 1 and all(k.arg == "start" for k in keywords))
