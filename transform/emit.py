"""Stage 8, emit: source text, compiled, registered with linecache.

Comments cannot live in an AST, so the reverse stage leaves string markers
that become `# ...` lines here.
"""
import ast
import linecache
import re
import types

import gast

import runtime
from .guards import Guards
from .source_check import find_code, innermost_class
from .names import statements

_MARKER = "__thunkgrad_comment_{}__"
_MARKER_LINE = re.compile(r"^(\s*)(?:'|\"\"\")__thunkgrad_comment_(\d+)__(?:'|\"\"\")$", re.M)


_END_MARKER_LINE = re.compile(r"\n\s*'__thunkgrad_eol_(\d+)__'$", re.M)


def comment_marker(k):
    return _MARKER.format(k)


def end_marker(k):
    return f"__thunkgrad_eol_{k}__"


def unparse(node):
    """gast.unparse, after giving every statement a line number (the unparser reads a
    statement's to find its type comment; expressions need none)."""
    if isinstance(node, gast.stmt):
        node = gast.Module(body=[node], type_ignores=[])
    for s in statements(node):
        if not hasattr(s, "lineno"):
            s.lineno = 1
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
    """A compiled rule: `rrule(*args) -> (output, pullback)`, plus its source and the
    guards (transform/guards.py) that say whether it is still the program's rule."""

    def __init__(self, fn, wrt, policy, source, rrule, filename, guards=None):
        self.fn, self.wrt, self.policy = fn, wrt, policy
        self.source, self.rrule, self.filename = source, rrule, filename
        self.guards = guards


def _filename(ctx):
    fn = ctx.fn
    module = getattr(fn, "__module__", "") or ""
    wrt = ",".join(ctx.wrt)
    kind = "" if ctx.consumed else " rule"
    shapes = f" shapes={describe_signature(ctx)}" if ctx.signature else ""
    return f"<thunkgrad {module}.{fn.__qualname__} wrt={wrt} policy={ctx.policy}{kind}{shapes}>"


def describe_signature(ctx):
    """`W 10x10, x 10` for the argument shapes a rule was specialised to."""
    parts = []
    for name, key in zip(ctx.src.params, ctx.signature):
        if key is not None:
            items = bool(key) and key[0] == "items"
            text = "x".join(map(str, key[1] if items else key)) or "scalar"
            parts.append(f"{name} {'list of ' if items else ''}{text}")
    return ", ".join(parts)


def comment_texts(comments):
    """Comment texts: statements unparsed together in one Module (one call, not many)."""
    simple = [k for k, c in enumerate(comments) if isinstance(c, (gast.Assign, gast.Expr))]
    texts = [c if isinstance(c, str) else None for c in comments]
    if simple:
        module = gast.Module(body=[comments[k] for k in simple], type_ignores=[])
        lines = unparse(module).splitlines()
        if len(lines) == len(simple):
            for k, line in zip(simple, lines):
                texts[k] = line.strip()
    return [t if t is not None else one_line(c) for t, c in zip(texts, comments)]


def render(ctx, rrule):
    text = unparse(gast.Module(body=[rrule], type_ignores=[]))
    comments = comment_texts(ctx.comments)

    def comment(match):
        return f"{match.group(1)}# {comments[int(match.group(2))]}"
    text = _MARKER_LINE.sub(comment, text)
    text = _END_MARKER_LINE.sub(lambda m: f"  # {comments[int(m.group(1))]}", text)
    used = "grad: every output consumed" if ctx.consumed else "rule: outputs forced on demand"
    header = (f"# thunkgrad: adjoint of {ctx.fn.__qualname__} "
              f"(wrt={', '.join(ctx.wrt)}; policy={ctx.policy}; {used})\n")
    if ctx.signature:
        header += f"# specialised to argument shapes {describe_signature(ctx)}\n"
    return header + text.rstrip() + "\n"


def emit(ctx, rrule):
    """Compile the rendered source into the rule function.

    The rule's globals are the user's own module dict, so the globals the primal
    reads are read live, as the primal reads them (never copied, never written);
    runtime helpers and compiled rules reach it as closure cells of a factory:

        def factory(accum, tape_reader, g_rrule):     # not in the text: added to the AST
            def f_rrule(x): ...                       # the rendered text, lines unchanged
            return f_rrule
    """
    source = render(ctx, rrule)
    filename = _filename(ctx)
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    fn = _build(ctx, ast.parse(source, filename), filename, source)
    fn.__defaults__ = ctx.fn.__defaults__
    fn.__kwdefaults__ = ctx.fn.__kwdefaults__
    return Compiled(ctx.fn, ctx.wrt, ctx.policy, source, fn, filename,
                    Guards(ctx.fn, ctx.src.resolved))


def _build(ctx, module, filename, source):
    """The rule function: the factory compiled from the AST, called with the helpers."""
    helpers = runtime.generated_namespace()
    helpers.update(ctx.globals)
    words = set(_WORD.findall(source))        # a superset of the names the code loads
    params = sorted(words & set(helpers))
    user_cells = dict(zip(ctx.fn.__code__.co_freevars, ctx.fn.__closure__ or ()))
    free = sorted((words & set(user_cells)) - set(params))
    rule_def = module.body[0]
    factory = _def("thunkgrad_factory", params, [rule_def, _at(ast.Return(
        value=_at(ast.Name(id=rule_def.name, ctx=ast.Load()))))])
    body = [factory]
    owner = innermost_class(ctx.fn.__qualname__.split("."))
    if owner:                 # `self.__x` is mangled as in the user's class
        body = [_at(ast.ClassDef(name=owner, bases=[], keywords=[], body=body,
                                 decorator_list=[], type_params=[]))]
    if free:                  # the user's closure variables: free in the factory too
        bind = ast.Assign(targets=[_at(ast.Name(id=n, ctx=ast.Store())) for n in free],
                          value=_at(ast.Constant(value=None)))
        body = [_def("thunkgrad_outer", [], [_at(bind)] + body)]
    code = compile(ast.Module(body=body, type_ignores=[]), filename, "exec",
                   dont_inherit=True)
    code = find_code(code, "thunkgrad_factory")
    closure = tuple(user_cells[n] for n in code.co_freevars)
    make = types.FunctionType(code, ctx.fn.__globals__, code.co_name, None, closure)
    return make(*[helpers[n] for n in params])


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
