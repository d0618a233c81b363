"""hvp and hessian: second derivatives of a scalar function. The default route, "auto",
runs forward mode over reverse mode's gradient (transform/hvp_forward.py, the faster)
where that compiles, and reverse mode over forward mode's tangent code where it refuses
at compile time; `route="forward_over_reverse"` or `route="reverse_over_forward"` takes
one alone (docs/forward.md: forward over reverse refuses more programs, a few of them
only once its code runs, which auto then raises: it never runs the user's code twice).

    hv = hvp(f, (x, y), (v,))          H v for the argument wrt=0, shaped like x
    H = hessian(f)(x, y)               x.shape + x.shape (a float for a float x)

Reverse over forward (docs/forward.md "Hessian-vector products"): forward mode compiles
`f_tan(x_dot, x)` from f's source (plain generated code whose source is registered,
returning the tangent alone), and reverse mode differentiates that generated function
like user code: H v is the gradient of x -> <the tangent of f(x) along v>, taken by a
`grad` of `f_tan` kept per compiled rule (transform/tangent_grad.py). A tuple `wrt`
(mixed blocks) takes `vjp` of `f_jvp` with the cotangent (0, 1) instead. The Hessian
is never formed by hvp, on either route; `hessian` stacks one hvp per basis vector. The
runtime helpers generated forward code calls have reverse rules
(runtime/rules/tangents.py; a call of a user function: transform/forward_reverse.py);
code reaching a helper without one is refused before anything runs.
"""
import functools
import types

import numpy as np

from runtime.flat import gradient_seed
from runtime.forward import zero_tangent

from .api import adjoint_source, vjp
from .derivatives import as_function
from .generated_calls import refuse_helpers as _refuse_helpers
from .emit import tracebacks
from .errors import TransformError, at_definition
from .forward_api import _compiled
from .forward_arguments import _like, primals_tuple
from .forward_pipeline import refuse_generator
from .hessian_blocks import container_hessian
from .hvp_forward import chosen, prepared, run, source as forward_source
from .nested_jacobians import tag
from .public.boundary import _check_values, refuse_unbindable
from .public.field_reads import located_fields
from .public.checks import check_target, mark_derivative, refuse_async, returned_at
from .public.unshared import owned
from .public.sourced import check_arity, with_source
from .public.parameters import (_collecting, _full_signature, _method_parts, _unwrap,
                                _wrt_names, keywords_by_position)
from .tangent_grad import position, resolved, tangent_gradient


ROUTES = ("auto", "forward_over_reverse", "reverse_over_forward")
DEFAULT_ROUTE = "auto"


def hvp(fn, primals, tangents, *, wrt=0, policy=None, route=None):
    """The Hessian of scalar `fn` with respect to argument `wrt` (an index or a name),
    applied to `tangents[0]`, shaped like that argument; for a tuple `wrt`, the Hessian
    in those arguments together applied to one direction each (tangents[i] for wrt[i]):
    a tuple, entry i sum_j H_ij tangents[j]. `route`: "forward_over_reverse",
    "reverse_over_forward" or "auto" (None: DEFAULT_ROUTE, "auto"). See the module text."""
    fn = check_target(fn, "hvp")
    primals = primals_tuple(primals, "hvp")
    route = _route(route)
    plain, primals, wrt = _target(fn, primals, wrt)
    if isinstance(wrt, (tuple, list)):
        return owned(_mixed_hvp(plain, primals, tangents, wrt, policy, route),
                     (primals, tangents))
    return owned(_single(plain, primals, wrt, policy, route, tangents)(tangents[0]),
                 (primals, tangents))


_HESSIAN = object()     # _single's and _mixed's tangents for hessian's: none given


def _single(plain, primals, wrt, policy, route, tangents=_HESSIAN):
    """direction -> hvp along it with respect to one argument, its checks made once
    (hvp's tangents, hvp's and hessian's primals); compiled at the first direction,
    after that direction is checked (hvp's order), then reused: hessian's columns."""
    name, index, signature_of_call = resolved(plain, wrt)
    primals = tuple(primals)
    refuse_unbindable(plain, primals)               # not as `f_grad_tan()`'s TypeError
    if tangents is not _HESSIAN and (not isinstance(tangents, (tuple, list)) or
                                     len(tangents) != 1):
        raise TypeError(f"hvp: tangents must be a tuple with one entry, the direction for "
                        f"{name!r}, got {type(tangents).__name__}")
    if index >= len(primals):
        raise TypeError(f"hvp: pass {name!r} among the primals (it has a default)")
    _check_values((name,), (primals[index],))      # an int: every route's TypeError
    built = []

    def apply(tangent):
        direction = _direction(plain, name, primals[index], tangent)
        if not built:
            built.append(_product(plain, name, index, primals, policy, route,
                                  signature_of_call(primals)))
        return built[0](direction)
    return apply


def _target(fn, primals, wrt):
    """(plain function, primals with a bound method's receiver first, wrt)."""
    fn = with_source(as_function(fn, "hvp"))       # np.sum: a function calling it
    fn, receiver, wrt = _method_parts(fn, wrt)      # a bound method: its function
    primals = receiver + tuple(primals)
    plain = _plain(fn)
    check_arity(plain, "hvp", len(primals))         # np.sum(x, 0): name the axis
    return plain, primals, wrt


def _direction(plain, name, primal, tangent):
    with located_fields(plain, [(name, primal)], "hvp"):
        return _like(name, primal, tangent, entry="hvp")


def _product(plain, name, index, primals, policy, route, signature):
    """direction -> H direction for this call's primals, compiled and checked once: hvp
    runs it once, hessian once per basis vector (the same code, resolved one time)."""
    tangent = _forward_code(plain, (name,), primals, policy, signature, route)
    if tangent is not None:
        _seed_checked(plain, tangent, primals)
        return lambda direction: _scalar_checked(plain, lambda: run(
            tangent, (name,), primals, (direction,), (primals[index],))[0])
    rule = _compiled(plain, (name,), signature, variant="tangent")
    gradient = tangent_gradient(rule, index, policy, lambda: _refuse_helpers(plain, rule.rrule))

    def product(direction):
        try:
            return gradient(direction, *primals)
        except TypeError as exc:            # grad's, which names the generated function:
            if str(exc).startswith("grad needs a scalar output"):   # the output's instead
                _scalar_checked(plain, lambda: gradient_seed(plain(*primals)))
            raise
    return product


def _route(route):
    route = DEFAULT_ROUTE if route is None else route
    if route not in ROUTES:
        raise ValueError(f"hvp: unknown route {route!r}; choose one of {', '.join(ROUTES)}")
    return route


def _forward_code(plain, names, primals, policy, signature, route):
    """Forward over reverse's compiled code for this call, or None for reverse over
    forward: "auto" takes forward over reverse where it compiles (a compile-time
    refusal only: once its code runs, its refusals are the answer)."""
    if route == "forward_over_reverse":
        return prepared(plain, names, primals, policy, signature)
    if route == "auto":
        return chosen(plain, names, primals, policy, signature)
    return None


def _seed_checked(plain, tangent, primals):
    """The tangent code drops the gradient's seed where nothing reads it (an output not
    depending on the arguments: `return None`, `np.ones(3)`), and with it the seed's
    refusal of a non-scalar output: then the output is computed once and checked here."""
    if not _refers_to(tangent.rrule.__code__, "gradient_seed"):
        _scalar_checked(plain, lambda: gradient_seed(plain(*primals)))


def _refers_to(code, name):
    """Whether compiled code, or code nested in it, reads the helper `name` (a free
    variable of generated code, or a global)."""
    return name in code.co_freevars + code.co_names or any(
        _refers_to(c, name) for c in code.co_consts if isinstance(c, types.CodeType))


def _scalar_checked(plain, call):
    try:
        return call()
    except TypeError as exc:            # gradient_seed's (runtime/flat.py)
        if str(exc).startswith("hvp needs a scalar output"):
            raise TypeError(f"hvp/hessian: {plain.__name__}(){returned_at(plain)} must "
                            f"return a scalar: {exc}") from None
        raise


def _mixed_hvp(plain, primals, tangents, wrt, policy, route):
    """hvp for a tuple `wrt`: entry i is sum_j H_ij tangents[j] (vjp of `f_jvp`)."""
    return _mixed(plain, primals, wrt, policy, route, tangents)(tangents)


def _mixed(plain, primals, wrt, policy, route, tangents=_HESSIAN):
    """directions -> _mixed_hvp along them, the checks of the primals (and of hvp's
    tangents) made once, the code chosen and compiled at the first directions, after
    they are checked; hessian's blocks for a tuple `wrt` reuse it."""
    names, _ = _wrt_names(plain, wrt)
    primals = tuple(primals)
    if tangents is not _HESSIAN and (not isinstance(tangents, (tuple, list)) or
                                     len(tangents) != len(names)):
        raise TypeError(f"hvp: tangents must be a tuple with one entry per differentiated "
                        f"argument, the direction for {', '.join(map(repr, names))}, got "
                        f"{type(tangents).__name__}")
    indices = [position(plain, name) for name in names]
    for name, index in zip(names, indices):
        if index >= len(primals):
            raise TypeError(f"hvp: pass {name!r} among the primals (it has a default)")
    _check_values(names, [primals[index] for index in indices])
    built = []

    def apply(directions):
        with located_fields(plain, [(n, primals[k]) for n, k in zip(names, indices)], "hvp"):
            given = {name: _like(name, primals[index], t, entry="hvp")
                     for name, index, t in zip(names, indices, directions)}
        if not built:
            built.append(_mixed_product(plain, names, indices, primals, policy, route))
        return built[0](given)
    return apply


def _mixed_product(plain, names, indices, primals, policy, route):
    """given ({name: direction}) -> the tuple of sum_j H_ij given[j], compiled once."""
    signature = _full_signature(plain, primals, {})
    tangent = _forward_code(plain, tuple(names), primals, policy, signature, route)
    if tangent is not None:
        _seed_checked(plain, tangent, primals)
        return lambda given: _scalar_checked(plain, lambda: run(
            tangent, tuple(names), primals, tuple(given.values()),
            tuple(primals[index] for index in indices)))
    rule = _compiled(plain, tuple(names), signature)
    _refuse_helpers(plain, rule.rrule)

    def product(given):
        out, pullback = vjp(rule.rrule, *primals, wrt=tuple(indices), policy=policy,
                            **{rule.tangent_params[n]: t for n, t in given.items()})
        _check_scalar(plain, out[0])
        return tuple(pullback((zero_tangent(out[0]), _one(out[1]))))
    return product


def hessian(fn, wrt=0, *, policy=None, route=None):
    """A function returning the Hessian of scalar `fn` with respect to argument `wrt`:
    shape arg.shape + arg.shape for an array, a float for a float (one hvp per entry);
    for a tuple, list or dict, nested blocks H[i][j] (transform/hessian_blocks.py); for
    a tuple `wrt`, blocks H[i][j] between the arguments wrt[i] and wrt[j]. `route`:
    hvp's, for every hvp it takes."""
    fn = check_target(fn, "hessian")
    route = _route(route)
    fn = with_source(as_function(fn, "hessian"))   # np.sum: a function calling it
    method = fn
    fn, receiver, wrt = _method_parts(fn, wrt)      # a bound method: its function
    _plain(fn)

    @functools.wraps(method)
    def hessian_fn(*args, **kwargs):
        args = receiver + keywords_by_position(method, "hessian", args, kwargs)
        names, _ = _wrt_names(_plain(fn), wrt)
        if isinstance(wrt, (tuple, list)):            # blocks H[i][j] between arguments
            return _argument_blocks(fn, args, names, wrt, policy, route)
        (name,) = names
        arg = args[position(_plain(fn), name)]
        _check_values((name,), (arg,))       # an int: grad's and jacfwd's TypeError
        if isinstance(arg, (float, np.floating)):
            return hvp(fn, args, (1.0,), wrt=wrt, policy=policy, route=route)
        if isinstance(arg, (tuple, list, dict)):      # nested blocks H[i][j]
            return container_hessian(arg, _single(*_target(fn, args, wrt), policy, route))
        if not isinstance(arg, np.ndarray) or arg.dtype.kind != "f":
            raise TransformError(f"hessian: argument {name!r} is a {type(arg).__name__}; "
                                 "hessian takes a float, a float array, or a tuple, list "
                                 "or dict of them",
                                 hint="pass the object's arrays as arguments")
        return _columns(_single(*_target(fn, args, wrt), policy, route), arg)
    wrapper = mark_derivative(hessian_fn, method)
    # a bound method's Hessian is not tagged: nested Jacobians would call it without
    # the receiver its `wrt` counts (they refuse it instead)
    return wrapper if receiver else tag(wrapper, "hessian", fn, wrt)


def _columns(product, arg):
    """The Hessian of an array argument: one product per basis vector, the setup and
    compiled code shared (hvp's, resolved once by _single)."""
    columns = []
    for k in range(arg.size):
        basis = np.zeros(arg.size, arg.dtype)
        basis[k] = 1.0
        columns.append(np.ravel(product(basis.reshape(arg.shape))))
    return np.stack(columns, axis=-1).reshape(arg.shape + arg.shape)


def _argument_blocks(fn, args, names, wrt, policy, route=None):
    """hessian for a tuple `wrt`: H[i][j] = d2 f / d arg_i d arg_j, from the mixed
    hvps along one-hot directions (zeros in the other arguments)."""
    indices = [position(_plain(fn), name) for name in names]
    if any(index >= len(args) for index in indices):
        raise TypeError("hessian: pass every differentiated argument among the arguments")
    chosen = tuple(args[index] for index in indices)
    plain, primals, wrt = _target(fn, args, tuple(wrt))
    product = _mixed(plain, primals, wrt, policy, _route(route))
    return container_hessian(chosen, lambda direction: product(tuple(direction)))


def _plain(fn):
    if getattr(fn, "__self__", None) is not None:
        raise at_definition(getattr(fn, "__func__", fn), "hvp/hessian of a bound method "
                            "is not supported yet", hint="pass a function taking the "
                            "object's arrays")
    plain, _ = _unwrap(fn)
    refuse_async(plain, "hvp/hessian")
    if _collecting(plain):
        raise at_definition(plain, f"hvp/hessian: {plain.__name__} takes *args or "
                            "**kwargs", hint="name the parameters", mark="*")
    refuse_generator(plain, "hvp/hessian")
    return plain


def _check_scalar(plain, out):
    if not isinstance(out, (float, np.floating)) and np.shape(out) != ():
        raise TypeError(f"hvp/hessian: {plain.__name__}(){returned_at(plain)} must return "
                        f"a scalar, got shape {np.shape(out)}")


def _one(tangent):
    return np.ones_like(tangent) if isinstance(tangent, np.ndarray) else 1.0


def hvp_source(fn, wrt=0, *, policy=None, route=None):
    """What `thunkgrad dump --mode hvp` prints for hvp's `route` (None: its default,
    "auto"): reverse over forward, the tangent code `<name>_tan` (general) and the
    adjoint reverse mode runs over it; forward over reverse, the gradient as one function
    and the tangent code forward mode runs over it (transform/hvp_forward.py); "auto",
    the latter where it compiles, else the former after a comment line saying why
    (general code: a call's shapes may decide otherwise)."""
    plain = _plain(fn)
    names, _ = _wrt_names(plain, wrt)
    if len(names) != 1:
        raise TransformError("hvp: wrt must be one argument (an index or a name)",
                             hint="dump once per argument, e.g. --wrt x")
    (name,) = names
    route, header = _route(route), ""
    if route != "reverse_over_forward":
        try:
            return forward_source(plain, names, policy, checked=route == "auto")
        except TransformError as exc:
            if route == "forward_over_reverse":
                raise                   # "auto": what it falls back on where this refuses
            where = f"line {exc.line}: " if exc.line is not None else ""
            header = f"# thunkgrad: hvp route auto takes reverse over forward for " \
                f"{plain.__qualname__}: forward over reverse refuses it ({where}" \
                f"{exc.message.splitlines()[0]})\n"
    try:
        rule = _compiled(plain, (name,), None, variant="tangent")
        _refuse_helpers(plain, rule.rrule)
        adjoint = adjoint_source(rule.rrule, wrt=name, policy=policy)
    except TransformError as exc:   # at a line of the tangent code: the user's line it
        raise tracebacks.at_user_line(exc).with_traceback(None) from None   # comes from
    return header + rule.source + "\n\n" + adjoint
