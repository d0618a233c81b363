"""Generator: user objects built from differentiated values, with members named like
ndarray ones.

    user_objects:  class Box:
                       def __init__(self, w, b):
                           self.T = w * b                   attribute named like x.T
                           self.size = b                    ... like x.size
                       @property
                       def shape(self):                     property named like x.shape
                           return np.tanh(self.T)
                       def mean(self):                      method named like x.mean()
                           return np.sum(self.T) * self.size
                   def f(x, a):
                       box = Box(a * x, np.tanh(x))
                       return box.mean() + np.sum(box.shape)

Classes: a plain class with `__init__` (attributes T, size, ndim, shape or plain names),
a @dataclass with `__post_init__`, and @property or functools.cached_property getters (a
cached one always read in f, twice: the second read is the cached value; forward mode took
the tangent object's own attribute for it, the getter run on the tangents: session 38); methods mean(), sum(t), std(),
dot(t), reshape(k), T given as attributes, and fill(v), which changes self like
ndarray.fill changes an array (taken for ndarray.fill, it gave a silently wrong gradient:
session 34), called on the object directly or through a helper also given an array. The object is built in f from differentiated
values or at module level; read directly, through a helper whose parameter does not show the
receiver's type (`stat(o)` called with an object and with an ndarray), or by a method.
"""
from .program import ARRAY, SCALAR

# attribute names an ndarray also has
_ARRAY_NAMES = ("T", "size", "shape", "ndim", "real")
_MEMORY_NAMES = ("flat", "data")   # refused inside methods (see docs/fuzz_findings.md)
_METHODS = {   # method name: (signature after self, body over self.<arr>, self.<sc>)
    "mean": ("", "np.sum(self.{arr}) * self.{sc}"),
    "sum": (", t", "np.sum(self.{arr} * t) + self.{sc}"),
    "std": ("", "np.tanh(self.{sc}) * np.mean(self.{arr} ** 2)"),
    "dot": (", t", "np.dot(self.{arr}, t) * self.{sc}"),
    "reshape": (", k", "self.{arr} * k + self.{sc}"),
    "copy": ("", "self.{arr} * 1.0 + self.{sc}"),
}


def user_objects(g, seed):
    x, a = g.param(SCALAR), g.param(ARRAY)
    env = {x: SCALAR, a: ARRAY}
    names = g.rng.sample(_ARRAY_NAMES, 2)
    if g.chance(0.15):
        names[1] = g.pick(_MEMORY_NAMES)
    arr, sc = names
    methods = g.rng.sample(sorted(_METHODS), 2)
    cls = g.name("Box").capitalize()
    prop = g.pick(("shape", "T", "norm", g.name("field")))
    prop = prop if prop not in names else "value"
    cached = g.chance(0.3)
    if g.chance(0.4):
        _dataclass(g, cls, arr, sc, methods, prop, cached)
    else:
        _plain(g, cls, arr, sc, methods, prop, cached)
    obj = g.name("box")
    w, b = g.array(env, 1), f"np.tanh({g.scalar(env, 1)})"
    built_here = g.chance(0.8)      # (a global object changed by fill would carry over)
    if built_here:
        g.line(f"{obj} = {cls}({w}, {b})")
        g.use("object_from_differentiated")
    else:
        g.module.append(f"{obj} = {cls}(np.linspace(-0.5, 0.8, {g.n}), 0.3)")
        g.use("global_object")
    terms = [_read(g, obj, arr, sc, prop, m, a) for m in methods]
    terms.append(g.pick((f"np.sum({obj}.{prop})", f"np.sum({obj}.{arr} * {a})",
                         f"{obj}.{sc} * {x}")))
    if cached:
        terms.append(f"np.sum({obj}.{prop} * {a}) * np.sum({obj}.{prop})")
    if built_here and g.chance(0.3):
        terms += _fill(g, obj, env, a)       # (last: the draws above stay the same)
    return g.case("user_objects", seed, " + ".join(terms))


def _fill(g, obj, env, a):
    """`obj.fill(v)` before the return (the object's own method, changing self), or
    `paint(obj, v)` with a helper also given a local array (ndarray.fill there)."""
    v = g.scalar(env, 1)
    if not g.chance(0.5):
        g.line(f"{obj}.fill({v})")
        return []
    helper, o, t, buf = g.name("paint"), g.name("param"), g.name("param"), g.name("buf")
    g.define([f"def {helper}({o}, {t}):", f"    {o}.fill({t})"])
    g.line(f"{buf} = np.zeros({g.n})")
    g.line(f"{helper}({obj}, {v})")
    g.line(f"{helper}({buf}, {v})")
    g.use("receiver_unknown")
    return [f"np.sum({buf} * {a})"]


def _fill_lines(sc):
    return ["    def fill(self, v):", f"        self.{sc} = self.{sc} * v", ""]


def _method_lines(name, arr, sc):
    signature, body = _METHODS[name]
    return [f"    def {name}(self{signature}):",
            f"        return {body.format(arr=arr, sc=sc)}", ""]


def _property_lines(g, prop, arr, sc, cached):
    if not cached:
        decorator = "@property"
    else:
        decorator = "@functools.cached_property"
        if "import functools" not in g.imports:
            g.imports.append("import functools")
        g.use("cached_property")
    return [f"    {decorator}", f"    def {prop}(self):",
            f"        return np.tanh(self.{arr}) * self.{sc}", ""]


def _plain(g, cls, arr, sc, methods, prop, cached):
    lines = [f"class {cls}:", "    def __init__(self, w, b):",
             f"        self.{arr} = w * b", f"        self.{sc} = b", ""]
    lines += _property_lines(g, prop, arr, sc, cached) + _fill_lines(sc)
    for m in methods:
        lines += _method_lines(m, arr, sc)
    g.define(lines[:-1])
    g.use("class_init", "property")


def _dataclass(g, cls, arr, sc, methods, prop, cached):
    if "import dataclasses" not in g.imports:
        g.imports.append("import dataclasses")
    lines = ["@dataclasses.dataclass", f"class {cls}:", "    w: object", "    b: float", "",
             "    def __post_init__(self):", f"        self.{arr} = self.w * self.b",
             f"        self.{sc} = np.tanh(self.b)", ""]
    lines += _property_lines(g, prop, arr, sc, cached) + _fill_lines(sc)
    for m in methods:
        lines += _method_lines(m, arr, sc)
    g.define(lines[:-1])
    g.use("dataclass_post_init", "property", "dataclass")


def _read(g, obj, arr, sc, prop, method, a):
    """One real scalar from `obj.method(...)`: direct, or through a helper that does not
    show its argument's type and is also called with an ndarray."""
    signature = _METHODS[method][0]
    args = {"": "", ", t": a, ", k": "2.0"}[signature]
    call = f"{obj}.{method}({args})"
    g.use("ndarray_named_member")
    if method in ("mean", "std", "dot", "copy") and g.chance(0.4):
        helper, o, t = g.name("stat"), g.name("param"), g.name("param")
        g.define([f"def {helper}({o}, {t}):",
                  f"    return {o}.{method}({t if args else ''})"])
        g.use("receiver_unknown")
        return f"np.sum({helper}({obj}, {a})) + np.sum({helper}({a}, {a}))"
    return f"np.sum({call})"
