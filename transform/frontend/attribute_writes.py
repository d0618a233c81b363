"""Stage 1b, desugar (data): an attribute write on an object only this function sees,
as a new object bound to the same name:

    b = Box(w)                      b = Box(w)
    b.state = np.sin(w)       ->    b = with_attribute(b, "state", np.sin(w))
    return b.state * w              return b.state * w

with_attribute (runtime/attributes.py) copies the object and sets the attribute; its
rule gives the value the attribute's cotangent. The copy is never seen when `b` is
private: every binding makes a new object of a user class (no `__setattr__` of its own,
the attribute no property), and every other use of `b` reads an attribute, calls a
method or returns it (local_uses.py). Any other write (`a.b.c = v`, `b.x += v`, a
tuple target, an argument's or a global's attribute) stays and is refused as before.
"""
import copy
import inspect

import gast

from runtime.attributes import with_attribute
from runtime.containers import not_shared_array
from ..ir.nodes import assign, const, load, located
from .method_writes import stand_in
from .parse import parse_function


def rewrite_attribute_writes(src, uses, new_name):
    """Rewrite each such write in `src.node`; True if any."""
    rewriter = _Writes(src, uses, new_name)
    src.node.body = rewriter.block(src.node.body)
    return rewriter.changed


class _Writes:
    def __init__(self, src, uses, new_name):
        self.src, self.uses, self.new = src, uses, new_name
        self.private = {}
        self.changed = False

    def block(self, stmts):
        out = []
        for s in stmts:
            for field in ("body", "orelse", "finalbody"):
                if isinstance(getattr(s, field, None), list):
                    setattr(s, field, self.block(getattr(s, field)))
            out.extend(self.statement(s))
        return out

    def statement(self, s):
        call = _method_call(s)
        made = self.method_call(s, call) if call is not None else None
        if made is not None:
            return made
        target = _attribute_target(s)
        cls = self.class_of(target.value.id) if target is not None else None
        if cls is None or not _plain_attribute(cls, target.attr):
            return [s]
        self.changed = True
        if isinstance(s, gast.AugAssign):      # `acc.n += 1`: rebound, never in place
            return self.augmented(s, target)
        call = _helper_call(with_attribute, [target.value, const(target.attr), s.value])
        return [located(assign(target.value.id, call), s)]

    def augmented(self, s, target):
        """`b.n += v` -> `not_shared_array(b.n, where)`, then `b = with_attribute(b, "n",
        b.n + v)`: a number is rebound as Python does; an array (list, dict) held there,
        which `+=` would change in place for every holder, is refused when it runs."""
        read = gast.Attribute(value=load(target.value.id), attr=target.attr, ctx=gast.Load())
        where = f"{self.src.filename}:{self.src.first_line + s.lineno - 1}"
        written = f"{target.value.id}.{target.attr}"
        check = gast.Expr(value=_helper_call(not_shared_array,
                                             [read, const(where), const(written)]))
        value = gast.BinOp(left=copy.deepcopy(read), op=s.op, right=s.value)
        value.augmented = True              # `+=` runs type(b.n).__iadd__ if any, as Python
        call = _helper_call(with_attribute, [load(target.value.id), const(target.attr), value])
        return [located(check, s), located(assign(target.value.id, call), s)]

    def class_of(self, name):
        if name not in self.private:
            self.private[name] = private_object(self.src, self.uses, name)
        return self.private[name]

    def method_call(self, s, call):
        """`r.step(x)` whose method sets attributes of `self`: its stand-in's result
        and new object (method_writes.py)."""
        name = call.func.value.id
        cls = self.class_of(name)
        method = writing_method(cls, call.func.attr) if cls is not None else None
        if method is None:
            return None
        self.changed = True
        pair = self.new("stepped")
        made = _helper_call(stand_in(cls, method), [load(name)] + call.args, call.keywords)
        out = [assign(pair, made), assign(name, _index(pair, 1))]
        if isinstance(s, gast.Assign):
            out.append(gast.Assign(targets=s.targets, value=_index(pair, 0),
                                   type_comment=None))
        return [located(n, s) for n in out]


def _method_call(s):
    """The call `name.method(...)` that statement `s` is, or assigns, else None."""
    value = s.value if isinstance(s, (gast.Expr, gast.Assign)) else None
    if isinstance(s, gast.Assign) and len(s.targets) != 1:
        return None
    if isinstance(value, gast.Call) and isinstance(value.func, gast.Attribute) and \
            isinstance(value.func.value, gast.Name) and \
            not any(isinstance(a, gast.Starred) for a in value.args):
        return value
    return None


def _helper_call(fn, args, keywords=()):
    func = load(fn.__name__)
    func.runtime_helper = fn
    return gast.Call(func=func, args=list(args), keywords=list(keywords))


def _index(name, k):
    return gast.Subscript(value=load(name), slice=const(k), ctx=gast.Load())


def _attribute_target(s):
    """The target `name.attr` of `name.attr = value` (or `name.attr += value`), else None."""
    if isinstance(s, gast.AugAssign) or isinstance(s, gast.Assign) and len(s.targets) == 1:
        target = s.target if isinstance(s, gast.AugAssign) else s.targets[0]
        if isinstance(target, gast.Attribute) and isinstance(target.value, gast.Name):
            return target
    return None


def private_object(src, uses, name):
    """The user class every binding of local `name` makes an object of, when every
    other use reads an attribute, writes one in a statement of its own, calls a method
    or returns it; else None."""
    own, cls = getattr(src, "writing_self", (None, None))
    if name == own:             # `self` of a method compiled by method_writes.py
        rebound = [b for b in uses.bindings(name) if not isinstance(b.ctx, gast.Param)]
        classes = {None if rebound else cls}
    elif not uses.candidate(name):
        return None
    else:
        classes = {_made_class(src, uses.plain_assignment(b)) for b in uses.bindings(name)}
    if len(classes) != 1 or None in classes:
        return None
    cls = classes.pop()
    if all(_object_use(uses, n, cls) for n in uses.reads(name)):
        return cls
    return None


def _made_class(src, stmt):
    value = getattr(stmt, "value", None)
    if not isinstance(value, gast.Call):
        return None
    cls = src.resolve(value.func)
    if not isinstance(cls, type) or cls.__module__ in ("builtins", "numpy") or \
            cls.__setattr__ is not object.__setattr__ or hasattr(cls, "__copy__") or \
            issubclass(cls, tuple):
        return None
    return cls


def _object_use(uses, node, cls):
    parent = uses.up(node)
    if isinstance(parent, gast.Attribute) and parent.value is node:
        if isinstance(parent.ctx, gast.Load):        # (`b.__dict__` hands it on)
            return not parent.attr.startswith("__") and \
                not _may_give_self_away(cls, parent.attr, set(), _discarded(uses, parent))
        statement = uses.up(parent)
        return _attribute_target(statement) is parent
    return isinstance(parent, gast.Return) or isinstance(parent, gast.Tuple) and \
        isinstance(uses.up(parent), gast.Return)


def writing_method(cls, attr):
    """cls's plain method `attr` when its body sets an attribute of its first
    parameter (and it has no closure: `super()`), else None."""
    method = inspect.getattr_static(cls, attr, None)
    if not inspect.isfunction(method) or method.__code__.co_freevars or \
            not method.__code__.co_argcount:
        return None
    node = parse_function(method).node
    first = node.args.args[0].id
    writes = any(isinstance(n, gast.Attribute) and isinstance(n.ctx, gast.Store) and
                 isinstance(n.value, gast.Name) and n.value.id == first
                 for n in gast.walk(node))
    return method if writes else None


def _discarded(uses, method):
    """Whether `obj.method` is called in a statement of its own (`acc.add(v)`)."""
    call = uses.up(method)
    return isinstance(call, gast.Call) and call.func is method and \
        isinstance(uses.up(call), gast.Expr)


def _may_give_self_away(cls, attr, seen, discarded=False):
    """Whether reading `obj.attr` (a method, a property) may run code that hands the
    object itself on (`return self`, `helper(self)`, `[self]`): a second name for it
    would not see a later write. Each use of `self` there must read an attribute of it,
    and the methods it calls on `self` likewise; a method called in a statement of its
    own (its result `discarded`) may also `return self` (`acc.add(v)`, chaining style)."""
    static = inspect.getattr_static(cls, attr, None)
    if attr in seen or static is None or isinstance(static, (staticmethod, classmethod)):
        return False
    code = getattr(static, "fget", None) or getattr(static, "func", None) or static
    if not inspect.isfunction(code):
        return hasattr(type(static), "__get__")    # another descriptor: its code unseen
    seen.add(attr)
    node = parse_function(code).node
    if not node.args.args:
        return True
    first = node.args.args[0].id
    parents = {id(c): n for n in gast.walk(node) for c in gast.iter_child_nodes(n)}
    for n in gast.walk(node):
        if isinstance(n, gast.Name) and n.id == first and not isinstance(n.ctx, gast.Param):
            parent = parents.get(id(n))
            if discarded and isinstance(parent, gast.Return):
                continue
            if not isinstance(parent, gast.Attribute) or \
                    _may_give_self_away(cls, parent.attr, seen):
                return True
    return False


def _plain_attribute(cls, attr):
    """Whether setting `attr` stores a value (no property or other data descriptor)."""
    static = inspect.getattr_static(cls, attr, None)
    return static is None or not hasattr(type(static), "__set__")
