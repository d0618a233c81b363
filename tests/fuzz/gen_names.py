"""Generators about names: user names the generated code uses, and globals rebound.

    vocabulary:     any other class's program with its names (params, locals, helpers,
                    globals) drawn from the generated code's own vocabulary: `tape`, `pop`,
                    `pullback`, `dx`, `t1`, `x_part`, `accum`, ... read from the product
                    (runtime.generated_namespace() and adjoint_source of sample functions),
                    plus module-level shadows of builtins the generated code calls
    global_rebind:  f reads a module global (scalar, array, callable); the test changes it
                    between two gradient checks, which must both match the primal's
"""
import ast
import functools
import keyword
import random
import re
import sys

from .program import ARRAY, SCALAR, UNARY

# names the templates themselves use, or that would make the primal itself invalid
_RESERVED = {"np", "range", "sum", "f", "print", "builtins", "None", "True", "False",
             # builtins and modules the class templates call themselves
             "len", "zip", "enumerate", "dict", "float", "abs", "math", "self", "object",
             "dataclasses",
             # and the ones gen_breadth.py / gen_complex.py call (vocabulary:301009 renamed a
             # parameter `reversed`, then the program called reversed(...): primal invalid)
             "reversed", "list", "sorted", "max", "min", "tuple", "pow", "round", "int",
             "map", "filter", "any", "all", "isinstance", "type", "complex", "functools",
             "operator", "cmath", "warnings", "logging", "next", "iter", "divmod", "set"}
_SUFFIXES = ("_part", "_own", "_cots", "_pullback", "_rrule", "_part1", "_cots1")
# a few functions in the style of each class, compiled to harvest the names they generate
_SAMPLES = '''
import numpy as np


def cell(w, h, c):
    return np.tanh(w * h), c + h


def f(x, a):
    h = 0.0
    c = 0.0
    prev = 0.0
    total = 0.0
    xs = []
    for i in range(3):
        h, c = cell(x, h + x, c)
        cur = 2 * x
        total = total + cur * prev
        prev = cur
        xs.append(a * h)
    k = 0
    while k < 2:
        total = total + np.sum(np.sin(a)) * x
        k += 1
    b = a.copy()
    b[0] = x
    b += c
    return np.sum(b * a) + h + c + total + np.sum(sum(xs)) + sum(v * x for v in a)
'''


@functools.lru_cache(maxsize=None)
def vocabulary():
    """Sorted identifiers generated code uses, usable as user names."""
    import runtime
    from transform.ir.vocabulary import LOCAL_ROLES, vocabulary_objects
    names = set(runtime.generated_namespace()) | set(vocabulary_objects()) | set(LOCAL_ROLES)
    names |= _harvested()
    for base in ("x", "a", "h", "t1", "total"):
        names |= {f"d{base}", *(base + s for s in _SUFFIXES)}
    names |= {f"t{k}" for k in range(1, 10)} | {"tape", "pop", "pullback", "reversed",
                                                "steps1", "k", "i", "cond1", "returned"}
    return sorted(n for n in names if n.isidentifier() and not keyword.iskeyword(n)
                  and n not in _RESERVED and not n.startswith("__"))


def _harvested():
    """Names in the adjoint source of _SAMPLES under every policy (empty if it fails)."""
    import transform
    from .runner import load
    module = load(_SAMPLES)
    found = set()
    try:
        for policy in ("loop", "eager", "flat", "nested"):
            tree = ast.parse(transform.adjoint_source(module.f, wrt=(0, 1), policy=policy))
            found |= {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
            found |= {n.arg for n in ast.walk(tree) if isinstance(n, ast.arg)}
            found |= {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    except Exception:  # noqa: BLE001  (a product that cannot compile the samples)
        pass
    finally:
        sys.modules.pop(module.__name__, None)
    return found


class VocabularyNames:
    """Draws distinct names from vocabulary(), then falls back to fresh ones."""

    def __init__(self, rng):
        self.pool = list(vocabulary())
        rng.shuffle(self.pool)      # its own rng: the twin with fresh names draws the same
        self.used = 0

    def __call__(self, role=""):
        self.used += 1
        return self.pool.pop() if self.pool else f"v{self.used}"


# builtins generated code may call, shadowed at module level by something else
_SHADOWS = {
    "reversed": "def reversed(xs):\n    return xs",
    "len": "def len(xs):\n    return 0",
    "zip": "def zip(*xs):\n    return []",
    "enumerate": "def enumerate(xs):\n    return []",
    "isinstance": "def isinstance(x, t):\n    return False",
    "list": "def list(*xs):\n    return []",
    "tuple": "def tuple(*xs):\n    return ()",
    "iter": "def iter(xs):\n    return None",
    "range": "def range(*args):\n    return list_(builtins.range(*args))[::-1]\n\n\n"
             "list_ = builtins.list",
}


def vocabulary_names(g, seed, generators, fresh=False):
    """Another class's program, named from vocabulary(), with a global and a shadow.

    fresh=True: the same program with fresh names v0, v1, ... (its twin: a failure both
    share comes from the other class, not from the names)."""
    from .classes import CLASSES
    base = g.pick([c for c in sorted(generators) if c not in ("vocabulary", "global_rebind")])
    if not fresh:
        g.names = VocabularyNames(random.Random(f"names-{seed}"))
        g.use("vocabulary_names")
    if g.chance(0.6):
        glob = g.name("global")
        g.module.append(f"{glob} = {g.const()}")
        g.extra_terms.append(f"np.tanh({glob} * {{p0}})")
    if g.chance(0.4):       # never read, named like the compiler's temporaries (round 31)
        g.module[:0] = [f"{n} = {g.const()}" for n in ("t1", "t2", "t3", "cond1", "steps1")]
        g.use("unread_globals_named_like_temporaries")
    shadow = None
    if g.chance(0.4):
        shadow = g.pick(sorted(_SHADOWS))
        taken = any(line.startswith(f"{shadow} = ") for line in g.module)
        if not fresh and not taken:         # (a global of that name would be redefined)
            if shadow == "range":
                g.module.insert(0, "import builtins")
            g.define(_SHADOWS[shadow].splitlines())
    case = CLASSES[base][0](g, seed)
    case.cls = "vocabulary"
    if shadow and len(re.findall(rf"(?<![\w.]){shadow}\(", case.source)) > 1:
        # the program's own code calls it (`dict(zip(keys, values))`): the shadow is for
        # the generated code's calls, and would make the primal raise (vocabulary:34170)
        source = case.source.replace(_SHADOWS[shadow].split("\n\n\n")[0], "", 1)
        case.source = re.sub(r"\n{4,}", "\n\n\n", source)
    return case


def global_rebind(g, seed):
    """f (or a helper it calls, or a loop in it) reads a module global that changes."""
    x, a = g.param(SCALAR), g.param(ARRAY)
    glob = g.name("global")
    kind = g.pick(("scalar", "array", "array_inplace", "callable", "bound"))
    g.use("global_rebound")
    if kind == "bound":                 # a loop bound, rebound to zero trips and back
        g.module.append(f"{glob} = {g.rng.randint(1, 3)}")
        g.rebinds += [f"{glob} = 0", f"{glob} = {g.rng.randint(1, 3)}"]
        g.use("zero_trip_loop")
        return g.case("global_rebind", seed, _bounded_by(g, glob, x, a))
    if kind == "scalar":
        g.module.append(f"{glob} = {g.const()}")
        g.rebinds.append(f"{glob} = {g.const()} + 0.25")
        term = g.pick(UNARY) + "({g} * {x}) + np.sum({g} * {a})"
    elif kind in ("array", "array_inplace"):
        g.module.append(f"{glob} = np.linspace(-0.5, 0.8, {g.n})")
        g.rebinds.append(f"{glob} = {glob} * 2.0 + 0.1" if kind == "array"
                         else f"{glob}[{g.index()}] = 1.7")
        term = "np.sum(np.tanh({g} * {a})) + np.dot({g}, {g}) * {x}"
    else:
        first, second = g.rng.sample(UNARY, 2)
        g.module.append(f"{glob} = {first}")
        g.rebinds.append(f"{glob} = {second}")
        term = "np.sum({g}({a} * {x}))"
    return g.case("global_rebind", seed, _place(g, term, glob, x, a))


def _bounded_by(g, glob, x, a):
    acc, i = g.name("total"), g.name("counter")
    g.line(f"{acc} = np.tanh({x})")
    g.line(f"for {i} in range({glob}):")
    g.line(f"{acc} = np.tanh({acc} * {x} + np.sum({a}) * 0.1)", 2)
    return f"{acc} + {x}"


def _place(g, term, glob, x, a):
    """Read `term` (a format string over g, x, a) directly, in a helper f calls, or in a
    loop; returns f's result."""
    where = g.pick(("direct", "helper", "loop"))
    if where == "helper":
        helper, hx, ha = g.name("helper"), g.name("param"), g.name("param")
        g.define([f"def {helper}({hx}, {ha}):",
                  f"    return {term.format(g=glob, x=hx, a=ha)}"])
        return f"{helper}({x}, {a}) + {x}"
    text = term.format(g=glob, x=x, a=a)
    if where == "loop":
        acc, i = g.name("total"), g.name("counter")
        g.line(f"{acc} = 0.0")
        g.line(f"for {i} in range({g.rng.randint(1, 3)}):")
        g.line(f"{acc} = {acc} + 0.5 * ({text})", 2)
        return f"{acc} + {x}"
    return text
