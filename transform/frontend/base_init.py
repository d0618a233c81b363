"""Stage 1, parse: `super().__init__(...)` (or `super(C, self).__init__(...)`, or
`Base.__init__(self, ...)`) as the first statement of a user `__init__`, inlined so
frontend/constructors.py can read the class:

    class A:                                 class B(A):
        def __init__(self, w, s=2.0):            def __init__(self, w, b):
            self.w = w * s                           super().__init__(w)
                                                     self.b = b
    B's __init__ as constructors.py reads it:
        def __init__(self, w, b):
            w_A = w                      # the call's arguments bound to A's parameters
            s_A = 2.0                    # (a default only when it is a literal)
            self.w = w_A * s_A           # A's body, its locals renamed (at the call's line)
            self.b = b

Only when A's __init__ is itself one constructors.py builds, both read their global
names from the same objects and the call passes no `*`/`**`; otherwise None (refused).
"""
import inspect

import gast

from ..ir.nodes import names_below

_LITERALS = (int, float, complex, str, bool, bytes, type(None))
_SCOPES = (gast.ListComp, gast.SetComp, gast.DictComp, gast.GeneratorExp)


def base_call(fdef, owner, cls, init):
    """(index of the statement, the class whose __init__ it calls, the Call) when
    fdef's first statement (after a docstring) calls a base's __init__; else None."""
    body, me, globals_ = fdef.body, fdef.args.args[0].id, init.__globals__
    k = 1 if body and _is_docstring(body[0]) else 0
    if k >= len(body) or not isinstance(body[k], gast.Expr) or \
            not isinstance(body[k].value, gast.Call):
        return None
    call = body[k].value
    func = call.func
    if not isinstance(func, gast.Attribute) or func.attr != "__init__":
        return None
    mro = cls.__mro__
    target = func.value
    if _is_super(target, globals_):
        where = _super_start(target, init, me, globals_, names_of(fdef)["bound"])
        if where not in mro:                   # super() starts after it, as Python's
            return None
        rest = list(mro[mro.index(where) + 1:])
        args = call.args
    elif isinstance(target, gast.Name) and isinstance(globals_.get(target.id), type) and \
            target.id not in names_of(fdef)["bound"] and \
            call.args and isinstance(call.args[0], gast.Name) and call.args[0].id == me:
        named = globals_[target.id]
        if named not in mro[mro.index(owner) + 1:]:
            return None
        rest = list(named.__mro__)
        args = call.args[1:]
    else:
        return None
    base = next(c for c in rest if "__init__" in c.__dict__)
    return k, base, gast.Call(func=call.func, args=args, keywords=call.keywords)


def _is_super(target, globals_):
    return isinstance(target, gast.Call) and isinstance(target.func, gast.Name) and \
        target.func.id == "super" and not target.keywords and "super" not in globals_


def _super_start(target, init, me, globals_, bound):
    """The class `super()` (the defining class) or `super(C, self)` (C, a global class
    name the function does not rebind) starts after; None for any other form."""
    if not target.args:
        return _defining_class(init)
    if len(target.args) != 2 or not all(isinstance(a, gast.Name) for a in target.args):
        return None
    named, second = target.args
    if second.id != me or named.id in bound or not isinstance(globals_.get(named.id), type):
        return None
    return globals_[named.id]


def _defining_class(init):
    """The class whose body defined init (its `__class__` cell, what `super()` reads)."""
    free = init.__code__.co_freevars
    if "__class__" not in free or not init.__closure__:
        return None
    return init.__closure__[free.index("__class__")].cell_contents


def _is_docstring(stmt):
    return isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Constant) and \
        isinstance(stmt.value.value, str)


def inlined(call, stmt, me, base_fdef, base, mine, same_globals):
    """The statements standing for `stmt` (the base call): its arguments bound to the
    base's renamed parameters, then the base's renamed body; None when unsafe."""
    if any(isinstance(a, gast.Starred) for a in call.args) or \
            any(k.arg is None for k in call.keywords):
        return None
    base_me = base_fdef.args.args[0].id
    local = _locals(base_fdef)
    if local is None:
        return None
    reads = {n.id for n in names_below(base_fdef)} - local - {base_me}
    if reads & mine["bound"] or not same_globals(reads):
        return None                      # the base's globals would read something else
    taken = mine["all"] | {n.id for n in names_below(base_fdef)}
    renamed = {base_me: me}
    for name in sorted(local - {base_me}):
        new = f"{name}_{base.__name__}"
        while new in taken:
            new += "_"
        taken.add(new)
        renamed[name] = new
    binds = _bound(call, base.__dict__["__init__"], renamed)
    if binds is None:
        return None
    body = [s for s in base_fdef.body if not _is_docstring(s)]
    for node in names_below(gast.Module(body=body, type_ignores=[])):
        node.id = renamed.get(node.id, node.id)
    out = binds + body
    for s in out:
        for node in gast.walk(s):
            if "lineno" in node._attributes:
                gast.copy_location(node, stmt)
    return out


def _locals(fdef):
    """Names fdef binds (parameters, stores), or None when a comprehension's variable
    is also read outside it as a global (renaming it would change that read)."""
    inner = {id(n) for c in gast.walk(fdef) if isinstance(c, _SCOPES)
             for n in names_below(c)}
    names = names_below(fdef)
    outer = [n for n in names if id(n) not in inner]
    bound = {n.id for n in outer if not isinstance(n.ctx, gast.Load)}
    comp = {n.id for n in names if id(n) in inner and not isinstance(n.ctx, gast.Load)}
    if any(n.id in comp - bound for n in outer):
        return None
    return bound | comp


def _bound(call, base_init, renamed):
    """`w_A = <argument>` for each argument (in the order written), then `s_A = 2.0` for
    each parameter left to a literal default; None when the call does not bind."""
    params = list(inspect.signature(base_init).parameters.values())[1:]
    sig = inspect.Signature(params)
    try:
        bound = sig.bind(*call.args, **{k.arg: k.value for k in call.keywords})
    except TypeError:
        return None
    written = list(call.args) + [k.value for k in call.keywords]
    by_node = {id(v): name for name, v in bound.arguments.items()}
    out = [_assign(renamed[by_node[id(v)]], v) for v in written]
    for p in params:
        if p.name not in bound.arguments:
            if not isinstance(p.default, _LITERALS):
                return None
            out.append(_assign(renamed[p.name], gast.Constant(value=p.default, kind=None)))
    return out


def _assign(name, value):
    target = gast.Name(id=name, ctx=gast.Store(), annotation=None, type_comment=None)
    return gast.Assign(targets=[target], value=value, type_comment=None)


def names_of(fdef):
    """What fdef binds (parameters, stores, anywhere) and every name it uses."""
    names = names_below(fdef)
    return {"bound": {n.id for n in names if not isinstance(n.ctx, gast.Load)},
            "all": {n.id for n in names}}
