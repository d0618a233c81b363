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
import weakref

from runtime import registry

_DATA = object()          # expected: a plain value (not None, not callable, not a module)
_MISSING = object()


def expectation(value):
    """What a guard compares a later value with: the object itself, or _DATA."""
    if value is None or callable(value) or isinstance(value, types.ModuleType):
        return value
    return _DATA


class Guards:
    """The resolutions one compiled rule depends on, and the registry generation.

    `hold` is a small function generated for these entries (no loop, module
    attributes read with plain attribute loads): it runs on every call of grad.
    """

    __slots__ = ("entries", "generation", "hold")

    def __init__(self, fn, resolved):
        """resolved: {(name, attr, ...): the object the dotted path denoted}."""
        code = fn.__code__
        cells = dict(zip(code.co_freevars, fn.__closure__ or ()))
        paths = sorted(resolved)
        longest = [p for k, p in enumerate(paths)         # a prefix is read on the way
                   if not (k + 1 < len(paths) and paths[k + 1][:len(p)] == p)]
        self.entries = tuple((cells.get(p[0]), p[0], p[1:], expectation(resolved[p]))
                             for p in longest)
        self.generation = registry.generation
        self.hold = _checker(fn.__globals__, self.entries, self.generation, fn)


class AllGuards:
    """Several rules' guards as one: `hold()` while each holds (a plain caller with the
    callees it calls split, compiled with it: public/plain_split_calls.py)."""

    __slots__ = ("parts", "hold")

    def __init__(self, parts):
        self.parts = tuple(parts)
        self.hold = lambda: all(g.hold() for g in self.parts)


def _checker(namespace, entries, generation, fn):
    """`hold()`: whether every name still denotes what the compiler saw, and fn still
    has the code and defaults it was compiled from (`f.__code__ = ...` or
    `f.__defaults__ = ...` after the first call: the rule copied the old ones)."""
    env = {"_g": namespace, "_registry": registry, "_M": _MISSING, "_builtin": _builtin,
           "_cell": _cell, "_path": _path, "_same": _same, "_fn": weakref.ref(fn),
           "_code": fn.__code__, "_d": fn.__defaults__, "_kd": fn.__kwdefaults__}
    keywords = " or _f.__kwdefaults__ is not _kd" if fn.__code__.co_kwonlyargcount else ""
    lines = [f"    if _registry.generation != {generation}: return False",
             "    _f = _fn()",      # weakly: the cache must not keep fn alive
             "    if _f is not None and (_f.__code__ is not _code or _f.__defaults__ is not _d"
             f"{keywords}): return False"]     # (other code has its own count: compared)
    roots = {}
    for k, (cell, name, attrs, expected) in enumerate(entries):
        env[f"e{k}"] = expected
        if name not in roots:
            root = roots[name] = f"r{len(roots)}"
            if cell is not None:
                env["c" + root] = cell
                lines.append(f"    {root} = _cell(c{root})")
            else:
                lines.append(f"    {root} = _g.get({name!r}, _M)")
                lines.append(f"    if {root} is _M: {root} = _builtin({name!r})")
        value = roots[name]
        if attrs:              # what resolved to None may have no such attribute: getattr
            value = "".join([value] + ["." + a for a in attrs]) if expected is not None \
                else f"_path({value}, {attrs!r})"
        lines.append(f"    if {value} is not e{k} and not _same({value}, e{k}): return False")
    source = "def hold():\n    try:\n" + "\n".join("    " + ln for ln in lines) + \
        "\n    except Exception:\n        return False\n    return True\n"
    exec(compile(source, "<thunkgrad guards>", "exec"), env)
    return env["hold"]


def _builtin(name):
    return getattr(builtins, name, None)


def _cell(cell):
    try:
        return cell.cell_contents
    except ValueError:
        return None


def _path(value, attrs):
    for attr in attrs:
        value = None if value is None else getattr(value, attr, None)
    return value


_BOUND = (types.MethodType, types.BuiltinMethodType)


def _same(value, expected):
    """Equal for a guard though not identical: another plain value, or the same method
    bound to the same object (`obj.f` makes a new bound method on every read)."""
    if expected is _DATA:
        return expectation(value) is _DATA
    return type(expected) in _BOUND and type(value) is type(expected) and value == expected
