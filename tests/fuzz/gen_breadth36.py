"""Steps of the calls class added in session 36, one per wrong value red36 found without
a generator (each reads and rebinds the carried scalar s and array v, as gen_breadth34.py):

    _local_in_test: a lambda or nested def, shadowing a module-level function of the same
        name, called in an `if` or `while` test, a comparison kept as a value, a
        conditional expression's test, a comprehension's filter or an assert. Its
        definition was inlined away and the test left as written: NameError, or the
        module's function called instead (a wrong branch and gradient in every mode):
        tests/red36/test_regressions.py.
    _zip_of_zip: `for (u, w), c in zip(zip(xs, ys), cs)` with the inner zip carrying no
        derivative and cs one: forward mode walked the one-shot inner zip twice
        (`zip(zip(seq1, seq2), zip(seq1, seq2_dot))`), pairing alternate items and
        stopping after half the trips (jvp's value and tangent wrong).
    _super_call: a dataclass's method calling its base's through `super().m(u)`,
        `super(C, self).m(u)` or a bound `super().m` called later, on an object built from
        a differentiated value: the `super` proxy carried no derivative of the object
        (grad off, hvp zeros; tests/noticed36, found by the noticed helper, not fuzzed).
"""


def _set(g, state, key, value, depth=1):
    g.line(f"{state[key]} = {value}", depth)


def _local_function(g, h):
    """`h` at module level (u ** 3 + 3: every test below true) and, shadowing it, a local
    lambda or nested def whose tests go either way."""
    g.define([f"def {h}(u):", "    return u * u * u + 3.0"])
    if g.chance(0.5):
        g.line(f"{h} = lambda u: np.sin(u) * 0.5")
    else:
        g.line(f"def {h}(u):")
        g.line("return np.sin(u) * 0.5", 2)


def _local_in_test(g, env, state, x, a):
    s, v = state["s"], state["v"]
    h = g.name("shadowed")
    _local_function(g, h)
    form = g.rng.randrange(6)
    if form == 0:               # an if test
        g.line(f"if {h}({s}) > 0.1:")
        _set(g, state, "v", f"{v} * {s}", 2)
        g.line("else:")
        _set(g, state, "v", f"{v} + {s}", 2)
    elif form == 1:             # a while test, the call in and's first operand
        k = g.name("trips")
        g.line(f"{k} = 0")
        g.line(f"while {h}({s} + 0.3 * {k}) < 0.4 and {k} < 3:")
        _set(g, state, "v", f"{v} * 0.9 + {s}", 2)
        g.line(f"{k} += 1", 2)
    elif form == 2:             # a comparison kept as a value
        flag = g.name("flag")
        g.line(f"{flag} = {h}({s}) > 0.0")
        _set(g, state, "s", f"np.tanh({s}) if {flag} else {s} * 0.5")
    elif form == 3:             # a conditional expression's test
        _set(g, state, "s", f"np.tanh({s}) if {h}({x}) > 0.0 else {s} * 0.5")
    elif form == 4:             # a comprehension's filter
        u = g.name("item")
        _set(g, state, "s", f"{s} + sum([{u} * {u} for {u} in {v} if {h}({u}) > 0.0])")
    else:                       # an assert
        g.line(f"assert {h}({s}) > -1.0")
        _set(g, state, "s", f"{s} * 1.1")
    g.use("local_function_in_test")


def _zip_of_zip(g, env, state, x, a):
    s, v = state["s"], state["v"]
    u, w, c = g.name("weight"), g.name("index"), g.name("coef")
    inner = f"zip(np.linspace(0.5, 1.5, {g.n}), range({g.n}))"
    if g.chance(0.5):           # the inner zip bound to a name first
        pairs = g.name("pairs")
        g.line(f"{pairs} = {inner}")
        inner = pairs
    outer = g.pick((f"[{s}, {x}, {s} * {x}]", v))
    g.line(f"for ({u}, {w}), {c} in zip({inner}, {outer}):")
    _set(g, state, "s", f"{s} + {c} * {u} * ({w} + 1)", 2)
    g.use("zip_of_zip")


SUPER_FORMS = ("super().score(u)", "super({cls}, self).score(u)", "bound")


def _super_call(g, env, state, x, a):
    v = state["v"]
    base, cls = g.name("Base"), g.name("Derived")
    call = g.pick(SUPER_FORMS).format(cls=cls)
    body = ["        m = super().score", "        return m(u) * 2.0 + self.w"] \
        if call == "bound" else [f"        return {call} * 2.0 + self.w"]
    if "import dataclasses" not in g.imports:
        g.imports.append("import dataclasses")
    g.define(["", "", "@dataclasses.dataclass", f"class {base}:", "    w: float", "",
              "    def score(self, u):", "        return np.tanh(self.w * u)", "", "",
              "@dataclasses.dataclass", f"class {cls}({base}):", "    def score(self, u):",
              *body, ""])
    _set(g, state, "v", f"{cls}({g.pick((x, state['s']))}).score({v})")
    g.use("super_call")


STEPS = (_local_in_test, _zip_of_zip, _super_call)
