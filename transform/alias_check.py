"""Check stage, writes: a write into memory that another live name may share is refused.

The generated forward gives writes value semantics (`a[0] = w` runs as
`a = a.copy(); a[0] = w`, so the backward sweep can restore the old array), so a second
name for the written memory would not see the write the primal shows it. Hence a write
is refused, at the write, when another name read after it may share the written memory,
and always when it would change an argument or a module global (the caller's data):

    s = a[:1]
    a[0] = w          # TransformError: `s` is a view of `a` (line 2) ...
    return s[0]

Which names may share memory comes from the points-to analysis in aliasing.py, which
names are read later from liveness.py. `c += v` on a name that may share memory is in
place only for arrays: refused here when the name surely holds an array, else checked
at run time (src.shared_augassign).
"""
import re

import gast
import numpy as np

from .aliasing import (CONTAINER_MUTATORS, INPLACE_FUNCTIONS, INPLACE_METHODS, VIEW_ATTRS,
                       VIEW_FUNCTIONS, VIEW_METHODS, ExprAliases, State, Value)
from .liveness import Liveness, uses
from .names import statements, walk


class AliasCheck(ExprAliases):
    """Walks the function in order, tracking State; raises at the first bad write."""

    def __init__(self, src, params, body, outer=()):
        self.src, self.outer = src, set(outer)
        self.state = State({p: frozenset({"arg:" + p}) for p in params})
        self.sites, self.made, self.loops, self.current = {}, set(), [], None
        self.live = Liveness(body)

    def site(self, node):
        obj = self.sites.get(id(node))
        if obj is None:
            obj = self.sites[id(node)] = f"site{len(self.sites) + 1}"
        return obj

    def outer_name(self, name):
        return Value({"outer:" + name} if name in self.outer else ())

    # ---- statements -------------------------------------------------------------------
    def block(self, stmts):
        for s in stmts:
            self.current = s
            self.statement(s)

    def statement(self, s):
        if isinstance(s, gast.Assign):
            value = self.value(s.value)
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
                self.assign(s.target, Value(), s)
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
            state.origin[target.id] = stmt
            (state.loop_vars.add if isinstance(stmt, gast.For) else
             state.loop_vars.discard)(target.id)
        elif isinstance(target, (gast.Tuple, gast.List)):
            parts = Value(value.objs | state.contents(value.objs))
            for elt in target.elts:
                self.assign(elt, parts, stmt)
        elif isinstance(target, gast.Starred):
            self.assign(target.value, Value(value.objs | state.contents(value.objs)), stmt)
        elif isinstance(target, gast.Subscript):
            self.value(target.slice)
            base = self.value(target.value)
            self.write(target.value, stmt, None)
            if not base.array:                  # a list or dict now holds the value
                state.put(base.objs, value.objs)

    def loop(self, s):
        """Run the body until the state at the loop head stops growing."""
        seq = self.value(s.iter) if isinstance(s, gast.For) else None
        head = self.state.copy()
        while True:
            self.loops.append({"Break": [], "Continue": []})
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
        AliasCheck(self.src, params, s.body, outer=self.state.names).block(s.body)
        self.state.names[s.name] = frozenset()

    # ---- writes -----------------------------------------------------------------------
    def live_here(self):
        s = self.current
        live = self.live.after(s)
        if not isinstance(s, (gast.Assign, gast.AugAssign, gast.Expr, gast.Return)):
            live = live | uses(s)               # a loop header or test: be generous
        return live

    def write(self, target, node, how, container=False):
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
        other = self.sharing(name, objs)
        if other is not None:
            raise self.shared(name, other, node, how)

    def sharing(self, name, objs):
        """A name read after the current statement that may share `objs`, or None."""
        for other in sorted(self.live_here() - {name}):
            held = self.state.names.get(other)
            if held and self.state.reach(held) & objs:
                return other
        return None

    def augmented(self, s):
        """`c += v`: in place for an array, a rebinding for a number."""
        name = s.target.id
        value = self.value(s.target)
        external = [o for o in value.objs if ":" in o]
        other = self.sharing(name, value.objs)
        if not external and other is None:
            return
        if not value.array:
            self.src.shared_augassign.add(id(s))     # checked at run time: arrays only
        elif external:
            raise self.external(name, sorted(external)[0], s, "`+=` and the like write "
                                "into an array in place")
        else:
            raise self.shared(name, other, s, "`+=` and the like write into an array "
                              "in place")

    # ---- messages ---------------------------------------------------------------------
    def external(self, name, obj, node, how):
        kind, base = obj.split(":", 1)
        what = {"arg": f"the argument `{base}`", "global": f"the module global `{base}`",
                "outer": f"`{base}` of the enclosing function"}[kind]
        if name == base:
            message = f"writing into {what} is not supported"
        else:
            message = f"writing into `{name}` is not supported: it may share memory with {what}"
        consequence = "it would change the caller's data" if kind == "arg" else \
            "the gradient cannot follow writes into data from outside the function"
        hint = self.copy_hint(name) or f"copy it first: `{base} = {base}.copy()`"
        return self.src.error(f"{message}{_how(how)}; {consequence}", node, hint=hint)

    def shared(self, name, other, node, how):
        origin = self.state.origin
        if _mentions(origin.get(other), name) or not _mentions(origin.get(name), other):
            relation = f"`{other}` {_relation(origin.get(other))} `{name}`"
            line, copied = self.line(origin.get(other)), other
        else:
            relation = f"`{name}` {_relation(origin.get(name))} `{other}`"
            line, copied = self.line(origin.get(name)), name
        message = (f"writing into `{name}` is not supported here{_how(how)}: {relation}"
                   f"{line}, `{other}` is read after this write, and the gradient cannot "
                   "follow writes through shared memory")
        hint = self.copy_hint(copied) or f"copy first: `{name} = {name}.copy()` (or " \
                                         f"`list({name})`), so each array has one name"
        return self.src.error(message, node, hint=hint)

    def line(self, node):
        if node is None or getattr(node, "lineno", None) is None:
            return ""
        return f" (line {self.src.first_line + node.lineno - 1})"

    def copy_hint(self, name):
        stmt = self.state.origin.get(name)
        if isinstance(stmt, gast.Assign) and len(stmt.targets) == 1 \
                and isinstance(stmt.targets[0], gast.Name) \
                and not isinstance(stmt.value, (gast.List, gast.Tuple, gast.Dict)):
            return f"copy first: `{name} = {_text(stmt.value)}.copy()`"
        return None


def _how(how):
    return f" ({how})" if how else ""


def _mentions(stmt, name):
    return stmt is not None and name in uses(getattr(stmt, "value", None) or
                                             getattr(stmt, "iter", None))


def _relation(stmt):
    """How a statement's target relates to the names it reads."""
    if isinstance(stmt, gast.For):
        return "is an element of"
    value = getattr(stmt, "value", None)
    if isinstance(stmt, gast.Expr) or isinstance(value, (gast.List, gast.Tuple, gast.Dict)):
        return "holds"
    if isinstance(value, gast.Name):
        return "is another name for"
    if isinstance(value, gast.Subscript) or _view_call(value):
        return "may be a view of"
    return "may share memory with"


VIEW_NAMES = VIEW_METHODS | {getattr(f, "__name__", "") for f in VIEW_FUNCTIONS}


def _view_call(value):
    if isinstance(value, gast.Attribute):
        return value.attr in VIEW_ATTRS
    if isinstance(value, gast.Call):
        func = value.func
        return getattr(func, "attr", getattr(func, "id", None)) in VIEW_NAMES
    return False


def _text(node):
    import ast
    return ast.unparse(gast.gast_to_ast(node))


WRITING_ATTRS = INPLACE_METHODS | CONTAINER_MUTATORS | {"shuffle", "at"} | \
    {getattr(f, "__name__", "") for f in INPLACE_FUNCTIONS}




def _may_write(src):
    """Whether the function may write in place anywhere (cheap, and conservative: most
    functions do not, and then there is nothing to check)."""
    for s in statements(src.node):
        if isinstance(s, gast.AugAssign):
            return True
        targets = s.targets if isinstance(s, gast.Assign) else \
            [s.target] if isinstance(s, gast.For) else []
        if any(type(n) is gast.Subscript for t in targets for n in walk(t)):
            return True
    text = "".join(src.lines)
    if "out" in text and _OUT_KEYWORD.search(text):
        return True
    for m in _CALL.finditer(text):
        name = m.group(1)
        if name in WRITING_ATTRS or (name in _UFUNC_INPUTS and
                                     _positional_count(text, m.end()) > _UFUNC_INPUTS[name]):
            return True
    return False


_OUT_KEYWORD = re.compile(r"\bout\s*=")
_CALL = re.compile(r"(\w+)\s*\(")
_UFUNC_INPUTS = {name: f.nin for name, f in vars(np).items() if isinstance(f, np.ufunc)}


def _positional_count(text, start):
    """How many arguments the call whose `(` ends at `start` has (counting commas at
    its top level; an overestimate with keywords, which is the safe side)."""
    depth, count, seen = 1, 0, False
    for ch in text[start:]:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                break
        elif ch == "," and depth == 1:
            count += 1
        elif not ch.isspace():
            seen = True
    return count + seen


def check_aliasing(src):
    """Raise TransformError at the first write the generated code could not follow."""
    src.shared_augassign = set()
    if not _may_write(src):
        return
    params = src.params + [a.id for a in src.node.args.kwonlyargs]
    AliasCheck(src, params, src.node.body).block(src.node.body)


__all__ = ["check_aliasing", "VIEW_FUNCTIONS"]
