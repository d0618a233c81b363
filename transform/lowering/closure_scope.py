"""Stage 3, normalize (data): which variables a closure reads may be rebound while it
can still be called. A closure record (runtime/closures.py) holds the values its
variables have when it is made; Python reads them when it is called. The two agree
unless a variable is bound again after the closure is made: textually later in the
function, or anywhere in a loop around it (the next pass binds it again):

    w = x * 2.0
    f = lambda t: t * w        # w: bound once, before: the record's value is Python's
    for i in range(3):
        fs.append(lambda t: t * i)     # i: rebound by the loop -> refused
"""
import gast

LOOPS = (gast.For, gast.AsyncFor, gast.While, gast.ListComp, gast.SetComp, gast.DictComp,
         gast.GeneratorExp)
SCOPES = (gast.Lambda, gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)


def same_place(a, b):
    return type(a) is type(b) and getattr(a, "lineno", None) == getattr(b, "lineno", -1) \
        and getattr(a, "col_offset", None) == getattr(b, "col_offset", -1)


def rebound_later(root, closure, names):
    """Those of `names` that may be bound after `closure` (a Lambda or FunctionDef below
    `root`, matched by place) is made."""
    stores, found = [], []
    _scan(root, closure, (), stores, found, top=True)
    if not found:
        return sorted(names)                 # not found: assume the worst
    order, loops = found[0]
    return sorted({name for at, name, around in stores if name in names and
                   (at >= order or set(around) & set(loops))})


def _scan(node, closure, loops, stores, found, top=False):
    if not top and isinstance(node, SCOPES):
        if same_place(node, closure) and not found:
            found.append((_count(stores), loops))
        if isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
            stores.append((_count(stores), node.name, loops))
        for default in getattr(getattr(node, "args", None), "defaults", ()) or ():
            _scan(default, closure, loops, stores, found)
        return
    if isinstance(node, gast.Name) and isinstance(node.ctx, (gast.Store, gast.Del)):
        stores.append((_count(stores), node.id, loops))
    changed = _changed_in_place(node)
    if changed is not None:               # `w[0] = v`, `w.append(v)`: the same object,
        stores.append((_count(stores), changed, loops))   # which may become a new one
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
