"""What the public API refuses up front, said in the user's terms.

    grad(3)                      -> TypeError: grad needs a function, not int 3
    grad(Model)                  -> TypeError: Model is a class ...
    grad(hessian(f))             -> TransformError at f's def: not supported ...
"""
import ast
import dataclasses
import inspect
import numbers
import textwrap

import numpy as np

from runtime import registry

from ..errors import TransformError, at_definition
from .partials import unpartial

DERIVATIVE = "thunkgrad_derivative_of"   # attribute on the functions grad & co. return
SPEC = "thunkgrad_derivative"   # on those that can be differentiated again (derivatives.py)


def check_target(fn, entry):
    """Refuse what `entry` (grad, value_and_grad, vjp, adjoint_source) cannot take; fn,
    or for a functools.partial the function differentiated instead (partials.py)."""
    if inspect.isclass(fn):
        raise TypeError(f"{entry}({fn.__name__}): {fn.__name__} is a class; differentiate "
                        f"a function, or a method of an instance: {entry}(obj.method)")
    if not callable(fn):
        raise TypeError(f"{entry} needs a function, not {type(fn).__name__} {fn!r}")
    inner = getattr(fn, DERIVATIVE, None)
    if inner is not None and SPEC not in getattr(fn, "__dict__", {}):
        raise _higher_order(entry, inner)
    fn = unpartial(fn)                # a functools.partial: a function calling its own
    refuse_async(fn, entry)
    return fn


def refuse_async(fn, entry):
    """grad(async_fn): calling it makes a coroutine (or an async generator), no value;
    also through a functools.wraps wrapper (@differentiable)."""
    try:
        fn = inspect.unwrap(fn)
    except ValueError:                          # a cycle of __wrapped__
        return
    if inspect.iscoroutinefunction(fn) or inspect.isasyncgenfunction(fn):
        name = getattr(fn, "__qualname__", getattr(fn, "__name__", "the function"))
        message = (f"{entry} of {name}, an `async def` function: calling it makes a "
                   "coroutine, not a value to differentiate (`await`, `async for`, `async "
                   "with` neither)")
        hint = ("differentiate a synchronous function (drop `async` and `await`), e.g. the "
                "computation the coroutine awaits")
        raise _first_await(fn, message, hint) or at_definition(fn, message, hint, "async")


def _first_await(fn, message, hint):
    """The refusal at fn's first `await` (`async for`, `async with`), None without one."""
    try:
        lines, first = inspect.getsourcelines(fn)
        tree = ast.parse(textwrap.dedent("".join(lines)))
    except (OSError, TypeError, SyntaxError):
        return None
    found = sorted((n.lineno, n.col_offset) for n in ast.walk(tree)
                   if isinstance(n, (ast.Await, ast.AsyncFor, ast.AsyncWith)))
    if not found:
        return None
    (k, col), text = found[0], lines[found[0][0] - 1]
    indent = len(lines[0]) - len(lines[0].lstrip())
    return TransformError(message, filename=fn.__code__.co_filename, line=first + k - 1,
                          col=col + indent, source_line=text.rstrip("\n"), hint=hint)


def _higher_order(entry, inner):
    """grad(hessian(f)): located at f's def, not at the wrapper in this package."""
    code = getattr(inner, "__code__", None)
    name = getattr(inner, "__qualname__", repr(inner))
    if code is None or registry.lookup(inner) is not None:     # grad(np.einsum)
        return TransformError(
            f"{entry} of a derivative of {name} is not supported: {name} is differentiated "
            "by its registered rule, which gives first derivatives only"
            + ("" if code is None else " (its source is not read)"),
            filename=getattr(code, "co_filename", None),
            line=getattr(code, "co_firstlineno", None),
            hint=f"call {name} inside a function of your own and differentiate that "
                 "twice (grad(grad(f)), hessian(f))")
    return TransformError(
        f"{entry} of this derivative of {name} (made by hessian, hvp, jacfwd, jacrev, "
        "vjp, or grad of a bound method) is not supported: higher derivatives are taken "
        "of what grad and value_and_grad return, and jacfwd/jacrev of what jacfwd, "
        "jacrev and hessian return (one argument each)",
        filename=getattr(code, "co_filename", None),
        line=getattr(code, "co_firstlineno", None),
        hint="write the derivative with grad or value_and_grad of a function of your own "
             "(grad(grad(f)), hessian(grad(f)) work), or take finite differences")


def mark_derivative(wrapper, fn):
    """Tag a function grad & co. returned: differentiating it again is refused unless
    transform/derivatives.py attaches a rule. What functools.wraps copied from fn's
    __dict__ (a `differentiable` policy, fn's own derivative record) is not the
    wrapper's."""
    for copied in ("thunkgrad_policy", SPEC, "thunkgrad_rule", "thunkgrad_tangent_functions",
                   "thunkgrad_unit_function", "thunkgrad_jacobian"):
        wrapper.__dict__.pop(copied, None)
    setattr(wrapper, DERIVATIVE, fn)
    wrapper.thunkgrad_rule = registry.Rule(wrapper, "custom", custom=_refusing_rule(wrapper, fn))
    wrapper.thunkgrad_rule.refused = True    # analysis/reasons.py refuses at the call
    return wrapper


def _refusing_rule(wrapper, fn):
    """The rule of a derivative function that cannot be differentiated again, called
    inside code being differentiated: its value, and a refusal (at fn's def) if a
    derivative reaches it (its source, this package's, is never compiled)."""
    def refused_rrule(*args, **kwargs):
        def pullback(g):
            raise _higher_order("grad", fn)
        return wrapper(*args, **kwargs), pullback
    return refused_rrule


def describe_output(out):
    """`tuple of 2 values`, `ndarray of shape (3,)`, `a Box object`: never fails."""
    if isinstance(out, (tuple, list)):
        return f"{type(out).__name__} of {len(out)} values"
    if _is_object(out):
        return f"a {type(out).__name__} object"
    try:
        return f"{type(out).__name__} of shape {np.shape(out)}"
    except Exception:                      # noqa: BLE001 - a ragged or odd object
        return type(out).__name__


def not_scalar(fn, out):
    """The TypeError for grad of a function whose output is not a scalar, naming the
    line of its return statement (of its def when it has several)."""
    name = getattr(fn, "__name__", "f")
    advice = "use vjp for non-scalar outputs"
    if _is_object(out):
        held = next((k for k, v in vars(out).items() if isinstance(v, np.ndarray)), "w") \
            if hasattr(out, "__dict__") else "w"
        advice = (f"return a number made from the arrays it holds (`np.sum(obj.{held})`; "
                  "a NumPy function gives back an object that is not an array unchanged: "
                  "`np.sum(obj)` is `obj`), or use vjp")
    if isinstance(out, tuple) and out:
        advice = ("to return auxiliary values with the loss, return (loss, aux) and "
                  "use grad(f, has_aux=True), which returns (gradient, aux)")
    if isinstance(out, (complex, np.complexfloating)) or \
            isinstance(out, np.ndarray) and out.dtype.kind == "c" and out.ndim == 0:
        advice = ("a complex loss has no gradient; return a real one such as "
                  "np.real(...), np.abs(...) or np.abs(...) ** 2 (docs/complex.md)")
    return TypeError(f"grad needs a scalar output, but {name}(){returned_at(fn)} returned "
                     f"{describe_output(out)}; {advice}")


def _is_object(out):
    """An instance of a class that is no number, array, container or string."""
    return not isinstance(out, (np.ndarray, np.generic, int, float, complex, str, bytes,
                                tuple, list, dict, set, type(None)))


def returned_at(fn):
    """` (file:line)` of fn's one return statement, else of its def; "" if unknown."""
    code = getattr(fn, "__code__", None)
    if code is None:
        return ""
    line = code.co_firstlineno
    try:
        lines, first = inspect.getsourcelines(fn)
        tree = ast.parse(textwrap.dedent("".join(lines)))
    except (OSError, TypeError, SyntaxError):
        return f" ({code.co_filename}:{line})"
    returns = [n for n in _own_nodes(tree.body[0]) if isinstance(n, ast.Return)]
    if len(returns) == 1:
        line = first + returns[0].lineno - 1
    return f" ({code.co_filename}:{line})"


def _own_nodes(fdef):
    """The nodes of a def's body outside nested defs, lambdas and classes."""
    todo = list(fdef.body) if hasattr(fdef, "body") else []
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda,
                                 ast.ClassDef)):
            todo.extend(ast.iter_child_nodes(node))


def check_cotangent(cotangent, out=None, fn=None):
    """The cotangent as the pullback reads it. A list or tuple given for an array output
    is read as an array (generated code would apply Python's list arithmetic to it:
    `g * 2` repeats a list, a crash or, for one entry, a wrong gradient); it must then
    have the output's shape."""
    if cotangent is None:
        raise TypeError("the pullback needs a cotangent shaped like the output (1.0 for a "
                        "scalar output), not None")
    if isinstance(cotangent, (str, bytes)):
        raise TypeError(f"the pullback needs a float cotangent shaped like the output, not "
                        f"{type(cotangent).__name__} {cotangent!r}")
    _check_kind(cotangent, out, fn)
    if isinstance(out, (np.ndarray, np.generic)) and isinstance(cotangent, (list, tuple)):
        cotangent = np.asarray(cotangent)
        if cotangent.shape != np.shape(out):
            raise ValueError(f"the pullback needs a cotangent shaped like the output, "
                             f"{np.shape(out)}; the list given has shape {cotangent.shape}")
    check_array_shapes(cotangent, out, "the output")
    return cotangent


def _check_kind(cotangent, out, fn=None):
    """A number or array given for a None output, a number for a tuple or list output
    (an array stacking its entries' cotangents is read as such): a TypeError, not a
    gradient of zeros (`return` forgotten) or a crash inside the backward sweep."""
    given = isinstance(cotangent, (numbers.Number, np.ndarray, np.generic))
    which = "the function" if fn is None else f"{fn.__name__}(){returned_at(fn)}"
    if out is None and given:
        raise TypeError(f"{which} returned None (a `return` missing?): nothing to "
                        "differentiate; return the value the cotangent is for")
    if isinstance(out, (str, bytes)) and given:
        raise TypeError(f"{which} returned a {type(out).__name__}: nothing to "
                        "differentiate; return the float value the cotangent is for")
    if isinstance(out, (tuple, list)) and isinstance(cotangent, (numbers.Number, np.generic)):
        raise TypeError(f"the output is a {type(out).__name__} of {len(out)}: the pullback "
                        f"needs a {type(out).__name__} of {len(out)} cotangents, one per "
                        "entry (None for an entry not differentiated)")


def check_array_shapes(cotangent, out, where):
    """An array cotangent of an array or number in the output (also inside tuples, lists,
    dicts and dataclasses given by field) must have its shape: NumPy would broadcast
    ones(1) or ones((3, 1)) against a (3,) output, a silently wrong product."""
    if isinstance(cotangent, np.ndarray):
        if isinstance(out, (np.ndarray, np.generic, float, int, complex)) and \
                cotangent.shape != np.shape(out):
            raise ValueError(f"the pullback needs a cotangent shaped like {where}, "
                             f"{np.shape(out)}; the array given has shape {cotangent.shape}")
        return
    for key, part in _parts(cotangent, out):
        check_array_shapes(part, _part_of(out, key), f"{where}[{key!r}]")


def _parts(cotangent, out):
    """(key, cotangent part) pairs where the cotangent's structure matches the output's."""
    if isinstance(cotangent, (tuple, list)) and isinstance(out, (tuple, list)) and \
            len(cotangent) == len(out):
        return list(enumerate(cotangent))
    if isinstance(cotangent, dict) and (isinstance(out, dict) or _is_record(out)):
        return list(cotangent.items())
    if _is_record(out) and type(cotangent) is type(out):
        return [(f.name, getattr(cotangent, f.name)) for f in dataclasses.fields(out)]
    return []


def _part_of(out, key):
    if isinstance(out, dict):
        return out.get(key)
    if _is_record(out):
        return getattr(out, key, None) if isinstance(key, str) else None
    return out[key]


def _is_record(value):
    return dataclasses.is_dataclass(value) and not isinstance(value, type)


def refuse_integer_containers(names, values):
    """A list or tuple holding only integers is differentiated with respect to nothing:
    refused as a plain int is, instead of returning a gradient of Nones."""
    for name, value in zip(names, values):
        if isinstance(value, (list, tuple, dict)) and _leaves(value) and \
                all(_integral(v) for v in _leaves(value)):
            raise TypeError(f"cannot differentiate with respect to {name!r}: it is a "
                            f"{type(value).__name__} of integers, with no float or float "
                            "array in it (pass floats: [1.0, 2.0])")


def _leaves(value):
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, (list, tuple)):
        return [leaf for v in value for leaf in _leaves(v)]
    return [value]


def _integral(value):
    if isinstance(value, np.ndarray):
        return value.dtype.kind in "biu"
    return isinstance(value, (bool, int, np.integer))


def refuse_positions_without_rule(rule, positions):
    """A rule's position with no template and reason NONE (a Bessel function's order)
    has a derivative no rule gives: never a silent zero."""
    for k in positions:
        name = rule.params[k] if k < len(rule.params) else None
        if name is not None and name not in rule.templates and \
                rule.reason(name) == registry.NONE:
            raise TransformError(f"{rule.name} has no derivative rule for its argument "
                                 f"{name!r}", hint="differentiate another argument, or "
                                 "register a rule with transform.rrule")
