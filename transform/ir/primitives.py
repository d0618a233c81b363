"""What one normalized statement computes: the callable, its rule, its bound inputs.

    h = np.tanh(t2)   ->   Prim(rule=<np.tanh>, inputs={"x": t2})

The reverse stage reads `Prim`s only; it never looks at call syntax.
"""
import inspect
import operator
import sys
import sysconfig

import gast

import runtime
from .nodes import const

BINOPS = {
    gast.Add: operator.add, gast.Sub: operator.sub, gast.Mult: operator.mul,
    gast.Div: operator.truediv, gast.Pow: operator.pow, gast.MatMult: operator.matmul,
    gast.FloorDiv: operator.floordiv, gast.Mod: operator.mod, gast.BitAnd: operator.and_,
    gast.BitOr: operator.or_, gast.BitXor: operator.xor,
    gast.LShift: operator.lshift, gast.RShift: operator.rshift,
}
UNARYOPS = {gast.USub: operator.neg, gast.UAdd: operator.pos, gast.Not: operator.not_,
            gast.Invert: operator.invert}
NONDIFF_ATTRIBUTES = {"shape", "ndim", "size", "dtype", "itemsize", "nbytes", "strides"}


class Prim:
    """One primitive operation.

    kind: "rule" (inline template), "nondiff", "custom" (a registered rrule),
    "call" (a user function compiled to its own rule), "copy", "pack", "append".
    inputs: parameter name -> atom node, defaults filled in (rule kinds);
    args: positional atoms (custom and call kinds).
    operands: (position or keyword, atom) of a "nondiff" call or a method call, which
    transform/reasons.py checks against the rule's reasons; site: the user's node.
    """
    operands = ()
    site = None
    cuts = None         # a join cut straight to its parts (analysis/joins.py)

    def __init__(self, kind, label, rule=None, fn=None, inputs=None, args=None):
        self.kind = kind
        self.label = label
        self.rule = rule
        self.fn = fn
        self.inputs = inputs or {}
        self.args = args or []

    def diff_inputs(self):
        """(parameter, atom) pairs a cotangent can flow to."""
        if self.kind == "rule":
            return [(p, a) for p, a in self.inputs.items() if p in self.rule.templates]
        if self.kind in ("custom", "call", "pack", "append", "extend", "setitem"):
            return [(k, a) for k, a in enumerate(self.args)]
        if self.kind == "copy":
            return [(0, self.args[0])]
        return []

    def __repr__(self):
        return f"<Prim {self.kind} {self.label}>"


def from_rule(rule, args, keywords, label):
    """A Prim for a call through `rule`, binding atoms to parameter names."""
    if rule.kind == "custom":
        prim = Prim("custom", label, rule=rule, fn=rule.fn, args=list(args))
        prim.operands = list(keywords.items())     # an rrule's pullback answers by position
        return prim
    if rule.kind == "nondiff" or rule.signature is None:
        prim = Prim("nondiff", label, rule=rule, fn=rule.fn)
        prim.operands = list(enumerate(args)) + list(keywords.items())
        return prim
    bound = rule.signature.bind(*args, **keywords)
    bound.apply_defaults()
    inputs = {}
    for name, value in bound.arguments.items():
        param = rule.signature.parameters[name]
        if param.kind is inspect.Parameter.VAR_POSITIONAL:
            value = gast.Tuple(elts=list(value), ctx=gast.Load())
        elif param.kind is inspect.Parameter.VAR_KEYWORD:     # np.pad's **kwargs
            value = gast.Dict(keys=[const(k) for k in value], values=list(value.values()))
        if not isinstance(value, gast.AST):
            value = const(value)
        inputs[name] = value
    return Prim("rule", label, rule=rule, fn=rule.fn, inputs=inputs)


# Libraries whose own Python source is never compiled: a function of theirs without a
# rule runs as it is, and a differentiated value reaching it is refused at the call.
# The standard library is one too (`copy.deepcopy`, `statistics.mean`): its source is
# not written for differentiation, and a crash inside it would tell the user nothing.
# C halves of standard modules name themselves, not the module users import
_C_HALVES = {"_warnings": "warnings", "_operator": "operator", "_functools": "functools",
             "_heapq": "heapq", "_bisect": "bisect", "_random": "random"}
OPAQUE_LIBRARIES = frozenset({"scipy"} | set(getattr(sys, "stdlib_module_names", ()))) - \
    {"__main__", "__future__"}


def opaque_library(fn):
    """The OPAQUE_LIBRARIES root `fn` (a function or bound method) comes from, or None."""
    module = getattr(fn, "__module__", None) or \
        getattr(getattr(fn, "__self__", None), "__module__", None) or ""
    root = module.split(".")[0]
    if not module and type(fn).__name__ == "ufunc":     # ufuncs do not name their module
        special = sys.modules.get("scipy.special")
        root = "scipy" if getattr(special, getattr(fn, "__name__", ""), None) is fn else ""
    root = _C_HALVES.get(root, root)
    if root not in OPAQUE_LIBRARIES and _stdlib_code(fn):
        return "the standard library"   # a stdlib wrapper (@contextlib.contextmanager)
    return root if root in OPAQUE_LIBRARIES else None


_STDLIB = sysconfig.get_paths()["stdlib"]


def _stdlib_code(fn):
    """Whether fn's code is the standard library's, whatever module it names (a wrapper
    made by a stdlib decorator carries the user's __module__ and __wrapped__)."""
    code = getattr(fn, "__code__", None)
    return code is not None and code.co_filename.startswith(_STDLIB) and \
        "-packages" not in code.co_filename     # (site-packages: installed, not stdlib)


# Calls that read or change state the compiler cannot see: the names of the function
# (`eval("x")`), an iterator's position, or an argument in place (`random.shuffle(a)`).
# A constant result from them could hide a dependence on a value being differentiated.
UNSAFE_CALLS = {
    "eval": "write the expression itself", "exec": "write the statements themselves",
    "compile": "write the code itself", "locals": "use the names themselves",
    "vars": "read the attributes themselves (`obj.w`), or keep the values in a dict "
    "(`params = {\"w\": w}`) and read that", "globals": "use the names themselves",
    "__import__": "import at module level", "breakpoint": "debug the primal function",
    "setattr": "keep the value in a local variable", "delattr": "rebind a local variable",
    "iter": "loop over the sequence with `for v in xs:`, index it (`xs[0]`), or unpack "
    "it (`a, b = xs`)", "next": "loop over the sequence with `for`, or index it "
    "(`xs[0]`); for `next(v for v in xs if test)`, write `[v for v in xs if test][0]`",
    "random.shuffle": "index with a permutation: `a[rng.permutation(len(a))]`",
    "heapq.heapify": "sort a copy: `sorted(h)`", "heapq.heappush": "append, then sort",
    "heapq.heappop": "sort, then index", "heapq.heappushpop": "append, then sort",
    "heapq.heapreplace": "sort, then index", "bisect.insort": "append, then sort",
    "bisect.insort_left": "append, then sort", "bisect.insort_right": "append, then sort",
}


def unsafe_call_hint(fn):
    """What to write instead of a call UNSAFE_CALLS names, or None."""
    if opaque_library(fn) is None:
        return None
    return UNSAFE_CALLS.get(label_of(fn))


def opaque_library_rule(fn):
    """A no-derivative (NONE) rule for a function of an opaque library without a rule."""
    if opaque_library(fn) is None:
        return None
    return runtime.registry.Rule(fn, "nondiff", why=runtime.registry.NONE)


def label_of(fn):
    """A short readable name for a callable (np.tanh, math.sin, operator.add)."""
    module = getattr(fn, "__module__", "") or ""
    module = _C_HALVES.get(module, module)
    name = getattr(fn, "__name__", type(fn).__name__)
    # NumPy 1.26's draws (bound, or Generator.gamma itself) have no __module__: ask the class
    owner = getattr(fn, "__objclass__", None) or type(getattr(fn, "__self__", None))
    if owner.__name__ == "ufunc" and hasattr(fn, "__self__"):       # np.subtract.outer
        return f"np.{fn.__self__.__name__}.{name}"
    if module.startswith("numpy.random") or owner.__module__.startswith("numpy.random"):
        legacy = owner.__name__ == "RandomState"  # np.random.normal, np.random.Generator.gamma
        return "np.random." + (name if legacy else getattr(fn, "__qualname__", name))
    if module.startswith("numpy"):
        return "np." + ("linalg." if "linalg" in module else "") + name
    return f"{module}.{name}" if module and module != "builtins" else name


def rule_for(fn):
    return runtime.lookup(fn)


def may_be_none(prim):
    """Whether a rule prim's contribution may be None (a zero cotangent): a record's field
    never read (transform/lowering/records.py), or `q.shape`, `q.imag` of a q whose kind
    the source does not show (runtime getattr_vjp: None for an array's metadata)."""
    if getattr(prim.rule, "maybe_none", False):
        return True
    name = prim.inputs.get("name") if prim.fn is getattr else None
    return isinstance(name, gast.Constant) and name.value not in ("T", "mT", "real")
