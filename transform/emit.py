"""Stage 8, emit: source text, compiled, registered with linecache.

Comments cannot live in an AST: the reverse stage leaves marker statements
(transform/comments.py) that transform/render.py lays out as `# ...` lines. Text taken
from user objects (qualified names, statements in comments) is escaped to one line.
"""
import linecache

from .comments import comment_texts
from .quoting import single_line
from .render import render_rule


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
    shapes = f" shapes={describe_signature(ctx)}" if ctx.signature else ""
    name = single_line(f"{module}.{fn.__qualname__}")
    return f"<thunkgrad {name} wrt={wrt} policy={ctx.policy}{kind}{shapes}>"


def describe_signature(ctx):
    """`W 10x10, x 10` for the argument shapes a rule was specialised to."""
    parts = []
    for name, key in zip(ctx.src.params, ctx.signature):
        if key is not None:
            items = bool(key) and key[0] == "items"
            text = "x".join(map(str, key[1] if items else key)) or "scalar"
            parts.append(f"{name} {'list of ' if items else ''}{text}")
    return ", ".join(parts)


def render(ctx, rrule):
    unsafe = [name for name in ctx.globals if not name.isidentifier()]
    if unsafe:          # a name is pasted into the source as is: it must be a name
        raise ValueError(f"generated global names must be identifiers: {unsafe}")
    text = render_rule(rrule, comment_texts(ctx.comments))
    used = "grad: every output consumed" if ctx.consumed else "rule: outputs forced on demand"
    header = [f"thunkgrad: adjoint of {ctx.fn.__qualname__} "
              f"(wrt={', '.join(ctx.wrt)}; policy={ctx.policy}; {used})"]
    if ctx.signature:
        header.append(f"specialised to argument shapes {describe_signature(ctx)}")
    return "".join(f"# {single_line(h)}\n" for h in header) + text.rstrip() + "\n"


def emit(ctx, rrule):
    source = render(ctx, rrule)
    filename = _filename(ctx)
    namespace = dict(ctx.names.bindings)       # the compiler's names: never a user's
    namespace.update(ctx.globals)
    code = compile(source, filename, "exec")
    for name in _global_names(code):
        if name not in namespace:
            value = ctx.src.lookup_global(name)
            if value is not None:
                namespace[name] = value
    namespace["__name__"] = getattr(ctx.fn, "__module__", "thunkgrad_generated")
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    exec(code, namespace)
    fn = namespace[rrule.name]
    fn.__defaults__ = ctx.fn.__defaults__
    fn.__kwdefaults__ = ctx.fn.__kwdefaults__
    return Compiled(ctx.fn, ctx.wrt, ctx.policy, source, fn, filename)


def _global_names(code):
    """Names the compiled code may look up as globals (from its code objects)."""
    names, work = set(), [code]
    while work:
        c = work.pop()
        names.update(c.co_names)
        work.extend(k for k in c.co_consts if hasattr(k, "co_names"))
    return sorted(names)
