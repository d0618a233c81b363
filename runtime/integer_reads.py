"""A helper or property the compiler read as an integer made from sizes
(transform/lowering/integer_results.py) runs with no derivative. That holds only if
running it changes nothing a derivative flows through: a user object's own `.sum()`,
`__len__` or property could add to a differentiated attribute. So the generated code
runs a checked copy of it:

    integer_call(deg, c)            checked(deg)(c), its value an integer
    integer_attribute(p, "n")       the property's getter's checked copy run on p

In the copy every reduction (`.max()`, ...), `len`, `int`, operator and index reads a
NumPy or builtin value only; an attribute of a user object is an instance attribute,
a slot, a class constant or a property (run as a checked copy itself); a call is `len`,
`int` or another helper (a checked copy). Anything else is refused when it runs: the
derivative is never dropped unseen.
"""
import ast
from copy import deepcopy
import inspect
import textwrap
import types
import weakref

from .helpers import integer_valued
from .registry import template_helper

_READS = ("max", "min", "sum", "argmax", "argmin", "item", "any", "all", "count")
_SIZES = ("shape", "ndim", "size")
_STATEMENTS = (ast.Assign, ast.Return)
_NODES = (ast.Name, ast.Constant, ast.Attribute, ast.Subscript, ast.Slice, ast.Call,
          ast.BinOp, ast.UnaryOp, ast.Compare, ast.Tuple, ast.List, ast.keyword,
          ast.expr_context, ast.operator, ast.unaryop, ast.cmpop)
_HELPERS = ("_thunkgrad_attr_", "_thunkgrad_reduce_", "_thunkgrad_call_", "_thunkgrad_plain_")
_FACTORIES = weakref.WeakKeyDictionary()        # fn.__code__ -> the copy's factory
_MISSING = object()


@template_helper
def integer_call(fn, *args):
    """`fn(*args)` run as a checked copy (above); its value an integer."""
    return integer_valued(_call(fn, *args))


@template_helper
def integer_attribute(obj, name):
    """`obj.name`, a property's getter run as a checked copy; its value an integer."""
    return integer_valued(_attr(obj, name))


def _refuse(what):
    raise TypeError(f"thunkgrad read a helper (or property) as an integer made from sizes, "
                    f"but running it {what}: it might change a value a derivative flows "
                    "through unseen; compute the integer in the function itself")


def _plain(value):
    """A NumPy or builtin value: its operators, indexing and reductions change nothing."""
    if (type(value).__module__ or "").split(".")[0] not in ("builtins", "numpy"):
        _refuse(f"reads a {type(value).__name__} (a user object) by an operator, len, "
                "int, indexing or a method")
    return value


def _attr(obj, name):
    if (type(obj).__module__ or "").split(".")[0] in ("builtins", "numpy"):
        return getattr(obj, name)
    value = _object_attr(obj, name)
    return integer_valued(value) if name in _SIZES else value


def _object_attr(obj, name):
    cls = type(obj)
    static = inspect.getattr_static(cls, name, _MISSING)
    if cls.__getattribute__ is not object.__getattribute__:
        _refuse(f"reads .{name} of a {cls.__name__}, which has its own __getattribute__")
    if isinstance(static, property) and isinstance(static.fget, types.FunctionType):
        return _checked(static.fget)(obj)
    if isinstance(static, types.MemberDescriptorType):
        return getattr(obj, name)
    data = hasattr(type(static), "__set__") or hasattr(type(static), "__delete__")
    own = getattr(obj, "__dict__", {})
    if not data and name in own:
        return own[name]
    if static is not _MISSING and not hasattr(type(static), "__get__"):
        return static                           # a class constant
    return _refuse(f"reads .{name} of a {cls.__name__} through a descriptor or __getattr__")


def _reduce(obj, name, *args, **kwargs):
    _plain(obj)
    return getattr(obj, name)(*args, **kwargs)


def _call(fn, *args, **kwargs):
    if fn is len or fn is int:
        return fn(*[_plain(a) for a in args], **kwargs)
    if not isinstance(fn, types.FunctionType):
        _refuse(f"calls {getattr(fn, '__name__', fn)!r}, no plain function")
    return integer_valued(_checked(fn)(*args, **kwargs))


def _checked(fn):
    """A copy of `fn` whose every read is checked (above)."""
    factory = _FACTORIES.get(fn.__code__)
    if factory is None:
        factory = _FACTORIES[fn.__code__] = _factory(fn)
    try:
        cells = [c.cell_contents for c in fn.__closure__ or ()]
    except ValueError:                      # a variable not bound yet
        return _refuse(f"reads a variable of {fn.__qualname__}'s scope not bound yet")
    copy = factory(_attr, _reduce, _call, _plain, *cells)
    copy.__defaults__, copy.__kwdefaults__ = fn.__defaults__, fn.__kwdefaults__
    return copy


def _factory(fn):
    try:
        fdef = ast.parse(textwrap.dedent(inspect.getsource(fn))).body[0]
    except (OSError, TypeError, SyntaxError, IndexError):
        return _refuse(f"needs {fn.__qualname__}'s source, which is not available")
    if not isinstance(fdef, ast.FunctionDef):
        _refuse(f"runs {fn.__qualname__}, no plain def")
    first = fdef.decorator_list[0].lineno if fdef.decorator_list else fdef.lineno
    ast.increment_lineno(fdef, fn.__code__.co_firstlineno - first)
    fdef.decorator_list = []
    if not _runs_as(fn, _compiled(fn, deepcopy(fdef), ())):
        _refuse(f"needs {fn.__qualname__}'s source, which is not the code that runs (the "
                "file was edited after import?)")
    _Checks(fn).check_body(fdef)
    fdef = ast.fix_missing_locations(_Checks(fn).visit(fdef))
    return types.FunctionType(_compiled(fn, fdef, _HELPERS), fn.__globals__)


def _compiled(fn, fdef, helpers):
    """The code of `def _thunkgrad_factory_(*helpers, *fn's free variables): <fdef>;
    return it`: fdef's free variables bound as fn's are."""
    params = [ast.arg(arg=n) for n in helpers + fn.__code__.co_freevars]
    factory = ast.FunctionDef(
        name="_thunkgrad_factory_", args=ast.arguments(
            posonlyargs=[], args=params, kwonlyargs=[], kw_defaults=[], defaults=[]),
        body=[fdef, ast.Return(ast.Name(fdef.name, ast.Load()))], decorator_list=[])
    module = ast.fix_missing_locations(ast.Module(body=[factory], type_ignores=[]))
    code = compile(module, inspect.getsourcefile(fn) or "<integer helper>", "exec")
    return next(c for c in code.co_consts if isinstance(c, types.CodeType))


def _runs_as(fn, factory_code):
    """Whether the source compiled (factory_code's def) is the code fn runs: a file
    edited after import holds other text, and its copy would compute another integer."""
    made = next((c for c in factory_code.co_consts if isinstance(c, types.CodeType)), None)
    code = fn.__code__
    return made is not None and (made.co_code, made.co_names, made.co_varnames,
                                 made.co_freevars) == (code.co_code, code.co_names,
                                                       code.co_varnames, code.co_freevars)


class _Checks(ast.NodeTransformer):
    """Each read of the copy through the checks above."""

    def __init__(self, fn):
        self.fn = fn

    def check_body(self, fdef):
        body = fdef.body[1:] if ast.get_docstring(fdef) else fdef.body
        for s in body:
            if not isinstance(s, _STATEMENTS) or isinstance(s, ast.Assign) and not \
                    all(isinstance(t, ast.Name) for t in s.targets):
                _refuse(f"runs a statement other than `name = ...` or `return ...` "
                        f"({self.fn.__qualname__}, line {s.lineno})")
            for node in ast.walk(s.value) if s.value is not None else ():
                if not isinstance(node, _NODES) or isinstance(node, ast.Name) and \
                        node.id in _HELPERS:
                    _refuse(f"evaluates a {type(node).__name__} "
                            f"({self.fn.__qualname__}, line {s.lineno})")
        fdef.body = body

    def visit_Attribute(self, e):
        return _helper(e, "_thunkgrad_attr_", [self.visit(e.value), ast.Constant(e.attr)])

    def visit_Call(self, e):
        args = [self.visit(a) for a in e.args]
        keywords = [self.visit(k) for k in e.keywords]
        if isinstance(e.func, ast.Attribute) and e.func.attr in _READS:
            receiver = [self.visit(e.func.value), ast.Constant(e.func.attr)]
            return _helper(e, "_thunkgrad_reduce_", receiver + [_plain_node(a) for a in args],
                           keywords)
        return _helper(e, "_thunkgrad_call_", [self.visit(e.func)] + args, keywords)

    def visit_Subscript(self, e):
        e.value = _plain_node(self.visit(e.value))
        e.slice = self.visit(e.slice)
        return e

    def visit_BinOp(self, e):
        e.left, e.right = _plain_node(self.visit(e.left)), _plain_node(self.visit(e.right))
        return e

    def visit_Compare(self, e):
        e.left = _plain_node(self.visit(e.left))
        e.comparators = [_plain_node(self.visit(c)) for c in e.comparators]
        return e

    def visit_UnaryOp(self, e):
        e.operand = _plain_node(self.visit(e.operand))
        return e


def _helper(e, name, args, keywords=()):
    return ast.copy_location(ast.Call(func=ast.Name(name, ast.Load()), args=args,
                                      keywords=list(keywords)), e)


def _plain_node(e):
    return _helper(e, "_thunkgrad_plain_", [e])
