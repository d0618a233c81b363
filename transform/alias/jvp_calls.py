"""`d, d_dot = call_jvp(helper, {'x': x_dot}, x)` in forward mode's generated code, read
by reverse mode's alias analysis (hvp, hessian, grad of grad differentiate that code).

call_jvp runs the helper's compiled `_jvp`, which computes the helper's primal result
with the helper's own operations: it shares memory with the arguments the helper's
summary names (summaries.returned_params), never with a tangent. Its tangent result is
made from the tangents and shares memory only with the tangents of those same
parameters (a helper returning `x[0]` gives `x_dot[0]`): a term's product with a primal
is a new array, and no tangent is written in place (runtime.forward.stored_tangent
copies). So the pair is a new tuple of two entries, each read from the summary, in place
of "any argument or part of one" (which refused `d = helper(x); d["c"] = ...`, accepted
by grad and jvp). Anything else (a rule, a derivative function, a helper without a
summary, tangents not given as a display of names) keeps the unknown call's answer.
"""
import inspect

import gast

from runtime import registry

JVP_CALL = "thunkgrad_jvp_call"     # on transform.forward_api.call_jvp
RUNTIME = ("runtime", "transform")


def jvp_call_value(exprs, e, fn, args, kwargs):
    """The Value of `call_jvp(helper, {...}, *args, **kwargs)`, or None (not known)."""
    if not getattr(fn, JVP_CALL, False) or len(e.args) < 2:
        return None
    callee = exprs.src.resolve(e.args[0])
    tangents = e.args[1]
    if not _plain_helper(callee) or not isinstance(tangents, gast.Dict) or not all(
            isinstance(k, gast.Constant) and isinstance(v, gast.Name)
            for k, v in zip(tangents.keys, tangents.values)):
        return None
    params = exprs.helpers.returned_params(callee)
    bound = exprs.helpers.bind(callee, args[2:], kwargs) if params is not None else None
    if bound is None:
        return None
    nodes = e.args[2:] + [k.value for k in e.keywords]
    exprs.check.calls.helper_writes(e, callee, dict(zip(map(id, nodes),
                                                        args[2:] + list(kwargs.values()))))
    names = list(inspect.signature(callee).parameters)
    dotted = [exprs.value(v) for k, v in zip(tangents.keys, tangents.values)
              if _name(k.value, names) in params]
    primal = exprs.unknown_result(e, [value for name, value in bound if name in params])
    tangent = exprs.unknown_result(e.args[0], dotted)
    pair = exprs.fresh(e.func, holds=primal.objs | tangent.objs)
    pair.elements = [primal, tangent]
    return pair


def _plain_helper(fn):
    """A user's function compiled by call_jvp from its source (no rule, no derivative
    function, not this package's)."""
    return inspect.isfunction(fn) and registry.lookup(fn) is None and \
        (fn.__module__ or "").split(".")[0] not in RUNTIME and \
        "thunkgrad_derivative_of" not in fn.__dict__


def _name(key, names):
    """A tangent's key: a parameter name, or a position (a helper called as a value)."""
    return names[key] if isinstance(key, int) and 0 <= key < len(names) else key
