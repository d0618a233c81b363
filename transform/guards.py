"""Guards: what the compiler resolved at compile time, checked before compiled code runs.

The compiler decides from the objects names denote (which function a call reaches,
which module an attribute goes through, which rule applies). Compiled code is right
only while those still hold:

    lam = 2.0; def helper(v): ...; def f(x): return lam * helper(x)
    compiled f  ->  Guards: helper is <function helper>, lam is some plain value,
                    and the rule registry has not changed since

`hold()` re-reads each name (closure cell, then module global, then builtin) and
compares: a callable, module or None by identity; a plain value (a float, an array)
only by kind, since generated code reads it live and the compiler never looked
inside it. When a guard fails, the caller recompiles.
"""
import builtins
import types

from runtime import registry

_DATA = object()          # expected: a plain value (not None, not callable, not a module)
_MISSING = object()


def expectation(value):
    """What a guard compares a later value with: the object itself, or _DATA."""
    if value is None or callable(value) or isinstance(value, types.ModuleType):
        return value
    return _DATA


class Guards:
    """The resolutions one compiled rule depends on, and the registry generation."""

    __slots__ = ("globals", "entries", "generation")

    def __init__(self, fn, resolved):
        """resolved: {(name, attr, ...): the object the dotted path denoted}."""
        code = fn.__code__
        cells = dict(zip(code.co_freevars, fn.__closure__ or ()))
        paths = sorted(resolved)
        longest = [p for k, p in enumerate(paths)         # a prefix is read on the way
                   if not (k + 1 < len(paths) and paths[k + 1][:len(p)] == p)]
        self.globals = fn.__globals__
        self.entries = tuple((cells.get(p[0]), p[0], p[1:], expectation(resolved[p]))
                             for p in longest)
        self.generation = registry.generation

    def hold(self):
        """Whether every name still denotes what the compiler saw."""
        if registry.generation != self.generation:
            return False
        for cell, name, attrs, expected in self.entries:
            value = _read(self.globals, cell, name)
            for attr in attrs:
                value = None if value is None else getattr(value, attr, None)
            if value is not expected and not _same(value, expected):
                return False
        return True


_BOUND = (types.MethodType, types.BuiltinMethodType)


def _same(value, expected):
    """Equal for a guard though not identical: another plain value, or the same method
    bound to the same object (`obj.f` makes a new bound method on every read)."""
    if expected is _DATA:
        return expectation(value) is _DATA
    return type(expected) in _BOUND and type(value) is type(expected) and value == expected


def _read(namespace, cell, name):
    """A free name's value now: as SourceFunction.lookup_global reads it."""
    if cell is not None:
        try:
            return cell.cell_contents
        except ValueError:
            return None
    value = namespace.get(name, _MISSING)
    return getattr(builtins, name, None) if value is _MISSING else value
