"""Forward-mode rules: the tangent terms a template rule declares beside its cotangents
(docs/forward.md).

`defvjp(fn, "x, y", vjp_x, vjp_y, jvp=...)` gives, per differentiated parameter p, the
term J_p t_p that p's tangent `t_p` adds to the output's tangent; the output's tangent
is the sum of the terms of the arguments that have one. A term is

- a template: an expression in `t_<param>` (that parameter's tangent), `ans`, the
  parameters and the template namespace: `"t_x * np.cos(x)"`;
- LINEAR, for a function linear in that argument when the others are held: the function
  itself, called with the tangent in the argument's place (`np.sum(t_a, axis)`);
- JOINT, for a function linear in the arguments marked JOINT taken together (and so
  affine in each: np.append, np.linspace, np.interp's fp, left and right): the function
  called with this argument's tangent and zeros for the other JOINT arguments;
- REDUCTION, for a reduction along the rule's `axis` (None: all axes; `keepdims` too):
  each output depends on its own slice only, so its tangent is the VJP template at a
  cotangent of ones (the slopes) against the slice's tangents, summed over the slice;
- DIAGONAL, for a Jacobian that is diagonal once the arguments are broadcast to the
  output (elementwise functions): J^T = J, so the term is the VJP template with the
  tangent, broadcast to the output, as its cotangent `g` and the argument broadcast too
  (its `unbroadcast` then sums nothing). Rules declared `elementwise` or `scalar_args`
  get DIAGONAL without saying so.

`Rule.frule(tangents, *args)` evaluates the terms at run time (registry.py), so a
forward-mode compiler and the tests share one definition, as `Rule.rrule` does for the
cotangents.
"""
import numpy as np

LINEAR = "linear"
JOINT = "joint"
DIAGONAL = "diagonal"
REDUCTION = "reduction"
MARKERS = (LINEAR, JOINT, DIAGONAL, REDUCTION)


class NoJvp(NotImplementedError):
    """The rule declares no tangent term for an argument given a nonzero tangent."""


def declared_terms(params, templates, jvp, diagonal):
    """{param: term} for the parameters with a VJP template: `jvp` as defvjp takes it (a
    marker for all of them, the one template of a rule differentiating one parameter, or
    a tuple of terms in parameter order), DIAGONAL for all when it is None and the
    rule's traits say `diagonal`."""
    if jvp is None:
        return {p: DIAGONAL for p in templates} if diagonal else {}
    if jvp in MARKERS:
        return {p: jvp for p in templates}
    if isinstance(jvp, str):
        if len(templates) != 1:
            raise ValueError("one JVP template for several differentiated parameters")
        return {p: jvp for p in templates}
    if len(jvp) > len(params):
        raise ValueError(f"{len(jvp)} JVP terms for {len(params)} parameters")
    return {p: term for p, term in zip(params, jvp) if p in templates and term is not None}


def compile_term(text, param, own):
    """A template term as a function of (t_param, ans, **own)."""
    args = ", ".join([f"t_{param}", "ans"] + own)
    return f"lambda {args}: {text}"


def linear_term(fn, args, kwargs, replace):
    """fn called with the arguments at `replace`'s keys (a position or a keyword's name)
    replaced by its values: a tangent, and for JOINT the other arguments' zeros."""
    args, kwargs = list(args), dict(kwargs)
    for place, value in replace.items():
        if isinstance(place, int):
            args[place] = value
        else:
            kwargs[place] = value
    return fn(*args, **kwargs)


def zeros_of(value):
    """A zero of value's kind: None (and a string, a key) stays None, lists, tuples and
    dicts entry by entry."""
    if isinstance(value, (list, tuple)):
        return type(value)(zeros_of(v) for v in value)
    if isinstance(value, dict):
        return {k: zeros_of(v) for k, v in value.items()}
    return None if value is None or isinstance(value, str) else 0 * value


def diagonal_term(vjp, param, tangent, ans, own):
    """The VJP template of a diagonal Jacobian evaluated at the tangent (J^T = J)."""
    if isinstance(ans, (tuple, list)):
        raise NoJvp("a diagonal JVP needs one array output")
    shape = np.shape(ans)
    own = dict(own)
    if param in own:                # (a parameter named g or ans is not the template's)
        own[param] = _broadcast(own[param], shape)
    return vjp(_broadcast(tangent, shape), ans, **own)


def reduction_term(vjp, tangent, ans, own):
    """A reduction's tangent: its VJP at a cotangent of ones (each output's slopes on its
    slice) against the tangent, summed along the rule's `axis` (keepdims kept)."""
    slopes = vjp(np.ones_like(ans), ans, **own)
    return np.sum(slopes * tangent, axis=own["axis"], keepdims=own.get("keepdims", False))


def _broadcast(value, shape):
    return value if np.shape(value) == shape else np.broadcast_to(value, shape)


def add_tangents(total, term):
    """total + term, None standing for zero; tuples, lists and dicts entry by entry."""
    if total is None:
        return term
    if term is None:
        return total
    if isinstance(total, dict):                 # a frozen distribution's, by parameter
        return {k: add_tangents(total.get(k), term.get(k)) for k in {**total, **term}}
    if isinstance(total, (tuple, list)):
        entries = [add_tangents(a, b) for a, b in zip(total, term)]
        return entries if isinstance(total, list) else tuple(entries)
    return total + term


def custom_term(term, fn, tangents, args, kwargs):
    """A custom (rrule) rule's tangent, its varargs' tangents by position (None: zero):
    JOINT, fn of the tangents with zeros for the other arguments (fn linear in them
    together: np.meshgrid, np.broadcast_arrays), or LINEAR, the sum of fn with one
    argument replaced by its tangent (fn linear in each: np.einsum's operands), or a
    function of (tangents, *args, **kwargs) giving the output's tangent (np.gradient)."""
    tangents = list(tangents) + [None] * (len(args) - len(tangents))
    if all(t is None for t in tangents):
        return None
    if callable(term):
        return term(tuple(tangents), *args, **kwargs)
    if term == JOINT:
        return fn(*[zeros_of(a) if t is None else t for t, a in zip(tangents, args)], **kwargs)
    total = None
    for k, t in enumerate(tangents):
        if t is not None:
            total = add_tangents(total, fn(*args[:k], t, *args[k + 1:], **kwargs))
    return total
