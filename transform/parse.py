"""Stage 1, parse: a function's source as a gast FunctionDef, plus where it came from.

    def loss(W, x): ...   ->   SourceFunction(fn, node=FunctionDef, filename, first line)

It also resolves names to the objects they denote (globals, closure cells,
builtins) so later stages can classify calls.
"""
import ast
import builtins
import inspect
import linecache
import textwrap
import weakref

import gast

from .errors import TransformError
from .names import name_ids


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
        """The object a Name or dotted Attribute denotes, or None if it is local or unknown."""
        if isinstance(node, gast.Name):
            if node.id in self.locals:
                return None
            return self.lookup_global(node.id)
        if isinstance(node, gast.Attribute):
            base = self.resolve(node.value)
            if base is None:
                return None
            return getattr(base, node.attr, None)
        return None

    def lookup_global(self, name):
        """A free name's value: closure cell, then module global, then builtin."""
        code = self.fn.__code__
        if name in code.co_freevars and self.fn.__closure__:
            cell = self.fn.__closure__[code.co_freevars.index(name)]
            try:
                return cell.cell_contents
            except ValueError:
                return None
        if name in self.fn.__globals__:
            return self.fn.__globals__[name]
        return getattr(builtins, name, None)


def _local_names(node):
    names = {a.id for a in node.args.args}
    names |= {a.id for a in node.args.kwonlyargs}
    name_ids(node, gast.Store, into=names)
    name_ids(node, gast.Del, into=names)
    return names


def parse_function(fn):
    """Parse `fn`'s source into a SourceFunction (lambdas become a one-line def)."""
    filename, lines, first_line = _source_of(fn)
    text = "".join(lines)
    dedented = textwrap.dedent(text)
    col_offset = _indent(text) - _indent(dedented)
    code = getattr(fn, "__code__", None)
    if getattr(code, "co_name", None) == "<lambda>":    # not __name__: that can be anything
        node = _lambda_as_def(fn, dedented, filename, first_line)
    else:
        node = gast.parse(dedented).body[0]
    node.decorator_list = []
    return SourceFunction(fn, node, filename, first_line, col_offset, lines)


_SOURCES = weakref.WeakKeyDictionary()


def _source_of(fn):
    """(file, lines, first line) of fn's def, read once per function object: every
    rule compiled for it (other wrt, other argument shapes) sees the same source,
    even if the file changed on disk since."""
    try:
        return _SOURCES[fn]
    except (KeyError, TypeError):
        pass
    try:
        filename = inspect.getsourcefile(fn) or fn.__code__.co_filename
        lines, first_line = _function_lines(fn, filename) or inspect.getsourcelines(fn)
    except (OSError, TypeError) as exc:
        name = getattr(fn, "__qualname__", repr(fn))
        raise TransformError(f"cannot read the source of {name}: {exc}",
                             hint="define the function in a .py file, or register a rule "
                                  "for it with transform.rrule") from None
    try:
        _SOURCES[fn] = (filename, lines, first_line)
    except TypeError:
        pass                                   # not weakly referenceable: read each time
    return filename, lines, first_line


_FILE_TREES = {}


def _function_lines(fn, filename):
    """(lines, first line) of a def, found with one cached `ast.parse` of its file.

    Faster than inspect's tokenizer on long functions; None when not found.
    """
    code = getattr(fn, "__code__", None)
    if code is None or code.co_name == "<lambda>":
        return None
    linecache.checkcache(filename)
    lines = linecache.getlines(filename)
    key = (filename, len(lines), sum(map(len, lines)))
    if key not in _FILE_TREES:
        _FILE_TREES[key] = _index_defs(lines)
    span = _FILE_TREES[key].get((code.co_name, code.co_firstlineno))
    return (lines[span[0] - 1:span[1]], span[0]) if span else None


def _index_defs(lines):
    """(name, first line incl. decorators) -> (first line, last line) for every def."""
    try:
        tree = ast.parse("".join(lines))
    except (SyntaxError, ValueError):
        return {}
    index = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            start = min([node.lineno] + [d.lineno for d in node.decorator_list])
            index[(node.name, start)] = (start, node.end_lineno)
    return index


def _indent(text):
    first = next((ln for ln in text.splitlines() if ln.strip()), "")
    return len(first) - len(first.lstrip())


def _lambda_as_def(fn, text, filename, first_line):
    try:
        tree = gast.parse(text)
    except SyntaxError:
        raise TransformError("cannot isolate this lambda's source", filename=filename,
                             line=first_line, hint="write it as a def") from None
    params = list(fn.__code__.co_varnames[:fn.__code__.co_argcount])
    found = [n for n in gast.walk(tree) if isinstance(n, gast.Lambda)
             and [a.id for a in n.args.args] == params]
    if len(found) != 1:
        raise TransformError("cannot isolate this lambda's source", filename=filename,
                             line=first_line, hint="write it as a def")
    lam = found[0]
    ret = gast.Return(value=lam.body)
    gast.copy_location(ret, lam.body)
    node = gast.FunctionDef(name="lambda_", args=lam.args, body=[ret], decorator_list=[],
                            returns=None, type_comment=None, type_params=[])
    return gast.copy_location(node, lam)
