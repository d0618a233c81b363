"""Stage 8, emit: source text, compiled, registered with linecache.

Comments cannot live in an AST: the reverse stage leaves marker statements
(transform/comments.py) that transform/render.py lays out as `# ...` lines. Text taken
from user objects (qualified names, statements in comments) is escaped to one line.
"""
import ast
import re
import types

from ..public.cache import weak
from . import tracebacks
from .flat_elif import flatten_elif_chains
from .guards import AllGuards, Guards
from ..ir.quoting import single_line
from .render import render_rule
from ..frontend.source_check import cell_class, find_code, innermost_class


class Compiled:
    """A compiled rule: `rrule(*args) -> (output, pullback)`, plus its source and the
    guards (transform/guards.py) that say whether it is still the program's rule."""

    def __init__(self, fn, wrt, policy, source, rrule, filename, guards=None, text=None,
                 inplace_args=None):
        self._fn = weak(fn)     # the cache keys on fn weakly: never keep it alive
        self.wrt, self.policy = wrt, policy
        self.source, self.rrule, self.filename = source, rrule, filename
        self.guards = guards
        self.text = source if text is None else text     # what runs (linecache has it)
        # parameter -> the TransformError for `p += v` on it, should it be an array or list
        self.inplace_args = inplace_args or {}
        # a scalar's real 0.0 stand-in was taken, or a rule for real values left
        # unguarded (ir/templates.py): right for real arguments only, so a complex one
        # is refused (public/run_time_rules.real_checked)
        self.real_arguments = False

    @property
    def fn(self):
        """The differentiated function, or None once it has been collected."""
        return self._fn()


def _filename(ctx):
    wrt = ",".join(ctx.wrt)
    kind = "" if ctx.consumed else " rule"
    shapes = f" shapes={describe_signature(ctx)}" if ctx.signature else ""
    plain = f" lowering={'/'.join(filter(None, ('plain', ctx.part)))}" \
        if ctx.lowering == "plain" else ""
    return f"<thunkgrad {definition_name(ctx)} wrt={wrt} policy={ctx.policy}{kind}{plain}{shapes}>"


_GENERATED = "<thunkgrad "


def definition_name(ctx):
    """What a generated file name says of the function: `mod.f:12:4`, its module, name
    and where its definition starts (line, column), so two of one name (lambdas, even on
    one line; defs of one name in two branches) never share a file name, whose text
    reverse mode over the code (hvp, grad of grad) reads again. A function whose source
    is not its module's file (code thunkgrad generated, a notebook cell, exec) names that
    file too: `mod.f_jvp:2:1 in [mod.f:12:4 wrt=x forward]`."""
    fn, src = ctx.fn, ctx.src
    code = getattr(fn, "__code__", None)
    line, col = getattr(src, "site", (getattr(code, "co_firstlineno", 0), 0))
    module = getattr(fn, "__module__", "") or ""
    name = f"{module}.{fn.__qualname__}:{line}:{col}"
    where = getattr(src, "filename", "") or ""
    if where and where != (getattr(fn, "__globals__", None) or {}).get("__file__"):
        if where.startswith(_GENERATED) and where.endswith(">"):
            where = where[len(_GENERATED):-1]
        name += f" in [{where}]"
    return single_line(name)


def describe_signature(ctx):
    """`W 10x10, x 10` for the argument shapes a rule was specialised to."""
    parts = []
    for name, key in zip(ctx.src.params, ctx.signature):
        if key and key[0] == "parts":
            text = ", ".join("x".join(map(str, k)) or "scalar" for k in key[1])
            parts.append(f"{name} ({text})")
        elif key is not None:
            items = bool(key) and key[0] == "items"
            text = "x".join(map(str, key[1] if items else key)) or "scalar"
            parts.append(f"{name} {'list of ' if items else ''}{text}")
    return ", ".join(parts)


_PARTS = {"": "one function, (value, gradients)", "forward": "a split callee's forward, "
          "(value, saved)", "backward": "a split callee's backward, (cotangents)"}


def render(ctx, rrule):
    unsafe = [name for name in ctx.globals if not name.isidentifier()]
    if unsafe:          # a name is pasted into the source as is: it must be a name
        raise ValueError(f"generated global names must be identifiers: {unsafe}")
    flatten_elif_chains(rrule, ctx.src.lines)
    ctx.line_sources = []
    text = render_rule(rrule, ctx.comments, ctx.line_sources)
    used = "grad: every output consumed" if ctx.consumed else \
        "rule for a loop body: cotangents computed at once" if ctx.materialised else \
        "rule: outputs forced on demand"
    if ctx.lowering == "plain":
        used += f"; lowering=plain: {_PARTS[ctx.part]}"
    header = [f"thunkgrad: adjoint of {ctx.fn.__qualname__} "
              f"(wrt={', '.join(ctx.wrt)}; policy={ctx.policy}; {used})"]
    if ctx.signature:
        header.append(f"specialised to argument shapes {describe_signature(ctx)}")
    if ctx.explain:                         # (grad's memory_limit: what it did with loops)
        header.extend(getattr(ctx.src, "limit_notes", ()))
    ctx.header_lines = len(header)
    return "".join(f"# {single_line(h)}\n" for h in header) + text.rstrip() + "\n"


def _origins(ctx):
    """{line of the generated text: the user's line it comes from}."""
    def origin_of_comment(k):
        return getattr(ctx.comments[k], "origin_line", None)
    return tracebacks.user_lines(ctx.line_sources, ctx.src.first_line, ctx.header_lines,
                                 origin_of_comment)


def emit(ctx, rrule):
    """Compile the rendered source into the rule function.

    The rule's globals are the user's own module dict, so the globals the primal
    reads are read live, as the primal reads them (never copied, never written);
    runtime helpers and compiled rules reach it as closure cells of a factory. The
    text that runs (registered with linecache, so tracebacks and inspect.getsource
    show it) is the rendered source with its first comment line made the factory's
    header and every other line indented by one space, so line numbers are the same:

        def thunkgrad_factory(accum, g_rrule):  # thunkgrad: adjoint of f (...)
         def f_rrule(x): ...
    """
    source = render(ctx, rrule)
    filename = _filename(ctx)
    helpers = dict(ctx.names.bindings)        # the compiler's names: never a user's
    helpers.update(ctx.globals)
    words = set(_WORD.findall(source))        # a superset of the names the code loads
    params = sorted(words & set(helpers))
    fn, text = _build(ctx, source, filename, params, words)
    tracebacks.register(ctx.fn, filename, text, _origins(ctx))
    fn = fn(*[helpers[n] for n in params])
    if ctx.part != "backward":                  # (its parameters: the seed, the saved)
        fn.__defaults__ = ctx.fn.__defaults__
        fn.__kwdefaults__ = ctx.fn.__kwdefaults__
    guards = Guards(ctx.fn, ctx.src.resolved)
    if ctx.callee_guards:                   # (a plain caller's split callees: theirs too)
        guards = AllGuards([guards] + ctx.callee_guards)
    compiled = Compiled(ctx.fn, ctx.wrt, ctx.policy, source, fn, filename, guards, text,
                        ctx.src.inplace_args)
    compiled.real_arguments = (ctx.shapes.stood_in or ctx.shapes.unguarded) and \
        not ctx.checks_real                 # (a split forward half checks its own)
    return compiled


def _build(ctx, source, filename, params, words):
    """(the factory function, the text it was compiled from)."""
    user_cells = dict(zip(ctx.fn.__code__.co_freevars, ctx.fn.__closure__ or ()))
    free = sorted((words & set(user_cells)) - set(params))
    owner = innermost_class(ctx.fn.__qualname__.split(".")) or cell_class(ctx.fn)
    if free or owner or '"""' in source or "'''" in source:
        return _build_from_ast(ctx, ast.parse(source, filename), filename, params,
                               free, owner, user_cells), source
    first, rest = source.split("\n", 1)
    text = f"def thunkgrad_factory({', '.join(params)}):  {first}\n" + \
        "".join(" " + line if line.strip() else line for line in rest.splitlines(True))
    text += f" return {ctx.rrule_name}\n"
    code = find_code(compile(text, filename, "exec", dont_inherit=True), "thunkgrad_factory")
    return types.FunctionType(code, ctx.fn.__globals__, code.co_name), text


def _build_from_ast(ctx, module, filename, params, free, owner, user_cells):
    """The factory compiled from the AST, for a method (`self.__x` is mangled as in the
    user's class), a closure (its variables stay free) or a multi-line string (which
    indenting would change); the registered text is then the rendered source itself."""
    rule_def = module.body[0]
    factory = _def("thunkgrad_factory", params, [rule_def, _at(ast.Return(
        value=_at(ast.Name(id=rule_def.name, ctx=ast.Load()))))])
    body = [factory]
    if owner:
        body = [_at(ast.ClassDef(name=owner, bases=[], keywords=[], body=body,
                                 decorator_list=[], type_params=[]))]
    if free:
        bind = ast.Assign(targets=[_at(ast.Name(id=n, ctx=ast.Store())) for n in free],
                          value=_at(ast.Constant(value=None)))
        body = [_def("thunkgrad_outer", [], [_at(bind)] + body)]
    code = compile(ast.Module(body=body, type_ignores=[]), filename, "exec",
                   dont_inherit=True)
    code = find_code(code, "thunkgrad_factory")
    closure = tuple(user_cells[n] for n in code.co_freevars)
    return types.FunctionType(code, ctx.fn.__globals__, code.co_name, None, closure)


_WORD = re.compile(r"[A-Za-z_]\w*")


def _def(name, params, body):
    args = ast.arguments(posonlyargs=[], args=[_at(ast.arg(arg=p)) for p in params],
                         vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])
    return _at(ast.FunctionDef(name=name, args=args, body=body, decorator_list=[],
                               returns=None, type_params=[]))


def _at(node):
    """Line 1 for a node the factory adds (the rendered text's own nodes keep theirs)."""
    node.lineno = node.end_lineno = 1
    node.col_offset = node.end_col_offset = 0
    return node
