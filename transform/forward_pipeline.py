"""The forward-mode compiler's driver, beside pipeline.py (reverse mode's): stages 1-5
as pipeline.py runs them (stage 5 builds the typed form of the lowered body, ir/typed.py,
`ctx.typed`), the
tangent body built on it (forward/tangents.py), lowered to gast (ir/lower_gast.py) and
emitted (forward/emit_forward.py).

    compile_forward(f, ("x",))  ->  Compiled; .rrule is `f_jvp(x, *, x_dot)`
                                    returning (f(x), its tangent)

Variants (higher derivatives, transform/derivatives.py) return the tangent alone:
"tangent" `f_tan(x_dot, x)` (tangents first, positional, so that the function can be
differentiated with respect to them), "unit" `f_unit(x)` (the tangent 1 of a scalar
argument, `x_dot = unit_tangent(x)`, which refuses a non-scalar argument).

A generator function is compiled as reverse mode compiles a generator helper: a
function returning the list of its items (frontend/generators.py), which its callers
consume whole (or are refused there); jvp, jacfwd and hvp of a generator function
itself are refused (`refuse_generator`).
"""
import gc
import inspect

import gast

from . import pipeline
from .ir.lower_gast import to_gast
from .ir.nodes import assign, load, located
from .ir.statements import Emitted
from .compilation import Compilation
from .errors import TransformError
from .forward.emit_forward import emit_jvp, jvp_function
from .forward.prune import drop_dead, release_dead, resolver
from .forward.common import fold_negations, share_common
from .forward.zeros import fold_zero_addends
from .forward.tangents import Forward


def compile_forward(fn, wrt, signature=None, variant="pair", complex_values=False):
    """Compile `fn` into `<name>_jvp` for the tangents of the parameters `wrt`
    (complex_values: its arguments or tangents are complex)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _compile(fn, tuple(wrt), signature, variant, complex_values)
    finally:
        if enabled:
            gc.enable()


def _compile(fn, wrt, signature, variant, complex_values=False):
    generator = inspect.isgeneratorfunction(fn)      # a helper: the list of its items
    ctx = Compilation(fn, wrt, "loop", False, not generator, signature, forward=True)
    pipeline._front_end(ctx)                                    # 1 parse, 2 check
    user = ctx.src.node.args
    if user.vararg is not None:       # (a helper's is named: frontend/varargs.py)
        raise ctx.src.error("forward mode (jvp, jacfwd): a function taking *args",
                            ctx.src.node, hint="name the parameters, or use vjp")
    suffix = {"pair": "_jvp", "tangent": "_tan", "unit": "_unit"}[variant]
    ctx.rrule_name = ctx.names.reserve(ctx.src.name + suffix)
    ctx.forward_variant = variant
    ctx.complex_values = complex_values
    body = pipeline._lower(ctx)                                 # 3 normalize, 4 control
    last = body[-1].value if isinstance(body[-1], gast.Return) else None
    output = last.id if isinstance(last, gast.Name) else None
    pipeline._analyze(ctx, body, output, wrt)                   # 5 analyze
    fwd = Forward(ctx)
    fwd.tangent_only = variant != "pair"
    fwd.complex = ctx.shapes.may_complex       # (complex_values included: forward/complex_terms.py)
    tangent_params = [fwd.dot(p) if p in fwd.active else ctx.names.reserve(f"{p}_dot")
                      for p in wrt]
    zeros = [located(assign(fwd.dot(p), ctx.names.call("zero_tangent", load(p))), body[0])
             for p in ctx.params + [a.id for a in user.kwonlyargs + [user.kwarg] if a]
             if p in fwd.active and p not in wrt]      # not differentiated, made active later
    units = [located(assign(t, ctx.names.call("unit_tangent", load(p))), body[0])
             for p, t in zip(wrt, tangent_params)] if variant == "unit" else []
    tangent_body = [Emitted(s) for s in units + zeros] + fwd.block(ctx.typed)
    function = jvp_function(ctx, to_gast(ctx.src, tangent_body),
                            [] if variant == "unit" else tangent_params, variant == "tangent")
    if variant == "tangent" and getattr(fn, "thunkgrad_flat", False):
        fold_zero_addends(function, ctx.names)
        resolve = resolver(fn, {**ctx.names.bindings, **ctx.globals})
        share_common(function, ctx.names, resolve)
        fold_negations(function)
        drop_dead(function, resolve)
        release_dead(function)
    compiled = emit_jvp(ctx, function)
    compiled.tangent_params = dict(zip(wrt, tangent_params))
    return compiled


def refuse_generator(fn, entry):
    """jvp/jacfwd/hvp of a generator function: its value is a lazy iterator, no array."""
    if inspect.isgeneratorfunction(fn):
        code = fn.__code__
        raise TransformError(f"{entry} of {fn.__name__}, a generator function (`yield`)",
                             filename=code.co_filename, line=code.co_firstlineno,
                             hint="differentiate a function consuming it (`sum(gen(x))`, "
                             "`np.stack(list(gen(x)))`)")
