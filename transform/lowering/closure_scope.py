"""Stage 3, normalize (data): which variables a closure reads may be rebound while it
can still be called. A closure record (runtime/closures.py) holds the values its
variables have when it is made; Python reads them when it is called. The two agree
unless a variable is bound again after the closure is made: textually later in the
function, or anywhere in a loop around it (the next pass binds it again):

    w = x * 2.0
    f = lambda t: t * w        # w: bound once, before: the record's value is Python's
    for i in range(3):
        fs.append(lambda t: t * i)     # i: rebound by the loop -> refused
    g = lambda t: t * w; v = w; v[0] = 1.0     # w written through v -> refused
"""
import gast

LOOPS = (gast.For, gast.AsyncFor, gast.While, gast.ListComp, gast.SetComp, gast.DictComp,
         gast.GeneratorExp)
SCOPES = (gast.Lambda, gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)


def same_place(a, b):
    return type(a) is type(b) and getattr(a, "lineno", None) == getattr(b, "lineno", -1) \
        and getattr(a, "col_offset", None) == getattr(b, "col_offset", -1)


def rebound_later(root, closure, names):
    """Those of `names` that may be bound, or written into (through any variable that
    may share their object), after `closure` (a Lambda or FunctionDef below `root`,
    matched by place) is made."""
    stores, found = [], []
    _scan(root, closure, (), stores, found, top=True)
    if not found:
        return sorted(names)                 # not found: assume the worst
    order, loops = found[0]
    shared = _sharing(root, names)
    late = [(name, written) for at, name, around, written in stores
            if at >= order or set(around) & set(loops)]
    return sorted({name for name, written in late if name in names} |
                  {n for name, written in late if written for n in shared.get(name, ())})


def _sharing(root, names):
    """{variable: the names among `names` whose object it may share}: variables linked
    by a binding of one from an expression reading the other (`v = w`, `row = w[0]`,
    `ws = [w]`, `w = x` links w and x both ways); a write into one may be a write into
    the others' object (through views, items and calls too: _roots)."""
    parent = {}

    def find(n):
        while parent.setdefault(n, n) != n:
            n = parent[n]
        return n
    for node in gast.walk(root):
        if isinstance(node, (gast.Assign, gast.AugAssign, gast.AnnAssign, gast.NamedExpr,
                             gast.For, gast.comprehension)):
            value = node.iter if isinstance(node, (gast.For, gast.comprehension)) \
                else node.value
            targets = node.targets if isinstance(node, gast.Assign) else [node.target]
            linked = sorted(_roots(value).union(*(_roots(t) for t in targets)))
            for n in linked[1:]:
                parent[find(n)] = find(linked[0])
    groups = {}
    for n in names:
        groups.setdefault(find(n), set()).add(n)
    return {var: groups[find(var)] for var in parent if find(var) in groups} | \
        {n: groups[find(n)] for n in names}


def _roots(e):
    """The variables whose object `e`'s value may be or hold: `w`, `w[0]`, `w.T`,
    `[w, v]`, `w.reshape(...)`, `f(w)`; not arithmetic (`w * 2` is a new object)."""
    if isinstance(e, gast.Name):
        return {e.id}
    if isinstance(e, (gast.Subscript, gast.Attribute, gast.Starred)):
        return _roots(e.value)
    if isinstance(e, (gast.List, gast.Tuple, gast.Set)):
        return set().union(*(_roots(x) for x in e.elts))
    if isinstance(e, gast.Dict):
        return set().union(*(_roots(x) for x in e.values))
    if isinstance(e, gast.IfExp):
        return _roots(e.body) | _roots(e.orelse)
    if isinstance(e, gast.Call):       # a method's receiver, any argument (a view)
        func = _roots(e.func.value) if isinstance(e.func, gast.Attribute) else set()
        return func.union(*(_roots(a) for a in e.args + [k.value for k in e.keywords]))
    return set()


def _scan(node, closure, loops, stores, found, top=False):
    if not top and isinstance(node, SCOPES):
        if same_place(node, closure) and not found:
            found.append((_count(stores), loops))
        if isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
            stores.append((_count(stores), node.name, loops, False))
        for default in getattr(getattr(node, "args", None), "defaults", ()) or ():
            _scan(default, closure, loops, stores, found)
        return
    if isinstance(node, gast.Name) and isinstance(node.ctx, (gast.Store, gast.Del)):
        stores.append((_count(stores), node.id, loops, False))
    changed = _changed_in_place(node)
    if changed is not None:               # `w[0] = v`, `w.append(v)`: the same object
        stores.append((_count(stores), changed, loops, True))   # (or one sharing it)
    inner = loops + (id(node),) if isinstance(node, LOOPS) else loops
    for field in _fields(node):         # (value first: `w = w + 1` reads, then binds)
        value = getattr(node, field, None)
        for child in value if isinstance(value, list) else [value]:
            if isinstance(child, gast.AST):
                _scan(child, closure, inner, stores, found)


MUTATORS = frozenset({"append", "extend", "insert", "pop", "remove", "clear", "sort",
                      "reverse", "update", "setdefault", "popitem", "add", "discard",
                      "fill", "resize", "put", "itemset", "setflags", "partition"})


def _changed_in_place(node):
    """The variable an item or attribute write, or a mutating method call, changes."""
    target = None
    if isinstance(node, (gast.Subscript, gast.Attribute)) and \
            isinstance(node.ctx, (gast.Store, gast.Del)):
        target = node.value
    elif isinstance(node, gast.Call) and isinstance(node.func, gast.Attribute) and \
            node.func.attr in MUTATORS:
        target = node.func.value
    while isinstance(target, (gast.Subscript, gast.Attribute)):
        target = target.value
    return target.id if isinstance(target, gast.Name) else None


def _fields(node):
    """node's fields in the order Python evaluates them (a binding's value first)."""
    if isinstance(node, (gast.Assign, gast.AugAssign, gast.AnnAssign, gast.NamedExpr)):
        return ("value",) + tuple(f for f in node._fields if f != "value")
    return node._fields


def _count(stores):
    return len(stores)
