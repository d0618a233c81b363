"""Stage 1, parse: a function's source as a gast FunctionDef, plus where it came from.

    def loss(W, x): ...   ->   SourceFunction(fn, node=FunctionDef, filename, first line)

It also resolves names to the objects they denote (globals, closure cells,
builtins) so later stages can classify calls.
"""
import ast
import builtins
import textwrap

import gast

from ..errors import TransformError
from .constructors import constructor_source
from .source_check import check_current, is_lambda, source_of
from ..ir.nodes import names_below, nodes_below
from .to_gast import ast_to_gast
from .varargs import named_varargs
from .method_writes import returning_self


class SourceFunction:
    """A parsed function: its gast node, source lines and name environment."""

    def __init__(self, fn, node, filename, first_line, col_offset, lines):
        self.fn = fn
        self.node = node
        self.filename = filename
        self.first_line = first_line
        self.col_offset = col_offset
        self.lines = lines
        self.params = [a.id for a in node.args.args]
        self.locals = _local_names(node)
        self.resolved = {}
        self.made_names = frozenset()     # the compiler's names (pipeline: the Vocabulary's)
        self.positional_only = 0          # how many leading params come before a `/`
        # where it is defined (file line, column): two lambdas of one line differ here
        self.site = (first_line + (getattr(node, "lineno", 1) or 1) - 1,
                     col_offset + (getattr(node, "col_offset", 0) or 0))

    def refresh(self):
        """Recompute what was derived from `node` after a stage rewrote it."""
        self.locals = _local_names(self.node)
        self._calls = None

    def calls(self):
        """Every Call node of the function, found once (the checks each look at them)."""
        if getattr(self, "_calls", None) is None:
            self._calls = nodes_below(self.node, gast.Call)
        return self._calls

    @property
    def name(self):
        return self.node.name

    def source_line(self, lineno):
        """The original text of relative line `lineno` (1-based within the function)."""
        k = lineno - 1
        return self.lines[k].rstrip("\n") if 0 <= k < len(self.lines) else ""

    def error(self, message, node=None, hint=None):
        """A TransformError pointing at `node` in the original file."""
        line = col = source = None
        if node is not None and getattr(node, "lineno", None) is not None:
            line = self.first_line + node.lineno - 1
            col = (node.col_offset or 0) + self.col_offset
            source = self.source_line(node.lineno)
        return TransformError(message, filename=self.filename, line=line, col=col,
                              source_line=source, hint=hint)

    def resolve(self, node):
        """The object a Name or dotted Attribute denotes, or None if it is local or unknown.

        Every answer is recorded in `resolved` (dotted path -> object): compiled code
        is guarded by them (transform/guards.py) and rebuilt when one changes."""
        helper = getattr(node, "runtime_helper", None)
        if helper is not None:             # a call the desugar stage wrote
            return helper
        path = _dotted(node)
        if path is None or path[0] in self.locals or path[0] in self.made_names:
            return None             # (a temporary the compiler named is local too)
        if path not in self.resolved:
            value = self.lookup_global(path[0])
            for attr in path[1:]:
                value = None if value is None else getattr(value, attr, None)
            self.resolved[path] = value
        return self.resolved[path]

    def lookup_global(self, name):
        """A free name's value: closure cell, then module global, then builtin."""
        code = self.fn.__code__
        if name in code.co_freevars and self.fn.__closure__:
            cell = self.fn.__closure__[code.co_freevars.index(name)]
            try:
                value = cell.cell_contents
            except ValueError:
                value = None
        elif name in self.fn.__globals__:
            value = self.fn.__globals__[name]
        else:
            value = getattr(builtins, name, None)
        self.resolved.setdefault((name,), value)
        return value


def _dotted(node):
    """("np", "linalg", "norm") for `np.linalg.norm`; None if not a dotted name."""
    attrs = []
    while isinstance(node, gast.Attribute):
        attrs.append(node.attr)
        node = node.value
    if not isinstance(node, gast.Name):
        return None
    return (node.id,) + tuple(reversed(attrs))


def _local_names(node):
    names = {a.id for a in node.args.args}
    names |= {a.id for a in node.args.kwonlyargs}
    bind = (gast.Store, gast.Del)
    names.update(n.id for n in names_below(node) if type(n.ctx) in bind)
    return names


def unwrap(fn):
    """(the plain function, its default policy): a `differentiable` wrapper's function."""
    policy = getattr(fn, "thunkgrad_policy", None)
    while policy is not None and hasattr(fn, "__wrapped__") and \
            getattr(fn, "thunkgrad_policy", None) is not None:
        fn = fn.__wrapped__
    return fn, policy or "loop"


def parse_function(fn):
    """Parse `fn`'s source into a SourceFunction (lambdas become a one-line def).

    The def is found from fn.__code__ (file, first line, code name), never from
    `__name__` or `__wrapped__`: a functools.wraps wrapper is parsed as itself. The
    source must still compile to fn.__code__ (a file edited after import does not)."""
    made = getattr(fn, "thunkgrad_source", None)
    if made is not None:                     # a checkpointed loop's body (checkpointed.py)
        return made()
    parse_as = getattr(fn, "thunkgrad_parse_as", None)
    if parse_as is not None:                 # a method setting attributes of `self`
        src = parse_function(parse_as[0])
        src.writing_self = (returning_self(src.node), parse_as[1])
        return src
    if getattr(fn, "thunkgrad_constructor", None) is not None:   # a class's __init__
        node, filename, lines, first_line = constructor_source(fn)
        text = "".join(lines)
        col_offset = _indent(text) - _indent(textwrap.dedent(text))
        return SourceFunction(fn, node, filename, first_line, col_offset, lines)
    filename, lines, first_line = source_of(fn)
    text = "".join(lines)
    dedented = textwrap.dedent(text)
    col_offset = _indent(text) - _indent(dedented)
    if is_lambda(fn):
        node = _lambda_as_def(fn, dedented, filename, first_line, col_offset)
        check_current(fn, gast.gast_to_ast(node.source_lambda), filename, first_line)
    else:
        tree = ast.parse(dedented)
        node = ast_to_gast(tree).body[0]               # leaves `tree` as it was
        check_current(fn, tree.body[0], filename, first_line)
    node.decorator_list = []
    slashed = positional_only_as_positional(node)
    if getattr(fn, "thunkgrad_lifted", False):
        lift_free_variables(fn, node)
    if getattr(fn, "thunkgrad_varargs", None) is not None:     # (none: `xs = ()`)
        named_varargs(node, fn.thunkgrad_varargs)
    src = SourceFunction(fn, node, filename, first_line, col_offset, lines)
    if slashed:
        src.positional_only = 1 + src.params.index(slashed[-1])
    return src


def positional_only_as_positional(node):
    """`def f(x, /, y)` is parsed as `def f(x, y)` (every stage reads `args.args`; the
    code that runs was checked on the def as written), and the names before the `/`
    returned: the generated rule takes them positional-only again (emit), so
    `f(1.0, x=2.0)` binds `x=2.0` to a `**kw` as Python does."""
    args = node.args
    slashed = [a.id for a in args.posonlyargs]
    args.args, args.posonlyargs = args.posonlyargs + args.args, []
    return slashed


def lift_free_variables(fn, node):
    """A closure's template (runtime/closures.py): the variables it reads from the
    function that made it become its leading parameters, so its rule answers for them."""
    free = [gast.Name(id=n, ctx=gast.Param(), annotation=None, type_comment=None)
            for n in fn.__code__.co_freevars]
    for name in free:
        gast.copy_location(name, node)
    node.args.args[:0] = free


def _indent(text):
    first = next((ln for ln in text.splitlines() if ln.strip()), "")
    return len(first) - len(first.lstrip())


def body_starts_at(code, line, col):
    """Whether the first instruction of `code` located on `line` is at `col` (which of
    several lambdas on one line a code object is)."""
    cols = [p[2] for p in code.co_positions() if p[0] == line and p[2] is not None
            and p[3] > p[2]]          # (RESUME has an empty span at column 0)
    return bool(cols) and min(cols) == col


def _lambda_fragments(text):
    """The lambdas starting on text's first line when that line does not parse alone
    (`"lap": lambda v: -v / s}` inside a dict display): each from its `lambda` to the
    longest end that parses, parenthesised, columns kept. None if none parses."""
    first = text.split("\n", 1)[0]
    trees, start = [], first.find("lambda")
    while start >= 0:
        for end in range(len(text), start, -1):
            try:
                trees.append(gast.parse("(" + " " * (start - 1) + text[start:end] + ")"))
                break
            except SyntaxError:
                continue
        start = first.find("lambda", start + 1)
    return gast.Module(body=[s for t in trees for s in t.body], type_ignores=[]) \
        if trees else None


def _lambda_column(text):
    """1-based column of the first `lambda` on the lambda's first line (or 1)."""
    first = text.splitlines()[0] if text.strip() else ""
    return first.find("lambda") + 1 if "lambda" in first else 1


def _lambda_as_def(fn, text, filename, first_line, col_offset=0):
    where = dict(filename=filename, line=first_line, col=_lambda_column(text),
                 source_line=text.splitlines()[0] if text.strip() else None)
    try:
        tree = gast.parse(text)
    except SyntaxError:
        tree = _lambda_fragments(text)
    if tree is None:
        raise TransformError("cannot isolate this lambda's source: a line holding it "
                             "does not parse on its own", **where,
                             hint="write it as a def")
    params = list(fn.__code__.co_varnames[:fn.__code__.co_argcount])
    found = [n for n in gast.walk(tree) if isinstance(n, gast.Lambda)
             and [a.id for a in n.args.posonlyargs + n.args.args] == params]
    # once each: a fragment holding a lambda nested in another's (`lambda: grad(lambda
    # a: ...)`) is met in both the outer lambda's fragment and its own
    found = list({(n.lineno, n.col_offset): n for n in found}.values())
    if len(found) > 1:               # `{"a": lambda z: f(z), "b": lambda z: g(z)}`
        found = [n for n in found if body_starts_at(
            fn.__code__, first_line + n.body.lineno - 1, n.body.col_offset + col_offset)]
    if len(found) != 1:
        why = "several lambdas with the same parameters" if found else \
            f"no lambda of parameters ({', '.join(params)}) that parses on its own"
        raise TransformError(f"cannot isolate this lambda's source: its line holds {why}",
                             **where, hint="write it as a def")
    lam = found[0]
    ret = gast.Return(value=lam.body)
    gast.copy_location(ret, lam.body)
    node = gast.FunctionDef(name="lambda_", args=lam.args, body=[ret], decorator_list=[],
                            returns=None, type_comment=None, type_params=[])
    node.source_lambda = lam
    return gast.copy_location(node, lam)
