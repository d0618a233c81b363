"""Stage 2, check, writes: a write into memory that another live name may share is refused.

The generated forward gives writes value semantics (`a[0] = w` runs as
`a = a.copy(); a[0] = w`, so the backward sweep can restore the old array), so a second
name for the written memory would not see the write the primal shows it. Hence a write
is refused, at the write, when another name read after it may share the written memory,
and always when it would change an argument or a module global (the caller's data):

    s = a[:1]
    a[0] = w          # TransformError: `s` is a view of `a` (line 2) ...
    return s[0]

Which names may share memory comes from the points-to analysis in points_to.py, which
names are read later from liveness.py. `c += v` on a name that may share memory is in
place only for arrays: refused here when the name surely holds an array, else checked
at run time (src.shared_augassign).
"""
import gast

from .inplace import InplaceCalls
from ..frontend.mutable_defaults import mutable_defaults
from .messages import AliasMessages, _how, _text
from .order import OrderChecks
from .state import State
from .points_to import ExprAliases, Value
from .liveness import Liveness, uses
from .flat_helpers import shape_reads
from .swaps import relabel, relabelled, swap_labels, swapped_names, target_names_of


class AliasCheck:
    """Walks the function in order, tracking State; raises at the first bad write.

    Its parts (objects it owns, each given this check): `exprs` says what an expression
    may refer to, `calls` refuses calls that write in place, `order` refuses writes
    NumPy would order differently, `messages` words the errors. The refuse_* and
    tuple_of_views hooks are where the readers of summaries.py and callees.py relax it."""

    def __init__(self, src, params, body, *, helpers, outer=(), copied=False):
        """helpers: what calls to helpers return and write (summaries.HELPERS; passed
        in because reading a helper runs this check over the helper's body); copied:
        writes into the parameters run on their copies (the function grad is called on:
        frontend/desugar.py _argument_copies), but for a mutable default's."""
        self.src, self.outer, self.helpers = src, set(outer), helpers
        self.copied = frozenset("arg:" + p for p in params if p not in
                                mutable_defaults(src.fn)) if copied else frozenset()
        self.state = State({p: frozenset({"arg:" + p}) for p in params})
        kinds = getattr(src, "param_kinds", {})     # from the arguments' shapes, if known
        self.state.arrays |= {p for p in params if kinds.get(p) == "array"}
        self.state.in_place |= {p for p in params if kinds.get(p) in ("array", "list")}
        self.loops, self.current = [], None
        self.body, self.liveness = body, None    # computed at the first write
        self.messages = AliasMessages(src)
        self.exprs = ExprAliases(self)
        self.calls = InplaceCalls(self)
        self.order = OrderChecks(self)

    def value(self, e):
        """The Value of expression `e` (checking the writes it makes)."""
        return self.exprs.value(e)

    def outer_name(self, name):
        return Value({"outer:" + name} if name in self.outer else ())

    # ---- refusals (hooks: the helper readers relax them) ------------------------------
    def external(self, name, obj, node, how):
        return self.messages.external(name, obj, node, how, self.state.origin)

    def shared(self, name, other, node, how):
        return self.messages.shared(name, other, node, how, self.state.origin)

    def refuse_inplace(self, target, node, what, key):
        raise self.messages.inplace(target, node, what, key)

    def in_place(self, target, node, how, what, key):
        """A write by an operation the backward sweep cannot undo (`out=`, `.sort()`,
        `np.copyto`): refused as that operation on a parameter whose writes run on its
        copy (`copied`) as on a private array (it said "writing into the argument `x` is
        not supported ...; it would change the caller's data", though `x[0] = v` is
        differentiated); elsewhere the write's own refusal first (a second name, the
        caller's data). The readers of helpers relax refuse_inplace: the write alone."""
        if self.copied and self.value(target).objs & self.copied:
            self.refuse_inplace(target, node, what, key)
        self.write(target, node, how)
        self.refuse_inplace(target, node, what, key)

    def refuse_mutator(self, target, node, name, text):
        raise self.messages.mutator(node, name, text)

    def refuse_helper_write(self, node, fn, error):
        raise self.messages.helper_write(node, fn, error)

    def tuple_of_views(self, s, value):
        self.order.tuple_of_views(s, value)

    # ---- statements -------------------------------------------------------------------
    def block(self, stmts):
        for s in stmts:
            self.current = s
            self.statement(s)

    def statement(self, s):
        if isinstance(s, gast.Assign):
            value = self.value(s.value)
            self.tuple_of_views(s, value)
            labels = swap_labels(self.state, s)
            if labels is not None:              # `u, un = un, u`: see swaps.py
                relabel(self.state, labels)
                swapped_names(self.src).update(target_names_of(s))
                value = relabelled(value, labels)
            for target in s.targets:
                self.assign(target, value, s)
        elif isinstance(s, gast.AugAssign):
            added = self.value(s.value)
            if isinstance(s.target, gast.Name):
                self.augmented(s)
                held = self.state.names.get(s.target.id, frozenset())
                if s.target.id not in self.state.arrays:    # `xs += [h]` extends xs
                    self.state.put(held, added.objs | self.state.contents(added.objs))
            else:
                items = self.value(s.target).objs      # before the store replaces them
                self.assign(s.target, Value(), s)
                self.item_augmented(s, items)
        elif isinstance(s, gast.If):
            self.value(s.test)
            before = self.state.copy()
            self.block(s.body)
            after_body, self.state = self.state, before
            self.block(s.orelse)
            self.state = after_body.join(self.state)
        elif isinstance(s, (gast.For, gast.While)):
            self.loop(s)
        elif isinstance(s, (gast.Break, gast.Continue)):
            self.loops[-1][type(s).__name__].append(self.state.copy())
        elif isinstance(s, gast.FunctionDef):
            self.nested(s)
        elif isinstance(s, (gast.Expr, gast.Return)):
            if s.value is not None:
                self.value(s.value)
        else:
            for child in gast.iter_child_nodes(s):
                if isinstance(child, gast.expr):
                    self.value(child)

    def assign(self, target, value, stmt):
        state = self.state
        if isinstance(target, gast.Name):
            state.names[target.id] = value.objs
            (state.arrays.add if value.array else state.arrays.discard)(target.id)
            (state.lists.add if value.seq else state.lists.discard)(target.id)
            (state.in_place.add if value.in_place else state.in_place.discard)(target.id)
            state.origin[target.id] = stmt
            (state.loop_vars.add if isinstance(stmt, gast.For) else
             state.loop_vars.discard)(target.id)
        elif isinstance(target, (gast.Tuple, gast.List)):
            entries = value.elements
            if entries is not None and len(entries) == len(target.elts) and \
                    not any(isinstance(t, gast.Starred) for t in target.elts):
                for elt, entry in zip(target.elts, entries):   # `A, B = [], []`: each its own
                    self.assign(elt, entry, stmt)
                return
            parts = Value(value.objs | state.contents(value.objs))
            for elt in target.elts:
                self.assign(elt, parts, stmt)
        elif isinstance(target, gast.Starred):
            self.assign(target.value, Value(value.objs | state.contents(value.objs)), stmt)
        elif isinstance(target, gast.Subscript):
            self.value(target.slice)
            base = self.value(target.value)
            self.write(target.value, stmt, None, element_store=base.array)
            if not base.array:                  # a list or dict now holds the value
                held = value.objs               # (`a[0:1] = [M]`: M's list's entries too)
                if isinstance(target.slice, gast.Slice):
                    held = held | state.contents(value.objs)
                state.put(base.objs, held)

    def loop(self, s):
        """Run the body until the state at the loop head stops growing."""
        seq = self.value(s.iter) if isinstance(s, gast.For) else None
        head = self.state.copy()
        while True:
            self.loops.append({"Break": [], "Continue": [], "iter": (s, seq)})
            self.state = head.copy()
            self.current = s
            if seq is not None:
                self.assign(s.target, Value(seq.objs | self.state.contents(seq.objs)), s)
            else:
                self.value(s.test)
            self.block(s.body)
            jumps = self.loops.pop()
            end = self.state
            for state in jumps["Continue"]:
                end = end.join(state)
            grown = head.join(end)
            if grown.same(head):
                break
            head = grown
        for state in jumps["Break"]:
            head = head.join(state)
        self.state = head

    def nested(self, s):
        """A nested def: its parameters are its arguments; the enclosing function's names
        it reaches are the caller's data to it."""
        params = [a.id for a in s.args.args]
        AliasCheck(self.src, params, s.body, helpers=self.helpers,
                   outer=self.state.names).block(s.body)
        self.state.names[s.name] = frozenset()

    # ---- writes -----------------------------------------------------------------------
    def live_here(self, element_store=False):
        """The names read after the current statement; element_store: it writes into
        an ndarray's elements, which change no shape, so a read of a name for its shape
        alone (a helper's shape_only argument) does not count."""
        s = self.current
        if self.liveness is None:
            self.liveness = [Liveness(self.body, shape_read=lambda call, k=k: shape_reads(
                self.src, call, helpers=k)) for k in (False, True)]
        live = self.liveness[element_store].after(s)
        if not isinstance(s, (gast.Assign, gast.AugAssign, gast.Expr, gast.Return)):
            live = live | uses(s)               # a loop header or test: be generous
        return live

    def write(self, target, node, how, element_store=False):
        name = target.id if isinstance(target, gast.Name) else _text(target)
        objs = self.value(target).objs
        for obj in sorted(objs):
            if obj.split(":")[0] in ("arg", "global", "outer"):
                raise self.external(name, obj, node, how)
        if name in self.state.loop_vars:
            raise self.src.error(
                f"writing into the loop variable `{name}`{_how(how)} is not supported: the "
                "backward sweep restores loop variables from the sequence, so the gradient "
                "could not follow the write", node, hint=f"copy it first: `{name} = {name}"
                ".copy()` as the loop body's first line")
        self.order.iterated(name, objs, node)
        other = self.sharing(name, objs, element_store)
        if other is not None:
            raise self.shared(name, other, node, how)

    def sharing(self, name, objs, element_store=False):
        """A name read after the current statement that may share `objs`, or None."""
        for other in sorted(self.live_here(element_store) - {name}):
            held = self.state.names.get(other)
            if held and self.state.reach(held) & objs:
                return other
        return None

    def item_augmented(self, s, items):
        """`xs[0] += v` on a list or dict whose item is an array changes that array in
        place (then stores it back): refused when a live name shares the item, since
        whether it is an array (`np.tanh(a)` of an argument) often shows only at run time."""
        if self.value(s.target.value).array:
            return                      # an array's element: the write into it is checked
        name = _text(s.target)
        base = s.target.value.id if isinstance(s.target.value, gast.Name) else None
        for other in sorted(self.live_here() - {base}):     # the container sees the store
            held = self.state.names.get(other)
            if held and self.state.reach(held) & items:
                raise self.shared(name, other, s, "`+=` and the like change an array in place")
        seen_elsewhere = sorted(o for o in items if o in self.state.multi or
                                self.from_outside(o) or self.state.held_twice(o))
        if seen_elsewhere:
            raise self.messages.slot_shared(s, name, seen_elsewhere[0])

    def taken_out(self, name):
        """Whether `name` was last bound to a value read out of a container or record
        (`v = d["a"]`, `a = xs[-1]` from `xs.pop()`, `q = p.a`, `d.get(k)`), which the
        container still holds: `name += v` would change the held array too."""
        stmt = self.state.origin.get(name)
        if not isinstance(stmt, gast.Assign) or isinstance(stmt.targets[0], gast.Tuple):
            return False
        value = stmt.value
        if isinstance(value, gast.Call) and isinstance(value.func, gast.Attribute):
            return value.func.attr in ("pop", "get", "setdefault", "popitem")
        if isinstance(value, (gast.Subscript, gast.Attribute)):
            base = value.value
            held_array = isinstance(base, gast.Name) and base.id in self.state.arrays
            return not held_array and self.src.resolve(value) is None
        return False

    def mutable_default(self, objs):
        """Whether one of objs is a parameter whose default is an ndarray, list, dict,
        set or bytearray: `p += v` would change that default in place."""
        shared = mutable_defaults(self.src.fn)
        return any(o.startswith("arg:") and o[4:] in shared for o in objs)

    def from_outside(self, obj):
        """An argument, global or enclosing name that may be an array (not a number)."""
        kind, _, base = obj.partition(":")
        if kind == "arg":
            return getattr(self.src, "param_kinds", {}).get(base) != "scalar"
        return kind in ("global", "outer")

    def augmented(self, s):
        """`c += v`: in place for an array, list or dict; a rebinding for a number.

        Refused here when `c` surely changes in place (an ndarray, a list or dict
        display, a `.copy()`); an argument of unknown type is refused by grad when it
        is called with an ndarray or list there (src.inplace_args), and anything else
        is checked when it runs (src.shared_augassign)."""
        name = s.target.id
        value = self.value(s.target)
        external = sorted(o for o in value.objs if ":" in o)
        other = self.sharing(name, value.objs)
        if not external and other is None:
            return
        how = "`+=` and the like change an array, list or dict in place"
        if not value.in_place and self.taken_out(name):
            # a value read out of a container or record: refused here when a live name
            # of this function may share it; read out of an argument or global
            # (`lr = cfg.lr`), a number is rebound and an array, list or dict is refused
            # when it runs (the container itself is not written: no argument check)
            if other is not None and len(external) < len(value.objs):
                raise self.messages.shared(name, other, s, how, self.state.origin,
                                           hint=self.messages.rebind_hint(s))
            self.src.shared_augassign.add(id(s))
            return
        if not value.in_place and not self.mutable_default(external):
            self.src.shared_augassign.add(id(s))     # checked at run time: arrays only
            for obj in external:
                if obj.startswith("arg:"):
                    self.src.inplace_args.setdefault(obj[4:], self.external(name, obj, s,
                                                                            how))
        elif external:
            obj = next((o for o in external if self.mutable_default([o])), external[0])
            raise self.external(name, obj, s, how)
        else:
            raise self.shared(name, other, s, how)


__all__ = ["AliasCheck"]
