"""Forward mode's emit: `<name>_jvp`'s source text, compiled and registered for
tracebacks and inspect.getsource as the reverse rules are (emit/emit.py does the work;
this module only writes the header and the function's signature)."""
import gast

from ..emit import tracebacks
from ..emit.emit import Compiled, _build, _origins, _WORD, definition_name, describe_signature
from ..emit.flat_elif import flatten_elif_chains
from ..emit.guards import Guards
from ..emit.render import render_rule
from ..ir.quoting import single_line


def jvp_function(ctx, body, tangent_params, first=False):
    """def f_jvp(x, y, n=3, *, x_dot, y_dot, **rest): the body; the user's defaults are
    the function's own (set after compiling), the tangents keyword-only (first=True: the
    tangents positional before the parameters, `def f_tan(x_dot, x, y, n=3)`); a helper's
    `**rest` holds what no differentiated value reaches (calls.py refuses one)."""
    user = ctx.src.node.args

    def param(name):
        return gast.Name(id=name, ctx=gast.Param(), annotation=None, type_comment=None)
    kwonly = [a.id for a in user.kwonlyargs] + ([] if first else list(tangent_params))
    positional = (list(tangent_params) if first else []) + ctx.params
    slashed = getattr(ctx.src, "positional_only", 0)     # `def f(x, /, y)`: x stays so
    slashed += len(tangent_params) if first and slashed else 0
    args = gast.arguments(args=[param(p) for p in positional[slashed:]],
                          posonlyargs=[param(p) for p in positional[:slashed]],
                          vararg=None, kwonlyargs=[param(k) for k in kwonly],
                          kw_defaults=[None] * len(kwonly), defaults=[],
                          kwarg=user.kwarg and param(user.kwarg.id))   # held: no tangent
    return gast.FunctionDef(name=ctx.rrule_name, args=args, body=body, decorator_list=[],
                            returns=None, type_comment=None, type_params=[])


_VARIANT = {"pair": "", "tangent": " tangent", "unit": " unit"}   # forward_pipeline's


def emit_jvp(ctx, function):
    """A Compiled whose `rrule` is the `<name>_jvp` function."""
    flatten_elif_chains(function, ctx.src.lines)
    ctx.line_sources = []
    text = render_rule(function, ctx.comments, ctx.line_sources)
    header = f"thunkgrad: tangent of {ctx.fn.__qualname__} (wrt={', '.join(ctx.wrt)}; " \
             "forward mode)"
    ctx.header_lines = 1
    source = f"# {single_line(header)}\n" + text.rstrip() + "\n"
    # the shapes it was specialised to, as reverse mode's names say: two specialisations
    # of one function live at once, and reverse mode over one (hvp) reads its own text
    shapes = f" shapes={describe_signature(ctx)}" if ctx.signature else ""
    filename = f"<thunkgrad {definition_name(ctx)} wrt={','.join(ctx.wrt)} forward" \
               f"{_VARIANT[getattr(ctx, 'forward_variant', 'pair')]}{shapes}>"
    helpers = dict(ctx.names.bindings)
    helpers.update(ctx.globals)
    words = set(_WORD.findall(source))
    params = sorted(words & set(helpers))
    factory, registered = _build(ctx, source, filename, params, words)
    tracebacks.register(ctx.fn, filename, registered, _origins(ctx))
    fn = factory(*[helpers[n] for n in params])
    tracebacks.hold(fn, tracebacks.chain(filename))     # its source: grad of it reads it
    fn.__qualname__ = ctx.rrule_name      # not thunkgrad_factory.<locals>.f_jvp: hvp's header
    fn.__defaults__ = ctx.fn.__defaults__
    fn.__kwdefaults__ = ctx.fn.__kwdefaults__
    fn.thunkgrad_forward_code = True      # its primal statements: the user's, checked
    return Compiled(ctx.fn, ctx.wrt, "forward", source, fn, filename,
                    Guards(ctx.fn, ctx.src.resolved), registered, ctx.src.inplace_args)
