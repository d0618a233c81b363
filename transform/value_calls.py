"""A call of a value that is no Python function, in generated forward-mode code under
reverse mode (hvp, hessian, grad of grad): `call_jvp(np.tanh, {0: x_dot}, x)` for a
NumPy function passed as a value, `call_jvp(dict.get, {0: d_dot}, d, k)` for a
container's method (transform/forward/calls.py container_method). Reverse mode
differentiates the tangent code of a Python function; so the value is called from a
two-line function of the call's arity,

    def call_tanh(a0):
        return fn(a0)            (fn: np.tanh)

whose source is registered with linecache like generated code's, and the call is
that function's (transform/forward_reverse.py call_jvp_rule): forward mode compiles
`fn(a0)` as it compiles the same call written in user code, with the same refusals.
One function per (value, arity, keyword names), kept while the value is alive.
"""
import linecache
import threading
import weakref

from runtime import registry

from .lowering.records import record_rule

_LOCK = threading.Lock()
_MADE = weakref.WeakKeyDictionary()         # value -> {(arity, keyword names): function}
_KEPT = {}                                  # the same, for values without weak references


def wrappable(fn):
    """A value forward mode compiles when called by name without calling call_jvp
    again: a function with a template rule (NumPy and Python functions, container
    methods), a dataclass or NamedTuple built by its record rule (`type(self)(q, p)`).
    Another class is not (forward mode refuses calling one with a tangent)."""
    rule = registry.lookup(fn) or (record_rule(fn) if isinstance(fn, type) else None)
    return rule is not None and rule.kind == "template"


def calling(fn, arity, keywords):
    """The function `call_<name>(a0, .., a<arity-1>, *keywords)` returning fn's call."""
    key = (arity, tuple(keywords))
    with _LOCK:
        try:
            made = _MADE.setdefault(fn, {})
        except TypeError:
            made = _KEPT.setdefault(fn, {})
        if key not in made:
            made[key] = _made(fn, *key)
        return made[key]


def positional(k):
    return f"a{k}"


def _made(fn, arity, keywords):
    name = getattr(fn, "__name__", "value")
    name = name if name.isidentifier() else "value"
    params = [positional(k) for k in range(arity)] + list(keywords)
    passed = [positional(k) for k in range(arity)] + [f"{n}={n}" for n in keywords]
    text = f"def call_{name}({', '.join(params)}):\n    return fn({', '.join(passed)})\n"
    filename = f"<thunkgrad call of {name} {id(fn):x} {arity} {','.join(keywords)}>"
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    namespace = {"fn": fn}
    exec(compile(text, filename, "exec"), namespace)
    return namespace[f"call_{name}"]
