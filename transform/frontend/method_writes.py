"""Stage 1: a method that sets attributes of `self`, called on an object only the
calling function sees, as a function returning its result and the new object:

    class RNN:                                 (compiled for the call below)
        def step(self, x):                     def step(self, x):
            self.h = np.tanh(...)        ->        self = with_attribute(self, "h", np.tanh(...))
            return self.h                          return (self.h, self)

    r.step(x)                            ->    stepped = step_writing_self(r, x)
    y = r.step(x)                              r = stepped[1]; y = stepped[0]

The stand-in `step_writing_self` runs the method on a copy of the object when called
as it is (runtime/attributes.py call_writing_self) and is compiled from the method's
source rewritten as above (parse.py reads `thunkgrad_parse_as`).
"""
import inspect
import types
import weakref

import gast

from runtime.attributes import call_writing_self
from ..ir.nodes import const, load, located
from .generators import own_nodes

_MADE = weakref.WeakKeyDictionary()         # class -> {method name: its stand-in}


def stand_in(cls, method):
    """The function standing for cls's `method` returning (result, new object)."""
    made = _MADE.setdefault(cls, {})
    if method.__name__ not in made:
        made[method.__name__] = _made(cls, method)
    return made[method.__name__]


def _made(cls, method):
    def template(_thunkgrad_method, _thunkgrad_call):
        def call(obj, *args, **kwargs):
            return _thunkgrad_call(_thunkgrad_method, obj, *args, **kwargs)
        return call
    proto = template(method, call_writing_self)
    made = types.FunctionType(proto.__code__, method.__globals__,
                              method.__name__, None, proto.__closure__)
    made.__signature__ = inspect.signature(method)
    made.__qualname__, made.__module__ = method.__qualname__, method.__module__
    made.thunkgrad_parse_as = (method, cls)
    return made


def returning_self(node):
    """Rewrite the method's FunctionDef: each `return v` becomes `return (v, self)`, and
    one more at the end returns `(None, self)`."""
    first = node.args.args[0].id
    for n in list(own_nodes(node.body)):
        if isinstance(n, gast.Return):
            n.value = _pair(n.value or const(None), first)
    if not isinstance(node.body[-1], gast.Return):
        end = gast.Return(value=_pair(const(None), first))
        node.body.append(located(end, node.body[-1]))
    return first


def _pair(value, first):
    return gast.Tuple(elts=[value, load(first)], ctx=gast.Load())
