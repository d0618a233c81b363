"""Whether the receiver of `r.mean()` may be a user object rather than an array.

`.mean()`, `.sum()`, `.std()` are ndarray methods with rules (np.mean, ...), but a
user class may define a method of the same name (`dist.mean()`, `model.sum(x)`).
The source often shows which it is; where it does not, the call is dispatched on
the receiver's type when it runs:

    y = x.sum()       (x an array argument)  ->  y = np.sum(x)            (a rule)
    y = d.mean(x)     (d a global Dist)      ->  y = <Dist.mean compiled>(d, x)
    y = m.mean()      (m a helper's argument) ->  cond = is_user_object(m, "mean")
                                                 if cond: y = <type(m).mean>(m)
                                                 else:    y = np.mean(m)
"""
import inspect
import types

import gast
import numpy as np

from runtime.containers import ARRAY_LIKE, is_user_object
from runtime.registry import method_function

from ..ir.primitives import rule_for
from .sequence_kinds import _name_may_be

_PLAIN = (gast.Constant, gast.BinOp, gast.UnaryOp, gast.Compare, gast.BoolOp, gast.List,
          gast.Tuple, gast.ListComp, gast.Dict, gast.DictComp, gast.JoinedStr)


def receiver_kind(src, node, name):
    """"array" (the ndarray method's rule applies), "object" (a user object known at
    compile time: its own method) or "unknown" (dispatch when the code runs)."""
    if name.startswith("__") or not hasattr(np.ndarray, name) or \
            not may_be_object(src, node):          # `cm.__enter__()`, `d.keys()`: as before
        return "array"
    static = _static_value(src, node)
    if static is not None:
        return "object" if is_user_object(static, name) else "array"
    return "unknown"


def may_be_object(src, node, seen=None):
    """Whether `node` may hold something other than an array, number or container."""
    if isinstance(node, gast.BoolOp):
        return any(may_be_object(src, v, seen) for v in node.values)
    if isinstance(node, _PLAIN):
        return False
    if isinstance(node, gast.IfExp):
        return may_be_object(src, node.body, seen) or may_be_object(src, node.orelse, seen)
    if isinstance(node, gast.Call):
        return _call_may_be_object(src, node, seen)
    if isinstance(node, gast.Name) and (node.id in src.locals or node.id in src.params):
        return _name_may_be(src, node, seen, may_be_object, (None,))
    if isinstance(node, gast.Name):
        static = src.resolve(node)
        return static is None or not isinstance(static, ARRAY_LIKE)
    if isinstance(node, (gast.Attribute, gast.Subscript)):      # `x.T`, `x[0]` of an array
        static = _static_value(src, node)
        if static is not None:
            return not isinstance(static, ARRAY_LIKE)
        return may_not_be_array(src, node.value, seen)     # `models["a"]`, `self.w`
    return True


_CONTAINERS = (gast.List, gast.Tuple, gast.ListComp, gast.Dict, gast.DictComp, gast.Set)


def may_not_be_array(src, node, seen=None):
    """Whether `node` may be something other than an array or number (a container
    whose items may be objects, an object): its items or attributes may be objects."""
    if isinstance(node, _CONTAINERS):
        return True
    if isinstance(node, gast.Name) and node.id in src.params:
        return getattr(src, "param_kinds", {}).get(node.id) not in ("array", "scalar")
    if isinstance(node, gast.Name) and node.id in src.locals:
        return _name_may_be(src, node, seen, may_not_be_array, ())
    if isinstance(node, gast.Name):
        static = src.resolve(node)
        return not isinstance(static, (np.ndarray, np.generic, int, float, complex))
    return may_be_object(src, node, seen)


def _call_may_be_object(src, node, seen):
    func = node.func
    if isinstance(func, gast.Attribute) and method_function(func.attr) is not None and \
            not may_be_object(src, func.value, seen):
        return False                             # an array method of an array
    try:
        fn = src.resolve(func)
    except TypeError:
        return True
    if fn is None or getattr(fn, "may_return_object", False):   # (flat_dispatch.rule_call)
        return True
    if isinstance(fn, type):                     # float(x), np.float64(x): numbers
        return not (fn.__module__ == "builtins" or fn.__module__.startswith("numpy"))
    return rule_for(fn) is None or _library_object(fn)


def _library_object(fn):
    """A SciPy distribution called to freeze it (`norm(mu, s)` has methods of its own)."""
    module = getattr(type(fn), "__module__", "") or ""
    return module.startswith("scipy.stats")


def _static_value(src, node):
    """The object a global or closure name (or a dotted path through one) denotes."""
    if isinstance(node, gast.Name) and (node.id in src.locals or node.id in src.params):
        return None
    if not isinstance(node, (gast.Name, gast.Attribute)):
        return None
    try:
        return src.resolve(node)
    except Exception:                            # a property that raises, ...
        return None


def method_rule(fn):
    """The rule registered for the function behind a bound method (`log.info` ->
    `logging.Logger.info`): only no-derivative rules, which ignore the receiver."""
    rule = rule_for(getattr(fn, "__func__", None)) if isinstance(fn, types.MethodType) \
        else None
    return rule if rule is not None and rule.kind == "nondiff" else None


def bound_method(fn):
    """`obj.f` for a global or closure instance `obj`: called as a method (dispatched on
    type(obj), obj passed as self), not as the bare function f."""
    return isinstance(fn, types.MethodType) and rule_for(fn) is None and \
        method_rule(fn) is None                # (a classmethod: obj the class itself)


def callable_object(fn):
    """An instance whose class defines `__call__` in Python (`lin(x)` for a global
    `lin = Lin()`): dispatched on its type when called, a registered rule first."""
    return fn is not None and not isinstance(fn, type) and rule_for(fn) is None and \
        getattr(fn, "__code__", None) is None and \
        inspect.isfunction(getattr(type(fn), "__call__", None))
