"""gast nodes: fresh names (NameGen), builders (load, store, const, assign, thunk_of),
walks (names_in, statements, blocks, walk) and renaming."""
import builtins
import copy

import gast

from .quoting import identifier


class NameGen:
    """Hands out names like t1, t2, cond1 that the function does not already use, and
    the names of the compiler's own vocabulary (see `vocabulary.Vocabulary`)."""

    def __init__(self, used):
        self.used = set(used)
        self.counters = {}
        self.temporaries = set()       # names of the normalizer's `t` temporaries
        self.made = set()              # every name `new` handed out (locals, never globals)

    def new(self, base):
        k = self.counters.get(base, 0)
        while True:
            k += 1
            name = f"{base}{k}"
            if name not in self.used:
                break
        self.counters[base] = k
        self.used.add(name)
        self.made.add(name)
        if base == "t":
            self.temporaries.add(name)
        return name

    def reserve(self, name):
        """`name` itself if free, else a numbered variant; a name made from a user
        object's (a lambda's `<lambda>`) becomes an identifier first."""
        name = identifier(name, "fn")
        if name not in self.used:
            self.used.add(name)
            return name
        return self.new(name + "_")


def load(name):
    return gast.Name(id=name, ctx=gast.Load(), annotation=None, type_comment=None)


def operand(field):
    """A generated statement's read-only operand field lowered: a name loaded, an
    expression (a pass put one there, docs/ir.md: Fuse) as given."""
    return load(field) if isinstance(field, str) else field


def store(name):
    return gast.Name(id=name, ctx=gast.Store(), annotation=None, type_comment=None)


def const(value):
    return gast.Constant(value=value, kind=None)


def assign(name, value):
    return gast.Assign(targets=[store(name)], value=value, type_comment=None)


def located(node, where):
    """`node`, and the nodes below it that have no location, at `where`'s location (and
    the user's line a compiler-made statement `where` came from: tracebacks' origins)."""
    for n in walk(node):
        if getattr(n, "lineno", None) is None and "lineno" in n._attributes:
            gast.copy_location(n, where)
    line = getattr(where, "origin_line", None)
    if line is not None and getattr(node, "origin_line", None) is None:
        node.origin_line = line
    return node


def call_method(name, method, args=()):
    """`name.method(*args)`."""
    return gast.Call(func=gast.Attribute(value=load(name), attr=method, ctx=gast.Load()),
                     args=list(args), keywords=[])


def builtin_ref(name):
    """The builtin `name` as a rewrite calls it: the compiler's own reference (resolved
    to the builtin and renamed at emit if the user's code binds that name), never a
    user's function of the same name."""
    node = load(name)
    node.runtime_helper = getattr(builtins, name)
    return node


def lambda_params(fn):
    """The names a lambda or def binds as its own parameters."""
    a = fn.args
    return {p.id for p in a.posonlyargs + a.args + a.kwonlyargs + [a.vararg, a.kwarg]
            if p is not None}


def names_in(node):
    """Every Name id loaded or stored anywhere below `node`."""
    return name_ids(node)


def free_names(node):
    """names_in(node) without the names a lambda below binds as its own parameters,
    where it reads them (`f(lambda t, a: -a * t, k)` reads k, not t or a)."""
    if not nodes_below(node, gast.Lambda):
        return names_in(node)
    found, stack = set(), [(node, frozenset())]
    while stack:
        n, bound = stack.pop()
        if type(n) is gast.Name:
            if n.id not in bound:
                found.add(n.id)
            continue
        if type(n) is gast.Lambda:
            a = n.args
            for default in a.defaults + [d for d in a.kw_defaults if d is not None]:
                stack.append((default, bound))
            stack.append((n.body, bound | lambda_params(n)))
            continue
        for child in gast.iter_child_nodes(n):
            stack.append((child, bound))
    return found


def _names_below(node):
    """The Name nodes below `node`, as a list: no generators, this is the compiler's
    hottest loop."""
    found, stack, AST, Name, fields_of = [], [node], gast.AST, gast.Name, _CHILD_FIELDS
    while stack:
        n = stack.pop()
        kind = type(n)
        if kind is Name:
            found.append(n)
            continue
        fields = fields_of.get(kind)
        if fields is None:
            if not isinstance(n, AST):
                continue
            fields = _child_fields(kind)
        for field in fields:
            value = getattr(n, field, None)
            if type(value) is list:
                stack.extend(value)
            elif isinstance(value, AST):
                stack.append(value)
    return found


_CHILD_FIELDS = {}
# fields that never hold a node with a Name below it
_LEAF_FIELDS = {"ctx", "op", "kind", "type_comment", "id", "attr", "is_async",
                "level", "module", "conversion", "type_ignores"}


names_below = _names_below


def nodes_below(node, kind):
    """The nodes of type `kind` below `node` (itself included), as a list: the fast
    traversal of _names_below, for the checks that look at every call."""
    found, stack, AST, fields_of = [], [node], gast.AST, _CHILD_FIELDS
    while stack:
        n = stack.pop()
        if type(n) is kind:
            found.append(n)
        fields = fields_of.get(type(n))
        if fields is None:
            if not isinstance(n, AST):
                continue
            fields = _child_fields(type(n))
        for field in fields:
            value = getattr(n, field, None)
            if type(value) is list:
                stack.extend(value)
            elif isinstance(value, AST):
                stack.append(value)
    return found


def _child_fields(kind):
    fields = () if kind is gast.Constant else \
        tuple(f for f in kind._fields if f not in _LEAF_FIELDS)
    _CHILD_FIELDS[kind] = fields
    return fields


def name_ids(node, ctx=None, into=None):
    """The ids of the Names below `node` (only those in context `ctx`, e.g. gast.Load,
    when given), added to the set `into`."""
    found = set() if into is None else into
    for n in _names_below(node):
        if ctx is None or type(n.ctx) is ctx:
            found.add(n.id)
    return found


def names_and_stores(node):
    """(ids of every Name below `node`, ids of those in Store context)."""
    found, stores, Store = set(), set(), gast.Store
    for n in _names_below(node):
        found.add(n.id)
        if type(n.ctx) is Store:
            stores.add(n.id)
    return found, stores


def count_names(node, counts):
    """counts[id] += 1 for every Name below `node`."""
    for n in _names_below(node):
        counts[n.id] = counts.get(n.id, 0) + 1
    return counts


def statements(node):
    """Every statement below `node` (itself included when it is one), not descending
    into expressions: a cheap walk for finding loops, returns and the like."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, gast.stmt):
            yield n
        for field in ("body", "orelse", "finalbody", "handlers"):
            block = getattr(n, field, None)
            if type(block) is list:
                stack.extend(block)


def blocks(node):
    """Every statement list below `node` (bodies and else-branches), its own included."""
    for s in statements(node):
        for field in ("body", "orelse"):
            block = getattr(s, field, None)
            if type(block) is list:
                yield block


def walk_in_order(node):
    """Every node below `node` (itself included) in gast.walk's order (breadth first,
    fields in order), without its nested generators: for checks that report the
    first offending node."""
    todo, AST, k = [node], gast.AST, 0
    while k < len(todo):
        n = todo[k]
        k += 1
        for field in n._fields:
            value = getattr(n, field, _NO_FIELD)
            if isinstance(value, AST):
                todo.append(value)
            elif isinstance(value, list):
                todo.extend(v for v in value if isinstance(v, AST))
        yield n


_NO_FIELD = object()


def walk(node):
    """Every node below `node` (itself included), in no promised order: gast.walk
    without its nested generators, which dominated compile time. Use it where the
    order does not matter (sets, counts, any)."""
    stack, AST = [node], gast.AST
    while stack:
        n = stack.pop()
        yield n
        for field in n._fields:
            value = getattr(n, field, None)
            if type(value) is list:
                stack.extend(v for v in value if isinstance(v, AST))
            elif isinstance(value, AST):
                stack.append(value)


class _Rename(gast.NodeTransformer):
    """Rename names in every context (loads, stores) of an inlined body."""

    def __init__(self, renames):
        self.renames = renames

    def visit_Name(self, node):
        if node.id in self.renames:
            node.id = self.renames[node.id].id
        return node


def renamed(node, renames):
    """A copy of node with each name in `renames` (name -> a Name node) renamed."""
    return _Rename(renames).visit(copy.deepcopy(node))


def thunk_of(expr, captures, names, shortened=()):
    """Thunk(lambda a=a, b=b: expr): defaults capture values, never loop variables.

    shortened: lists the backward sweep pops entries from; a thunk captures a copy."""
    args = gast.arguments(args=[gast.Name(id=c, ctx=gast.Param(), annotation=None,
                                          type_comment=None) for c in captures],
                          posonlyargs=[], vararg=None, kwonlyargs=[], kw_defaults=[],
                          kwarg=None, defaults=[names.call("list", load(c)) if c in shortened
                                                else load(c) for c in captures])
    return names.call("Thunk", gast.Lambda(args=args, body=expr))
