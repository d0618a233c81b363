"""A custom (rrule) rule's tangent, from the JVP it declares (`rrule(fn, jvp=...)`,
runtime/jvp.py custom_term), over its positional arguments:

    LINEAR    y = np.einsum("ij,jk", a, b)   ->   y_dot = np.einsum("ij,jk", a_dot, b)
                                                          + np.einsum("ij,jk", a, b_dot)
    JOINT     X, Y = np.meshgrid(x, y)       ->   t_dot = np.meshgrid(x_dot, zero_tangent(y))
    a function  y = np.gradient(f, h)        ->   y_dot = gradient_jvp((f_dot, h_dot), f, h)

A rule declaring none is refused, as is a differentiated value passed by keyword (the
declared JVP reads positions only).
"""
import gast

from runtime.jvp import JOINT, LINEAR

from ..ir.nodes import load
from ..ir.templates import clone
from .complex_terms import check_complex_custom
from .refusals import refuse
from .terms import _swap


def custom_tangent(fwd, s, prim):
    """The tangent expression of a custom rule's statement."""
    term = prim.rule.custom_jvp
    if term is None:
        refuse(fwd, prim, f"a call of `{prim.label}`, a custom (rrule) rule declaring no "
               "JVP", _hint(prim.label))
    check_complex_custom(fwd, prim, term)
    if any(fwd.is_active(a) for _, a in prim.operands):
        refuse(fwd, prim, f"a differentiated value passed by keyword to `{prim.label}`, a "
               "custom (rrule) rule", "pass it by position")
    call = s.value
    if not isinstance(call, gast.Call) or any(isinstance(a, gast.Starred) for a in call.args) \
            or len(call.args) != len(prim.args) or \
            any(a is not b for a, b in zip(call.args, prim.args)):
        refuse(fwd, prim, f"a call of `{prim.label}` whose arguments it cannot follow",
               "pass the arguments by position, plainly, or use vjp")
    active = [a for a in prim.args if fwd.is_active(a)]
    if term == JOINT:
        return _swapped(call, {id(a): fwd.tangent_or_zero(a) for a in prim.args})
    if term == LINEAR:
        total = None
        for a in active:
            one = _swapped(call, {id(a): load(fwd.dot(a.id))})
            total = one if total is None else gast.BinOp(left=total, op=gast.Add(), right=one)
        return total
    tangents = gast.Tuple(elts=[load(fwd.dot(a.id)) if fwd.is_active(a) else
                                gast.Constant(value=None, kind=None) for a in prim.args],
                          ctx=gast.Load())
    return gast.Call(func=load(_global(fwd, term)), args=[tangents] + clone(call.args),
                     keywords=clone(call.keywords))


def _swapped(call, swaps):
    return _swap(call, swaps)[0]


def _global(fwd, fn):
    """The generated code's name for the rule's JVP function."""
    key = ("custom_jvp", id(fn))
    if key not in fwd.builtins:
        fwd.builtins[key] = fwd.names.reserve(getattr(fn, "__name__", "custom_jvp"))
        fwd.ctx.globals[fwd.builtins[key]] = fn
    return fwd.builtins[key]


def _hint(label):
    product = " (for np.einsum, write the product with `@`, np.matmul or np.tensordot, " \
        "which forward mode differentiates)" if label.endswith("einsum") else ""
    return ("declare the rule's JVP (`rrule(fn, jvp=LINEAR)`, JOINT or a function of "
            "(tangents, *args), docs/forward.md), or use vjp/jacrev for this function"
            f"{product}")
