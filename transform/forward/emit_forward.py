"""Forward mode's emit: `<name>_jvp`'s source text, compiled and registered for
tracebacks and inspect.getsource as the reverse rules are (emit/emit.py does the work;
this module only writes the header and the function's signature)."""
import gast

from ..emit import tracebacks
from ..emit.emit import Compiled, _build, _origins, _WORD
from ..emit.flat_elif import flatten_elif_chains
from ..emit.guards import Guards
from ..emit.render import render_rule
from ..ir.quoting import single_line


def jvp_function(ctx, body, tangent_params):
    """def f_jvp(x, y, n=3, *, x_dot, y_dot): the body; the user's defaults are the
    function's own (set after compiling), the tangents keyword-only."""
    user = ctx.src.node.args

    def param(name):
        return gast.Name(id=name, ctx=gast.Param(), annotation=None, type_comment=None)
    kwonly = [a.id for a in user.kwonlyargs] + list(tangent_params)
    args = gast.arguments(args=[param(p) for p in ctx.params], posonlyargs=[],
                          vararg=None, kwonlyargs=[param(k) for k in kwonly],
                          kw_defaults=[None] * len(kwonly), kwarg=None, defaults=[])
    return gast.FunctionDef(name=ctx.rrule_name, args=args, body=body, decorator_list=[],
                            returns=None, type_comment=None, type_params=[])


def emit_jvp(ctx, function):
    """A Compiled whose `rrule` is the `<name>_jvp` function."""
    flatten_elif_chains(function, ctx.src.lines)
    ctx.line_sources = []
    text = render_rule(function, ctx.comments, ctx.line_sources)
    header = f"thunkgrad: tangent of {ctx.fn.__qualname__} (wrt={', '.join(ctx.wrt)}; " \
             "forward mode)"
    ctx.header_lines = 1
    source = f"# {single_line(header)}\n" + text.rstrip() + "\n"
    module = getattr(ctx.fn, "__module__", "") or ""
    filename = f"<thunkgrad {single_line(module + '.' + ctx.fn.__qualname__)} " \
               f"wrt={','.join(ctx.wrt)} forward>"
    helpers = dict(ctx.names.bindings)
    helpers.update(ctx.globals)
    words = set(_WORD.findall(source))
    params = sorted(words & set(helpers))
    factory, registered = _build(ctx, source, filename, params, words)
    tracebacks.register(ctx.fn, filename, registered, _origins(ctx))
    fn = factory(*[helpers[n] for n in params])
    fn.__qualname__ = ctx.rrule_name      # not thunkgrad_factory.<locals>.f_jvp: hvp's header
    fn.__defaults__ = ctx.fn.__defaults__
    fn.__kwdefaults__ = ctx.fn.__kwdefaults__
    return Compiled(ctx.fn, ctx.wrt, "forward", source, fn, filename,
                    Guards(ctx.fn, ctx.src.resolved), registered, ctx.src.inplace_args)
