"""Stage 8, emit: source text, compiled, registered with linecache.

Comments cannot live in an AST, so the reverse stage leaves string markers
that become `# ...` lines here.
"""
import linecache
import re

import gast

import runtime

_MARKER = "__thunkgrad_comment_{}__"
_MARKER_LINE = re.compile(r"^(\s*)(?:'|\"\"\")__thunkgrad_comment_(\d+)__(?:'|\"\"\")$", re.M)


def comment_marker(k):
    return _MARKER.format(k)


def unparse(node):
    """gast.unparse, after giving every node a line number (the unparser wants them)."""
    if isinstance(node, gast.stmt):
        node = gast.Module(body=[node], type_ignores=[])
    gast.fix_missing_locations(node)
    return gast.unparse(node)


def one_line(stmt):
    """A statement's first line of source, for comments."""
    if isinstance(stmt, gast.For):
        head = unparse(gast.For(target=stmt.target, iter=stmt.iter, body=[gast.Pass()],
                                     orelse=[], type_comment=None)).splitlines()[0]
        return head + "  (iterations in reverse)"
    if isinstance(stmt, gast.While):
        return "while " + unparse(stmt.test) + ":  (iterations in reverse)"
    return unparse(stmt).strip().splitlines()[0]


class Compiled:
    """A compiled rule: `rrule(*args) -> (output, pullback)`, plus its source."""

    def __init__(self, fn, wrt, policy, source, rrule, filename):
        self.fn, self.wrt, self.policy = fn, wrt, policy
        self.source, self.rrule, self.filename = source, rrule, filename


def _filename(ctx):
    fn = ctx.fn
    module = getattr(fn, "__module__", "") or ""
    wrt = ",".join(ctx.wrt)
    kind = "" if ctx.consumed else " rule"
    return f"<thunkgrad {module}.{fn.__qualname__} wrt={wrt} policy={ctx.policy}{kind}>"


def render(ctx, rrule):
    text = unparse(gast.Module(body=[rrule], type_ignores=[]))

    def comment(match):
        return f"{match.group(1)}# {ctx.comments[int(match.group(2))]}"
    text = _MARKER_LINE.sub(comment, text)
    used = "grad: every output consumed" if ctx.consumed else "rule: outputs forced on demand"
    header = (f"# thunkgrad: adjoint of {ctx.fn.__qualname__} "
              f"(wrt={', '.join(ctx.wrt)}; policy={ctx.policy}; {used})\n")
    return header + text.rstrip() + "\n"


def emit(ctx, rrule):
    source = render(ctx, rrule)
    filename = _filename(ctx)
    namespace = runtime.generated_namespace()
    namespace.update(ctx.globals)
    for name in _free_names(rrule):
        if name not in namespace:
            value = ctx.src.lookup_global(name)
            if value is not None:
                namespace[name] = value
    namespace["__name__"] = getattr(ctx.fn, "__module__", "thunkgrad_generated")
    code = compile(source, filename, "exec")
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    exec(code, namespace)
    fn = namespace[rrule.name]
    fn.__defaults__ = ctx.fn.__defaults__
    fn.__kwdefaults__ = ctx.fn.__kwdefaults__
    return Compiled(ctx.fn, ctx.wrt, ctx.policy, source, fn, filename)


def _free_names(tree):
    return sorted({n.id for n in gast.walk(tree) if isinstance(n, gast.Name)
                   and isinstance(n.ctx, gast.Load)})
