"""`super().name(args)` in a method: reverse and forward mode see a call of the function
super() finds, with the object passed explicitly (runtime/supers.py):

    super().__call__(h) * 2.0   ->   super_function(__class__, self, '__call__')(self, h) * 2.0
    super(C, obj).f(x)          ->   super_function(C, obj, 'f')(obj, x)

A `super` proxy is a value no derivative flows through: called through it, the method's
object (a differentiated layer's weights) would get no cotangent and no tangent. Python's
zero-argument super() reads the function's first argument and its `__class__` cell; so
does the rewrite (the cell is the user's own, generated code is compiled in its class).
Any other use of super (`m = super().f`, `s = super()`) is refused.
"""
import builtins

import gast

from runtime.supers import super_function


def rewrite_super_calls(src):
    """Rewrite every `super().name(...)` call in src.node in place; refuse other uses."""
    own = list(_own_nodes(src.node))
    if not any(isinstance(n, gast.Name) and n.id == "super" for n in own) \
            or src.lookup_global("super") is not builtins.super or "super" in src.locals:
        return
    for call in [n for n in own if _proxy_call(src, n)]:
        proxy = call.func.value
        cls, obj = proxy.args or [_load("__class__"), _load(src.params[0])]
        helper = _load("super_function")
        helper.runtime_helper = super_function
        call.func = gast.Call(func=helper, args=[cls, obj, gast.Constant(
            value=call.func.attr, kind=None)], keywords=[])
        call.args = [_load(obj.id)] + call.args
        for node in gast.walk(call):
            gast.copy_location(node, call)
    for node in _own_nodes(src.node):
        if isinstance(node, gast.Name) and node.id == "super":
            raise src.error("super() is differentiated only in a method call through it, "
                            "`super().name(...)` (or `super(C, obj).name(...)`, obj a "
                            "name): a super object or a method read from one carries no "
                            "derivative of the object", node,
                            hint="call the method through super() where it is used: "
                            "`super().name(args)`")
    src.refresh()


def _proxy_call(src, node):
    """`super().name(...)` in a def with a `__class__` cell and a first parameter, or
    `super(C, obj).name(...)` with obj a name."""
    if not (isinstance(node, gast.Call) and isinstance(node.func, gast.Attribute) and
            isinstance(node.func.value, gast.Call) and
            isinstance(node.func.value.func, gast.Name) and
            node.func.value.func.id == "super" and not node.func.value.keywords):
        return False
    args = node.func.value.args
    if not args:
        return "__class__" in src.fn.__code__.co_freevars and bool(src.params)
    return len(args) == 2 and isinstance(args[1], gast.Name) and \
        not any(isinstance(a, gast.Starred) for a in args)


def _own_nodes(fdef):
    """The nodes of fdef's body, not those of a def, lambda or class inside it (their
    super() reads their own first argument; they are compiled on their own)."""
    work = list(fdef.body)
    while work:
        node = work.pop()
        yield node
        if not isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda,
                                 gast.ClassDef)):
            work.extend(gast.iter_child_nodes(node))


def _load(name):
    return gast.Name(id=name, ctx=gast.Load(), annotation=None, type_comment=None)
