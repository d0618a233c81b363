"""What the class generators (tests/fuzz/gen_*.py) build: a Case, written with a Gen.

    g = Gen(random.Random(seed))
    x, a = g.param(SCALAR), g.param(ARRAY)
    t = g.local()
    g.line(f"{t} = {g.array([x, a])}")
    case = g.case("my_class", seed, result=f"np.sum({t} * {t})")

A Case is plain data: module source text, parameter kinds, and the statements to run in the
module between two gradient checks (`rebinds`, for globals rebound between calls). Its
inputs are a function of its seed, so `Case` is reproducible from (class, seed) alone.
"""
import itertools
from dataclasses import dataclass, field

import numpy as np

SCALAR, ARRAY, MATRIX = "s", "a", "m"    # a float, a float vector of length n, 2 x n
# any other kind is a tensor: "t64:2,3" (float64, shape (2, 3)), "t32:" (float32, shape ())


def tensor(shape, dtype="64"):
    """The kind of a tensor parameter of `shape` (a tuple) and dtype float64 or float32."""
    return f"t{dtype}:" + ",".join(str(d) for d in shape)


def tensor_shape(kind):
    """(shape, numpy dtype) of a tensor kind."""
    dtype, dims = kind[1:].split(":")
    return tuple(int(d) for d in dims.split(",") if d), np.dtype(f"float{dtype}")
UNARY = ("np.sin", "np.cos", "np.tanh")
CONSTANTS = ("0.5", "-0.3", "1.5", "2.0", "0.1", "-1.2", "0.7")


@dataclass
class Case:
    """One generated program of class `cls`: `source` defines `f(*params)`."""

    cls: str
    seed: int
    source: str
    params: list                              # [(name, kind)]
    length: int                               # n
    rebinds: list = field(default_factory=list)   # statements run in the module, in turn
    input_seed: int = None        # of the inputs, if not `seed`
    probe_source: str = None      # the source with branch margins recorded (grammar.py)
    productions: frozenset = frozenset()   # what the generator drew (see coverage.py)
    data: tuple = ()              # passed after the inputs to f's *args, not differentiated
    options: dict = field(default_factory=dict)   # passed to f's **kwargs, likewise
    raises: str = None            # the exception f raises in Python (its compiled code must too)
    oracle: str = "gradient"      # gradient | forward (jvp/hvp: tests/fuzz/oracle_forward.py)
    reference_source: str = None  # the program before its loops were marked checkpointed
    must_refuse: str = None       # why compiling must refuse it (a random draw in a marked body)

    def inputs(self):
        rng = np.random.default_rng(self.seed if self.input_seed is None else self.input_seed)
        shapes = {SCALAR: None, ARRAY: (self.length,), MATRIX: (2, self.length)}
        return [float(rng.standard_normal()) if kind == SCALAR
                else rng.standard_normal(shapes[kind]) if kind in shapes
                else _tensor_input(rng, kind) for _, kind in self.params]

    def label(self):
        return f"{self.cls}:{self.seed}"

    def describe(self):
        """What a failure report prints: how to replay, the source, the inputs."""
        replay = "" if " " in self.cls else \
            f" (replay: python -m tests.fuzz.campaign --replay {self.label()})"
        text = [f"case {self.label()}{replay}", self.source.rstrip()]
        if self.oracle != "gradient":
            text.insert(1, f"# judged by the {self.oracle} oracle")
        if self.rebinds:
            text.append("# between gradient checks, run in the module: "
                        + "; ".join(self.rebinds))
        text.append(f"# inputs: {self.inputs()!r}")
        if self.data or self.options:
            text.append(f"# then, not differentiated: *{self.data!r}, **{self.options!r}")
        return "\n".join(text)


def _tensor_input(rng, kind):
    shape, dtype = tensor_shape(kind)
    return np.asarray(rng.standard_normal(shape), dtype=dtype)


class FreshNames:
    """v0, v1, ...: names that collide with nothing."""

    def __init__(self):
        self._counter = itertools.count()

    def __call__(self, role=""):
        return f"v{next(self._counter)}"


class Gen:
    """Builds one module: globals and helpers, then `def f(params)` line by line."""

    def __init__(self, rng, names=None):
        self.rng = rng
        self.n = rng.randint(2, 4)
        self.names = names or FreshNames()
        self.module = []       # module-level lines after `import numpy as np`
        self.body = []         # lines of f's body (already indented)
        self.params = []
        self.rebinds = []
        self.extra_terms = []  # added to f's result; "{p0}" stands for f's first parameter
        self.used = set()      # productions drawn (tests/fuzz/coverage.py)
        self.imports = []      # module import lines besides numpy's
        self.star = ""         # f's `*args, **kwargs` parameters, if any (", *rest, **kw")
        self.data, self.options = (), {}   # their values (Case.data, Case.options)
        self.raises = None                 # Case.raises

    # ---- drawing -----------------------------------------------------------------------
    def pick(self, options):
        return options[self.rng.randrange(len(options))]

    def use(self, *productions):
        """Record that this program draws `productions` (names in coverage.py)."""
        self.used.update(productions)

    def chance(self, p):
        return self.rng.random() < p

    def const(self):
        return self.pick(CONSTANTS)

    def index(self):
        return self.rng.randrange(-self.n, self.n)

    # ---- names and lines ---------------------------------------------------------------
    def name(self, role=""):
        return self.names(role)

    def param(self, kind, role=""):
        name = self.name(role)
        self.params.append((name, kind))
        return name

    def line(self, text, depth=1):
        self.body.append("    " * depth + text)

    def define(self, lines):
        """A module-level block (a helper function, a global)."""
        self.module += ["", *lines, ""] if lines[0].startswith("def ") else lines

    # ---- expressions: smooth, bounded for bounded inputs -------------------------------
    def scalar(self, env, depth=2):
        """A scalar expression over `env` (names, each a SCALAR or ARRAY; see kinds())."""
        scalars, arrays = _split(env)
        makers = [lambda: self.const()]
        if scalars:
            makers += [lambda: self.pick(scalars)] * 3
        if arrays:
            makers += [lambda: self._reduce(self.array(env, depth - 1))]
        if depth > 0:
            makers += [lambda: f"{self.pick(UNARY)}({self.scalar(env, depth - 1)})",
                       lambda: self._binary(self.scalar(env, depth - 1),
                                            self.scalar(env, depth - 1))]
        return self.pick(makers)()

    def array(self, env, depth=2):
        """A length-n array expression over `env`."""
        scalars, arrays = _split(env)
        makers = [lambda: f"({self.scalar(env, 0)} * np.linspace(0.5, 1.5, {self.n}))"]
        if arrays:
            makers += [lambda: self.pick(arrays)] * 3
        if depth > 0:
            makers += [lambda: f"{self.pick(UNARY)}({self.array(env, depth - 1)})",
                       lambda: self._binary(self.array(env, depth - 1),
                                            self.array(env, depth - 1)),
                       lambda: self._binary(self.array(env, depth - 1),
                                            self.scalar(env, depth - 1))]
        return self.pick(makers)()

    def _reduce(self, arr):
        form = self.rng.randrange(4)
        if form == 0:
            return f"np.sum({arr})"
        if form == 1:
            return f"np.mean({arr})"
        if form == 2:
            return f"{arr}[{self.index()}]"
        return f"np.tanh(np.dot({arr}, {arr}))"

    def _binary(self, left, right):
        return f"({left} {self.pick(('+', '-', '*'))} {right})"

    # ---- the result ----------------------------------------------------------------------
    def case(self, cls, seed, result):
        signature = ", ".join(name for name, _ in self.params) + self.star
        first = self.params[0][0]
        result = " + ".join([result, *(t.replace("{p0}", first) for t in self.extra_terms)])
        lines = [*self.imports, "import numpy as np", "", *self.module, "", "",
                 f"def f({signature}):", *self.body, f"    return {result}"]
        if any("math." in line for line in lines):
            lines.insert(0, "import math")
        source = "\n".join(lines).replace("\n\n\n\n", "\n\n\n") + "\n"
        return Case(cls, seed, source, list(self.params), self.n, list(self.rebinds),
                    productions=frozenset(self.used), data=self.data, options=self.options,
                    raises=self.raises)


def kinds(env_items):
    """{name: kind} from [(name, kind)] (the form params are kept in)."""
    return dict(env_items)


def _split(env):
    env = env if isinstance(env, dict) else kinds(env)
    return ([n for n, k in env.items() if k == SCALAR],
            [n for n, k in env.items() if k == ARRAY])


def total(env):
    """A scalar depending on every name in env: s + np.sum(a * a) + ..."""
    terms = []
    for name, kind in (env.items() if isinstance(env, dict) else env):
        terms.append(name if kind == SCALAR else f"np.sum({name} * {name})")
    return " + ".join(terms) or "0.0"
