"""A Hypothesis strategy for random well-formed differentiable programs.

    programs() -> Program: module source with helpers and `def f(...)`, input maker

The grammar, over scalars ("s") and float arrays of one length n ("a"):

    expr   := var | const | sin/cos/tanh(expr) | exp(tanh(expr)) | expr * expr (square)
            | -expr | expr (+|-|*) expr | expr / (1.0 + e * e)
            | np.sum(a) | np.mean(a) | a[k] | np.dot(a, a)        (scalar from arrays)
            | helper_j(expr, ...)                                  (generated helpers)
            | sum(expr for v in a)
    stmt   := name = expr
            | if cond: stmts [else: stmts]
            | for i in range(k): stmts   (carried state updated through squashing forms;
                                          i appears as 0.5 * i and in a[i % n])
            | for v in a: stmts
            | name (+=|-=|*=) bounded expr
            | ys = []; for i in range(k): ys.append(expr); v = sum(ys) | ys[j]
            | c = 0; while c < k: stmts; c += 1
            | if cond: break / continue / return expr   (inside loops / function bodies)
    cond   := np.sum(a) > c | s > c | np.mean(a) < c

Only smooth operations are used; exp only sees bounded arguments; loop-carried
updates go through tanh / sin / 1/(1 + v*v) so values stay bounded. Each
program can also be rendered "instrumented", where every condition reports
its distance to its threshold, so that tests can skip inputs lying within
finite-difference reach of a branch boundary (where the function jumps).
"""
import itertools
from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st

SCALAR, ARRAY, INDEX = "s", "a", "i"   # INDEX: a loop counter (an int)
UNARY = ("np.sin", "np.cos", "np.tanh")
BOUNDED = ("np.tanh", "np.sin")
CONSTANTS = (0.5, -0.3, 1.5, 2.0, 0.1, -1.2)
THRESHOLDS = (0.3, -0.2, 0.0, 0.7, -0.5, 1.1)
# Constructs the grammar may emit. Off until the compiler bugs in
# tests/corpus/fuzz_found.py and tests/corpus/inplace.py are fixed:
#   "nested_jumps": break/continue/return inside an if nested in the loop body
#   (nested_if_break*, nested_if_continue, jump_in_else_branch, return_in_both_branches);
#   "rebind_loop_target": assigning to the loop variable in the body (loop_target_*,
#   range_target_rebound);
#   "comprehension_reads_target": `x = sum(x * v for v in a)`, a comprehension reading
#   the name it is assigned to (comprehension_reads_its_target*);
#   "array_augmented": `a += e` on arrays is in place in Python, so it also changes every
#   alias of `a` (inplace.augassign_through_alias) -- and, on an argument, the caller's
#   array, which check_grads rightly reports; enabling it needs alias-free targets too.
FEATURES = {"helpers": True, "loops": True, "while_loops": True, "branches": True,
            "jumps": True, "augmented": True, "array_augmented": False, "lists": True,
            "comprehensions": True, "comprehension_reads_target": True,
            "nested_returns": True, "nested_jumps": True, "rebind_loop_target": True,
            "array_output": True}


@dataclass
class Program:
    """A generated module: source text, entry point name, parameters and their kinds."""

    helpers: list
    body: list
    params: list            # [(name, kind)]
    length: int             # n, the length of every array
    output: str             # SCALAR or ARRAY
    seed: int               # of the inputs (see inputs())

    def source(self, instrument=False):
        lines = ["import numpy as np", ""]
        if instrument:
            lines += ["MARGINS = []", "", "",
                      "def _probe(value, threshold):",
                      "    MARGINS.append(abs(float(value) - threshold))",
                      "    return value", ""]
        for helper in self.helpers:
            lines += ["", *helper.render(instrument), ""]
        signature = ", ".join(name for name, _ in self.params)
        lines += ["", f"def f({signature}):", *_render(self.body, 1, instrument)]
        return "\n".join(lines) + "\n"

    def inputs(self):
        rng = np.random.default_rng(self.seed)
        return [float(rng.standard_normal()) if kind == SCALAR
                else rng.standard_normal(self.length) for _, kind in self.params]


@dataclass
class Helper:
    name: str
    params: list            # [(name, kind)]
    result: str
    body: list

    def render(self, instrument):
        signature = ", ".join(name for name, _ in self.params)
        return [f"def {self.name}({signature}):", *_render(self.body, 1, instrument)]


def _render(stmts, depth, instrument):
    out = []
    for stmt in stmts:
        out += _render_one(stmt, "    " * depth, depth, instrument)
    return out


def _render_one(stmt, pad, depth, instrument):
    kind = stmt[0]
    if kind == "assign":
        return [f"{pad}{stmt[1]} = {stmt[2]}"]
    if kind == "augassign":
        return [f"{pad}{stmt[1]} {stmt[2]}= {stmt[3]}"]
    if kind == "return":
        return [f"{pad}return {stmt[1]}"]
    if kind in ("break", "continue"):
        return [f"{pad}{kind}"]
    if kind == "collect":        # (collect, list name, loop var, k, element, result)
        _, items, var, k, element, result = stmt
        return [f"{pad}{items} = []", f"{pad}for {var} in range({k}):",
                f"{pad}    {items}.append({element})", f"{pad}{result}"]
    if kind == "while":          # (while, counter, k, body)
        return [f"{pad}{stmt[1]} = 0", f"{pad}while {stmt[1]} < {stmt[2]}:",
                *_render(stmt[3], depth + 1, instrument), f"{pad}    {stmt[1]} += 1"]
    if kind == "for":            # (for, var, iterable text, body)
        return [f"{pad}for {stmt[1]} in {stmt[2]}:", *_render(stmt[3], depth + 1, instrument)]
    out = [f"{pad}if {_cond(stmt[1], instrument)}:", *_render(stmt[2], depth + 1, instrument)]
    if stmt[3]:                  # (if, cond, body, orelse)
        out += [f"{pad}else:", *_render(stmt[3], depth + 1, instrument)]
    return out


def _cond(cond, instrument):
    lhs, op, threshold = cond
    if instrument:
        lhs = f"_probe({lhs}, {threshold})"
    return f"{lhs} {op} {threshold}"


class _Gen:
    """Draws expressions and statements for one function body, tracking variable kinds."""

    def __init__(self, draw, helpers, length, names, depth):
        self.draw, self.helpers, self.length, self.names = draw, helpers, length, names
        self.depth = depth          # the depth of the function body itself
        self.loop_targets = set()   # names bound by `for v in a` (see FEATURES)
        self.while_bodies = set()   # depths of the while bodies being generated
        self.target = None          # the existing name an assignment is rebinding


    def choice(self, options):
        return options[self.draw(st.integers(0, len(options) - 1))]

    def chance(self, p_true_in_8):
        return self.draw(st.integers(0, 7)) < p_true_in_8

    # ---- expressions -------------------------------------------------------
    def expr(self, env, kind, depth):
        makers = [self.leaf] * 3
        if depth > 0:
            makers += [self.unary, self.binary, self.binary, self.square, self.divide,
                       self.exp, self.neg]
            if kind == SCALAR and any(k == ARRAY for k in env.values()):
                makers += [self.reduce, self.reduce]
                if FEATURES["comprehensions"]:
                    makers.append(self.generator_sum)
            if FEATURES["helpers"] and any(h.result == kind for h in self.helpers):
                makers += [self.call, self.call]
        return self.choice(makers)(env, kind, depth)

    def leaf(self, env, kind, depth):
        names = [n for n, k in env.items() if k == kind]
        if kind == SCALAR:
            counters = [n for n, k in env.items() if k == INDEX]
            if counters and self.chance(1):
                return f"(0.5 * {self.choice(counters)})"
            if not names or self.chance(1):
                return repr(self.choice(CONSTANTS))
            return self.choice(names)
        if not names:   # an array from a scalar: broadcast against a constant array
            return f"({self.expr(env, SCALAR, 0)} * np.linspace(0.5, 1.5, {self.length}))"
        return self.choice(names)

    def unary(self, env, kind, depth):
        return f"{self.choice(UNARY)}({self.expr(env, kind, depth - 1)})"

    def exp(self, env, kind, depth):
        return f"np.exp({self.choice(BOUNDED)}({self.expr(env, kind, depth - 1)}))"

    def neg(self, env, kind, depth):
        return f"(-{self.expr(env, kind, depth - 1)})"

    def square(self, env, kind, depth):
        e = self.expr(env, kind, depth - 1)
        return f"({e} * {e})"

    def binary(self, env, kind, depth):
        op = self.choice(("+", "-", "*"))
        left = self.expr(env, kind, depth - 1)
        right_kind = SCALAR if kind == ARRAY and self.chance(3) else kind
        return f"({left} {op} {self.expr(env, right_kind, depth - 1)})"

    def divide(self, env, kind, depth):
        num = self.expr(env, kind, depth - 1)
        den_kind = SCALAR if kind == ARRAY and self.chance(4) else kind
        den = self.expr(env, den_kind, depth - 1)
        return f"({num} / (1.0 + {den} * {den}))"

    def reduce(self, env, kind, depth):
        arr = self.expr(env, ARRAY, depth - 1)
        counters = [n for n, k in env.items() if k == INDEX]
        if counters and self.chance(2):
            return f"{arr}[{self.choice(counters)} % {self.length}]"
        form = self.draw(st.integers(0, 3))
        if form == 0:
            return f"np.sum({arr})"
        if form == 1:
            return f"np.mean({arr})"
        if form == 2:
            return f"{arr}[{self.draw(st.integers(-self.length, self.length - 1))}]"
        return f"np.dot({arr}, {self.expr(env, ARRAY, depth - 1)})"

    def generator_sum(self, env, kind, depth):
        var, inner = next(self.names), dict(env)
        if not FEATURES["comprehension_reads_target"]:
            inner.pop(self.target, None)
        inner[var] = SCALAR
        arrays = [n for n, k in inner.items() if k == ARRAY]
        if not arrays:
            return self.reduce(env, kind, depth)
        body = self.expr(inner, SCALAR, depth - 1)
        return f"sum({body} for {var} in {self.choice(arrays)})"

    def call(self, env, kind, depth):
        helper = self.choice([h for h in self.helpers if h.result == kind])
        args = ", ".join(self.expr(env, k, depth - 1) for _, k in helper.params)
        return f"{helper.name}({args})"

    def cond(self, env):
        arrays = [n for n, k in env.items() if k == ARRAY]
        scalars = [n for n, k in env.items() if k == SCALAR]
        threshold = self.choice(THRESHOLDS)
        if arrays and (not scalars or self.chance(4)):
            lhs = f"{self.choice(('np.sum', 'np.mean'))}({self.choice(arrays)})"
        else:
            lhs = self.choice(scalars)
        return (lhs, self.choice((">", "<")), threshold)

    # ---- statements --------------------------------------------------------
    def block(self, env, depth, in_loop, size, may_return):
        """A list of statements; `env` maps the names readable here to their kinds.

        in_loop: None outside loops, else the depth of the innermost loop's body;
        may_return: the kind a `return` here must produce (None: no return allowed).
        """
        stmts = []
        for _ in range(self.draw(st.integers(1, size))):
            stmts.append(self.statement(env, depth, in_loop, may_return))
        return stmts

    def statement(self, env, depth, in_loop, may_return):
        options = [self.assign] * 4
        if depth > 0 and FEATURES["branches"]:
            options.append(self.if_stmt)
        if depth > 0 and FEATURES["loops"]:
            options.append(self.for_stmt)
            if FEATURES["while_loops"]:
                options.append(self.while_stmt)
        if FEATURES["augmented"]:
            options.append(self.augassign)
        if FEATURES["lists"]:
            options.append(self.collect)
        if FEATURES["jumps"] and self.jumps(depth, in_loop, may_return):
            options.append(self.jump)
        return self.choice(options)(env, depth, in_loop, may_return)

    def assign(self, env, depth, in_loop, may_return):
        existing = self.assignable(env)
        if existing and self.chance(5):
            name = self.choice(existing)
            self.target = name
            value = self.expr(env, env[name], 2)
            self.target = None
            if in_loop is not None:   # carried state: bounded however many iterations
                value = self.squash(name, value, env[name])
            return ("assign", name, value)
        kind = self.choice((SCALAR, ARRAY)) if any(k == ARRAY for k in env.values()) \
            else SCALAR
        if kind == ARRAY and self.chance(2):
            kind = SCALAR
        name = next(self.names)
        stmt = ("assign", name, self.expr(env, kind, 3))
        env[name] = kind     # visible for the rest of this block only (see _scoped)
        return stmt

    def assignable(self, env):
        return [n for n, k in env.items() if k != INDEX and
                (FEATURES["rebind_loop_target"] or n not in self.loop_targets)]

    def augassign(self, env, depth, in_loop, may_return):
        names = [n for n in self.assignable(env)
                 if env[n] == SCALAR or FEATURES["array_augmented"]]
        if not names:
            return self.assign(env, depth, in_loop, may_return)
        name = self.choice(names)
        value = self.expr(env, env[name], 2)
        op = self.choice(("+", "-", "*"))
        if op == "*":                # bounded factor, so loops cannot blow up
            return ("augassign", name, op, f"(1.0 / (1.0 + {value} * {value}))")
        return ("augassign", name, op, f"0.3 * np.tanh({value})")

    def collect(self, env, depth, in_loop, may_return):
        """ys = []; for i in range(k): ys.append(e); v = sum(ys) (or ys[j])."""
        items, var, name = next(self.names), next(self.names), next(self.names)
        inner = dict(env)
        inner[var] = INDEX
        k = self.draw(st.integers(1, 3))
        element = self.expr(inner, SCALAR, 2)
        result = f"{name} = " + (f"sum({items})" if self.chance(4) else
                                 f"{items}[{self.draw(st.integers(-k, k - 1))}]")
        env[name] = SCALAR
        return ("collect", items, var, k, element, result)

    def while_stmt(self, env, depth, in_loop, may_return):
        """counter = 0; while counter < k: body; counter += 1 (no jumps inside)."""
        counter, body_env = next(self.names), dict(env)
        body_env[counter] = INDEX
        self.while_bodies.add(depth - 1)     # a continue would skip `counter += 1`
        body = self.block(body_env, depth - 1, depth - 1, 3, None)
        self.while_bodies.discard(depth - 1)
        return ("while", counter, self.draw(st.integers(1, 3)), body)

    def squash(self, name, value, kind):
        form = self.draw(st.integers(0, 2))
        if form == 0:
            return f"np.tanh({value})"
        if form == 1:
            return f"0.5 * {name} + 0.5 * np.sin({value})"
        return f"{name} / (1.0 + {value} * {value})"

    def if_stmt(self, env, depth, in_loop, may_return):
        cond = self.cond(env)
        body = self.block(dict(env), depth - 1, in_loop, 3, may_return)
        orelse = self.block(dict(env), depth - 1, in_loop, 3, may_return) \
            if self.chance(4) else []
        return ("if", cond, body, orelse)

    def for_stmt(self, env, depth, in_loop, may_return):
        var, body_env = next(self.names), dict(env)
        arrays = [n for n, k in env.items() if k == ARRAY]
        if arrays and self.chance(2):            # for v in a: v is a scalar element
            over = self.choice(arrays)
            body_env[var] = SCALAR
            self.loop_targets.add(var)
            return ("for", var, over, self.block(body_env, depth - 1, depth - 1, 3, may_return))
        body_env[var] = INDEX
        body = self.block(body_env, depth - 1, depth - 1, 3, may_return)
        return ("for", var, f"range({self.draw(st.integers(1, 3))})", body)

    def jumps(self, depth, in_loop, may_return):
        """The jumps allowed here: `if c: break/continue/return` (see FEATURES)."""
        kinds = []
        if in_loop is not None and (in_loop == depth or FEATURES["nested_jumps"]) and \
                in_loop not in self.while_bodies:
            kinds += ["break", "continue"]
        if in_loop is not None:     # a return in a loop is lowered to a break
            allowed = in_loop == depth or FEATURES["nested_jumps"]
        else:
            allowed = depth == self.depth or FEATURES["nested_returns"]
        if may_return and allowed:
            kinds.append("return")
        return kinds

    def jump(self, env, depth, in_loop, may_return):
        cond = self.cond(env)
        kind = self.choice(self.jumps(depth, in_loop, may_return))
        if kind == "return":
            return ("if", cond, [("return", self.expr(env, may_return, 2))], [])
        return ("if", cond, [(kind,)], [])


@st.composite
def programs(draw, max_helpers=2):
    """A random Program: up to `max_helpers` helpers and an entry point `f`."""
    length = draw(st.integers(2, 4))
    names = (f"v{k}" for k in itertools.count())
    helpers = []
    if FEATURES["helpers"]:
        for k in range(draw(st.integers(0, max_helpers))):
            helpers.append(_helper(draw, f"helper{k}", helpers, length, names))
    params = _params(draw, "xa")
    output = ARRAY if FEATURES["array_output"] and any(k == ARRAY for _, k in params) \
        and draw(st.integers(0, 3)) == 0 else SCALAR
    body = _function_body(draw, _Gen(draw, helpers, length, names, 2), params, output)
    seed = draw(st.integers(0, 2 ** 32 - 1))
    return Program(helpers, body, params, length, output, seed)


def _params(draw, prefix):
    n_scalars = draw(st.integers(0, 2))
    n_arrays = draw(st.integers(0 if n_scalars else 1, 2))
    return [(f"{prefix[0]}{k}", SCALAR) for k in range(n_scalars)] + \
        [(f"{prefix[1]}{k}", ARRAY) for k in range(n_arrays)]


def _helper(draw, name, earlier, length, names):
    params = _params(draw, "pq")
    result = draw(st.sampled_from([SCALAR, ARRAY] if any(k == ARRAY for _, k in params)
                                  else [SCALAR]))
    gen = _Gen(draw, earlier, length, names, 1)
    return Helper(name, params, result, _function_body(draw, gen, params, result))


def _function_body(draw, gen, params, output):
    env = dict(params)
    body = gen.block(env, gen.depth, None, 4, output)
    return body + [("return", _final(gen, env, output))]


def _final(gen, env, output):
    """The returned value: depends on every name still in scope, so all of them matter."""
    parts = []
    for name, kind in env.items():
        if kind == INDEX:
            continue
        if kind == ARRAY and output == SCALAR:
            parts.append(f"np.sum({name} * {name})")
        else:
            parts.append(name)
    if output == ARRAY and not any(env[n] == ARRAY for n in env):
        parts.append(f"np.ones({gen.length})")
    return " + ".join(parts) if parts else "0.0"
