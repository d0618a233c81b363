"""The alias check's error messages: what was written, which other name shares it and
since which line, and the copy that would avoid it."""
import re

import gast

from .tables import VIEW_ATTRS, VIEW_FUNCTIONS, VIEW_METHODS, instead
from .liveness import uses
from ..errors import TransformError
from ..frontend.mutable_defaults import default_write_error, mutable_defaults

MUTATOR_INSTEAD = {
    "pop": "call it as a statement of its own (`v = {0}.pop()`) on a list or dict no other "
           "name, container, loop or nested function sees, or build a shorter list: "
           "`{0} = {0}[:-1]` (read `{0}[-1]` first if you need it)",
    "remove": "build a new list: `{0} = [v for v in {0} if ...]`",
    "insert": "build a new list: `{0} = {0}[:i] + [new] + {0}[i:]`",
    "clear": "start a new one: `{0} = []`",
    "reverse": "build a new list: `{0} = {0}[::-1]`",
    "update": "assign each key: `{0}[k] = v`",
    "setdefault": "assign the key: `{0}[k] = v`",
    "popitem": "build a new dict without the key",
}


_OPS = {"Add": "+", "Sub": "-", "Mult": "*", "Div": "/", "FloorDiv": "//", "Mod": "%",
        "Pow": "**", "MatMult": "@", "BitAnd": "&", "BitOr": "|", "BitXor": "^",
        "LShift": "<<", "RShift": ">>"}


def _op_text(op):
    return _OPS.get(type(op).__name__, "+")


class AliasMessages:
    """TransformErrors at the user's line, naming both names: a part of an AliasCheck.
    `origin` (State.origin: name -> the statement that made it) is passed in."""

    def __init__(self, src):
        self.src = src

    def external(self, name, obj, node, how, origin):
        kind, base = obj.split(":", 1)
        if kind == "arg" and base in mutable_defaults(self.src.fn):
            return default_write_error(self.src, base, node, _how(how))
        what = {"arg": f"the argument `{base}`", "global": f"the module global `{base}`",
                "outer": f"`{base}` of the enclosing function"}[kind]
        if name == base:
            message = f"writing into {what} is not supported"
        else:
            message = f"writing into `{name}` is not supported: it may share memory with {what}"
        consequence = "it would change the caller's data" if kind == "arg" else \
            "the gradient cannot follow writes into data from outside the function"
        hint = self.copy_hint(name, origin) or f"copy it first: `{base} = {base}.copy()`"
        return self.src.error(f"{message}{_how(how)}; {consequence}", node, hint=hint)

    def shared(self, name, other, node, how, origin, hint=None):
        hoisted = getattr(origin.get(name), "user_text", None)
        if hoisted is not None:                # `d.setdefault(k, []).append(v)`
            return self.src.error(
                f"changing in place the value `{hoisted}` returns is not supported here"
                f"{_how(how)}: `{other}` still holds it, and the gradient cannot follow "
                "writes through shared memory", node,
                hint="build the new value and assign it to the key: "
                     "`d[k] = d.get(k, []) + [v]`")
        if _mentions(origin.get(other), name) or not _mentions(origin.get(name), other):
            relation = f"`{other}` {_relation(origin.get(other))} `{name}`"
            line, copied = self.line(origin.get(other)), other
        else:
            relation = f"`{name}` {_relation(origin.get(name))} `{other}`"
            line, copied = self.line(origin.get(name)), name
        message = (f"writing into `{name}` is not supported here{_how(how)}: {relation}"
                   f"{line}, `{other}` is read after this write, and the gradient cannot "
                   "follow writes through shared memory")
        hint = hint or self.copy_hint(copied, origin) or \
            self.store_copy_hint(copied, name if copied == other else other, origin) \
            or f"copy first: `{name} = {name}.copy()` (or `list({name})`), so each array " \
               "has one name"
        return self.src.error(message, node, hint=hint)

    def slot_shared(self, node, name, obj):
        """`xs[0] *= v` where the slot may hold an array another reference also sees."""
        where = {"arg": "the argument `{}`", "global": "the module global `{}`",
                 "outer": "`{}` of the enclosing function"}
        kind, _, base = obj.partition(":")
        other = where[kind].format(base) if kind in where else \
            "another slot of this or another container"
        op = _op_text(node.op)
        return self.src.error(
            f"`{name} {op}= ...` is not supported here: `{name}` may hold an array that "
            f"{other} also holds, and `{op}=` would change that array in place for "
            "every holder, which the gradient cannot follow", node,
            hint=self.rebind_hint(node))

    def rebind_hint(self, node):
        """`v *= 2.0` -> `v = v * 2.0`: a new array, the held one left as it was."""
        value = _text(node.value)
        if not isinstance(node.value, (gast.Name, gast.Constant, gast.Attribute,
                                       gast.Subscript, gast.Call)):
            value = f"({value})"
        name = _text(node.target)
        return f"assign a new value: `{name} = {name} {_op_text(node.op)} {value}`"

    def line(self, node):
        if node is None or getattr(node, "lineno", None) is None:
            return ""
        return f" (line {self.src.first_line + node.lineno - 1})"

    def copy_hint(self, name, origin):
        stmt = origin.get(name)
        if isinstance(stmt, gast.Assign) and len(stmt.targets) == 1 \
                and isinstance(stmt.targets[0], gast.Name) \
                and _relation(stmt) in ("may be a view of", "is another name for"):
            return f"copy first: `{name} = {_text(stmt.value)}.copy()`"
        return None

    def store_copy_hint(self, container, name, origin):
        """`hist = [h]` -> store a copy: `hist = [h.copy()]`."""
        stmt = origin.get(container)
        if isinstance(stmt, gast.Assign) and len(stmt.targets) == 1:
            before, text = _text(stmt.targets[0]) + " = ", _text(stmt.value)
        elif isinstance(stmt, gast.Expr):
            before, text = "", _text(stmt.value)
        else:
            return None
        word = re.compile(rf"\b{re.escape(name)}\b")
        if not word.search(text):
            return None
        return f"store a copy: `{before}{word.sub(name + '.copy()', text)}`"

    def inplace(self, target, node, what, key):
        """In place on an array no one else sees: still nothing the tape can undo."""
        name = target.id if isinstance(target, gast.Name) else _text(target)   # `x[:2]`
        hint = instead(key)
        return self.src.error(f"{what} changes `{name}` in place, which the backward sweep "
                              "cannot undo", node, hint=hint.format(name))

    def mutator(self, node, name, text):
        """`xs.pop()` and the like: a list or dict changed other than by append/extend."""
        hint = MUTATOR_INSTEAD.get(name, "build a new list or dict and assign it")
        return self.src.error(f"`.{name}()` changes `{text}` in place, which the generated "
                              "code cannot follow here (`pop`, `insert`, `reverse`, `clear` "
                              "are supported as statements on a list or dict this function "
                              "builds and shares with no other name, container, loop or "
                              "nested function)", node, hint=hint.format(text))

    def helper_write(self, node, fn, error):
        """The helper's own error at its write, naming this call: the helper is refused
        even where its result is not differentiated (called as it is, its write would
        go unseen)."""
        call = self.src.error("", node)
        return TransformError(f"{error.message} (`{fn.__name__}` is called at "
                              f"{call.location})", filename=error.filename, line=error.line,
                              col=error.col, source_line=error.source_line,
                              hint=f"{error.hint}; or have `{fn.__name__}` return the new "
                                   "value and assign it at the call")


def _how(how):
    return f" ({how})" if how else ""


def _mentions(stmt, name):
    return stmt is not None and name in uses(getattr(stmt, "value", None) or
                                             getattr(stmt, "iter", None))


def _relation(stmt):
    """How a statement's target relates to the names it reads."""
    if isinstance(stmt, gast.For):
        return "is an element of"
    value = getattr(stmt, "value", None)
    if isinstance(stmt, gast.Expr) or isinstance(value, (gast.List, gast.Tuple, gast.Dict)):
        return "holds"
    if isinstance(value, gast.Name):
        return "is another name for"
    if isinstance(value, gast.Subscript) or _view_call(value):
        return "may be a view of"
    return "may share memory with"


VIEW_NAMES = VIEW_METHODS | {getattr(f, "__name__", "") for f in VIEW_FUNCTIONS}


def _view_call(value):
    if isinstance(value, gast.Attribute):
        return value.attr in VIEW_ATTRS
    if isinstance(value, gast.Call):
        func = value.func
        return getattr(func, "attr", getattr(func, "id", None)) in VIEW_NAMES
    return False


def _text(node):
    import ast
    return ast.unparse(gast.gast_to_ast(node))
