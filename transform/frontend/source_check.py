"""Where a function's source is, and whether it is still the code that runs.

A file edited after import holds the new text while the function object runs
the old code; differentiating the text would give the gradient of another
program. The def is found by its code object (file, first line, code name: never
`__name__` or `__wrapped__`), then compiled where it was defined (free variables
bound by a dummy outer function, its class around it for name mangling and
`super()`, the module's imports declared) and compared with fn.__code__:

    def f(x): return x * x     (imported)     f.__code__: BINARY_OP *
    def f(x): return x + x     (on disk now)  compiled:   BINARY_OP +   -> refused
"""
import ast
import inspect
import linecache
import sys
import types
import weakref


from ..errors import TransformError

_SOURCES = weakref.WeakKeyDictionary()     # fn -> (its code, (file, lines, first line))
_CURRENT = weakref.WeakKeyDictionary()     # fn -> its code, when the source matched it
_FILES = {}                                # (file, size) -> (defs, imported names)


def is_lambda(fn):
    return fn.__code__.co_name == "<lambda>"


def source_of(fn):
    """(file, lines, first line) of fn's def, read once per function object and code:
    every rule compiled for it (other wrt, other argument shapes) sees the same source,
    and a function given another code object (`f.__code__ = g.__code__`) is read again."""
    try:
        code, found = _SOURCES[fn]
        if code is fn.__code__:
            return found
    except (KeyError, TypeError):
        pass
    if not hasattr(fn, "__code__"):
        raise _no_python_source(fn)
    try:
        code = fn.__code__
        filename = inspect.getsourcefile(code) or code.co_filename
        found = None if is_lambda(fn) else _def_lines(fn, filename)
        lines, first_line = found or inspect.getsourcelines(code)
    except (OSError, TypeError, AttributeError) as exc:
        name = getattr(fn, "__qualname__", repr(fn))
        raise TransformError(f"cannot read the source of {name}: {exc}",
                             hint="define the function in a .py file, or register a rule "
                                  "for it with transform.rrule") from None
    try:
        _SOURCES[fn] = (code, (filename, lines, first_line))
    except TypeError:
        pass                                   # not weakly referenceable: read each time
    return filename, lines, first_line


def _no_python_source(fn):
    """grad(len): a builtin or C-extension callable with no rule has no source to read."""
    name = getattr(fn, "__qualname__", None) or repr(fn)
    builtin = isinstance(fn, (types.BuiltinFunctionType, types.BuiltinMethodType))
    kind = "a builtin" if builtin else f"a {type(fn).__name__} object"
    return TransformError(f"{name} is {kind} with no Python source "
                          "to differentiate and no derivative rule",
                          hint=f"call it inside a Python function and differentiate that "
                               f"(def f(x): ... {name}(x) ...), or register a rule for it "
                               "with transform.rrule")


def check_current(fn, node, filename, first_line):
    """Refuse fn if `node` (its parsed def or lambda, a Python ast node: the compiler
    keeps its own gast copy) does not compile to its code."""
    try:
        if _CURRENT.get(fn) is fn.__code__:
            return
    except TypeError:
        pass
    if not source_matches(fn, node, filename, first_line):
        raise _changed(fn, filename, first_line)
    try:
        _CURRENT[fn] = fn.__code__
    except TypeError:
        pass


def _changed(fn, filename, line):
    return TransformError(
        f"the source of {fn.__qualname__} in {filename} is not the code that runs: "
        "the file changed after the module was imported",
        filename=filename, line=line,
        hint="reload the module (importlib.reload, or restart Python) so that the code "
             "that runs is the code on disk")


def _def_lines(fn, filename):
    """(lines, first line) of a def, found with one cached `ast.parse` of its file by
    its code's name and first line (faster than inspect's tokenizer on long functions).
    Raises if the file cannot be read or no such def is there now."""
    code = fn.__code__
    lines, defs, _ = _file_index(filename)
    span = defs.get((code.co_name, code.co_firstlineno))
    if span is None:
        raise _changed(fn, filename, code.co_firstlineno)
    return lines[span[0] - 1:span[1]], span[0]


def _file_index(filename):
    """(lines, {(def name, first line incl. decorators): (first, last line)}, names the
    module binds by import) of a file as linecache has it now."""
    linecache.checkcache(filename)
    lines = linecache.getlines(filename)
    if not lines:
        raise OSError("could not get source code")
    key = (filename, len(lines), sum(map(len, lines)))
    if key not in _FILES:
        _FILES[key] = _index(lines)
    return (lines,) + _FILES[key]


def _index(lines):
    try:
        tree = ast.parse("".join(lines))
    except (SyntaxError, ValueError):
        return {}, frozenset()
    defs = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            start = min([node.lineno] + [d.lineno for d in node.decorator_list])
            defs[(node.name, start)] = (start, node.end_lineno)
    return defs, frozenset(_module_imports(tree))


def _module_imports(tree):
    """Names bound by import statements in module scope (CPython 3.11 compiles
    `np.f(x)` differently when `np` is one)."""
    work = list(tree.body)
    while work:
        node = work.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield from ((a.asname or a.name).split(".")[0] for a in node.names
                        if a.name != "*")
        elif not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                                   ast.Lambda)):
            work.extend(ast.iter_child_nodes(node))


# compile() flags a code object carries over from `from __future__ import ...`
_FUTURE_FLAGS = 0
for _name in ("annotations", "generator_stop", "barry_as_FLUFL"):
    _feature = getattr(__import__("__future__"), _name, None)
    _FUTURE_FLAGS |= getattr(_feature, "compiler_flag", 0)


def source_matches(fn, tree, filename, first_line=1):
    """Whether `tree` (an ast.FunctionDef or ast.Lambda of fn, its lines counted from
    first_line) compiles to fn.__code__. Line numbers do not change what is compared."""
    code = fn.__code__
    try:
        imported = _file_index(filename)[2]
    except OSError:
        imported = frozenset()
    module = _in_context(fn, tree, imported)
    _as_pytest_would(fn, module, filename, first_line)
    flags = code.co_flags & _FUTURE_FLAGS
    try:
        try:
            compiled = compile(module, filename, "exec", flags=flags, dont_inherit=True)
        except RecursionError:   # 3.12+ compiles a deep AST with a fixed C stack budget;
            compiled = compile(ast.unparse(module), filename, "exec",   # its parser copes
                               flags=flags, dont_inherit=True)
    except (SyntaxError, ValueError, TypeError):
        return False
    found = find_code(compiled, code.co_name)
    return found is not None and same_code(found, code)


def _in_context(fn, tree, imported):
    """import ...; def __outer__(): <free vars> = None; [class C:] <tree>"""
    parsed = tree
    if isinstance(tree, ast.Lambda):
        tree = ast.Expr(value=tree)
    else:
        tree.decorator_list = []          # decorators run in the enclosing scope
    body = [tree]
    owner = innermost_class(fn.__qualname__.split(".")) or cell_class(fn)
    free = [n for n in fn.__code__.co_freevars if n != "__class__"]
    if owner:
        body = [ast.ClassDef(name=owner, bases=[], keywords=[], body=body,
                             decorator_list=[], type_params=[])]
        if owner not in free:        # a method naming its class (`A.k`) reads a global A
            body.insert(0, ast.Global(names=[owner]))
    if isinstance(tree, (ast.FunctionDef, ast.AsyncFunctionDef)) and tree.name not in free:
        body.insert(0, ast.Global(names=[tree.name]))    # `def f` binds no local f
    if free:
        targets = [ast.Name(id=n, ctx=ast.Store()) for n in free]
        body.insert(0, ast.Assign(targets=targets, value=ast.Constant(value=None)))
    outer = ast.FunctionDef(name="__thunkgrad_outer__", args=ast.arguments(
        posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None,
        defaults=[]), body=body, decorator_list=[], returns=None, type_params=[])
    imports = [ast.Import(names=[ast.alias(name="sys", asname=n)]) for n in sorted(imported)]
    module = ast.Module(body=imports + [outer], type_ignores=[])
    _locate_new(module, parsed)
    return module


def cell_class(fn):
    """The name of the class in fn's `__class__` cell (`super()`), for a def compiled
    outside a class statement: generated code compiled for a method (emit/emit.py puts
    it in a class of that name)."""
    code = fn.__code__
    if "__class__" not in code.co_freevars or not fn.__closure__:
        return None
    try:
        cls = fn.__closure__[code.co_freevars.index("__class__")].cell_contents
    except ValueError:                  # an empty cell
        return None
    return getattr(cls, "__name__", None)


def filled(cell):
    """Whether a closure cell holds a value (a variable assigned later in its scope, or
    never, leaves it empty: reading it raises ValueError)."""
    try:
        cell.cell_contents
    except ValueError:
        return False
    return True


def _locate_new(node, parsed):
    """Line 1 for the nodes the wrapper adds; the parsed def keeps its own (and is not
    walked: fix_missing_locations over a long def costs more than its compile)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if n is parsed:
            continue
        if "lineno" in n._attributes and not hasattr(n, "lineno"):
            n.lineno = n.end_lineno = 1
            n.col_offset = n.end_col_offset = 0
        stack.extend(ast.iter_child_nodes(n))


def innermost_class(parts):
    """The class whose body the def is in, however deep (`__x` is mangled with its
    name): `A.meth.<locals>.inner` -> A; a part followed by `<locals>` is a function."""
    for k in range(len(parts) - 2, -1, -1):
        if parts[k] != "<locals>" and parts[k + 1] != "<locals>":
            return parts[k]
    return None


def _as_pytest_would(fn, module, filename, first_line):
    """Rewrite asserts as pytest did when it imported fn's module (a test file); not in
    generated code (`<thunkgrad ...>`, compiled again by grad of grad), which names the
    module of the user's function but was compiled by thunkgrad, not imported."""
    loader = getattr(sys.modules.get(fn.__module__), "__loader__", None)
    if type(loader).__name__ != "AssertionRewritingHook" or filename.startswith("<") or \
            not any(isinstance(n, ast.Assert) for n in ast.walk(module)):
        return
    ast.increment_lineno(module.body[-1], first_line - 1)   # the file's line numbers
    from _pytest.assertion.rewrite import rewrite_asserts
    source = "".join(linecache.getlines(filename)).encode()
    rewrite_asserts(module, source, filename, getattr(loader, "config", None))


def find_code(code, name):
    """The code object named `name` nested in `code` (breadth first), or None."""
    work = [code]
    while work:
        c = work.pop(0)
        if c.co_name == name and c is not code:
            return c
        work.extend(k for k in c.co_consts if isinstance(k, types.CodeType))
    return None


_FIELDS = ("co_code", "co_names", "co_varnames", "co_freevars", "co_cellvars",
           "co_argcount", "co_posonlyargcount", "co_kwonlyargcount")


def same_code(a, b):
    """Same bytecode, names and constants, nested code objects compared the same way."""
    if any(getattr(a, f) != getattr(b, f) for f in _FIELDS):
        return False
    if len(a.co_consts) != len(b.co_consts):
        return False
    for x, y in zip(a.co_consts, b.co_consts):
        if isinstance(x, types.CodeType) or isinstance(y, types.CodeType):
            if not (type(x) is type(y) and same_code(x, y)):
                return False
        elif not _same_constant(x, y, a, b):
            return False
    return True


def _same_constant(x, y, a, b):
    """Constant x of recompiled code `a` means y of the original `b` (repr: nan, -0.0)."""
    if type(x) is not type(y):
        return False
    if repr(_as_defined(x)) == repr(y):
        return True
    # Python 3.13 keeps a class body's first line (__firstlineno__) among its constants;
    # the recompiled def counts lines from its own start
    return "__firstlineno__" in b.co_names and x == a.co_firstlineno and y == b.co_firstlineno


_OUTER_PREFIX = "__thunkgrad_outer__.<locals>."


def _as_defined(const):
    """A constant of the recompiled code as the original has it: Python 3.10 keeps a
    nested def's __qualname__ among the constants, and ours has the wrapper's name."""
    if isinstance(const, str) and const.startswith(_OUTER_PREFIX):
        return const[len(_OUTER_PREFIX):]
    return const
