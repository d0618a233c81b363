"""Steps of the calls class added in session 35, one per bug class found without a
generator (each reads and rebinds the carried scalar s and array v, as gen_breadth34.py):

    _runtime_names: a helper's parameters named like those of the runtime functions
        generated code routes a call through (`call_jvp(fn, tangents, ...)`, a method
        rule's `obj`, `spread_call(fn, args)`): a keyword of one of these names crashed
        jvp and hvp ("call_jvp() got multiple values for argument 'fn'") and grad through
        a method ("... for argument 'obj'"): tests/calls/test_keyword_names_of_helpers.py.
        A keyword-only parameter given by keyword, one given through `**{...}`, and a
        method of a user object taking one.
"""

RUNTIME_PARAMETERS = ("fn", "tangents", "obj", "args", "method", "given", "own", "func")


def _set(g, state, key, value, depth=1):
    g.line(f"{state[key]} = {value}", depth)


def _runtime_names(g, env, state, x, a):
    s, v = state["s"], state["v"]
    h, p = g.name("helper"), g.name("param")
    k, m = g.rng.sample(RUNTIME_PARAMETERS, 2)
    form = g.rng.randrange(3)
    if form == 0:               # keyword-only, by keyword (a differentiated value or not)
        g.define([f"def {h}({p}, *, {k}=0.5, {m}=0.1):",
                  f"    return np.tanh({p} * {k} + {m})"])
        _set(g, state, "v", f"{h}({v}, {k}={g.pick((s, x, '1.5'))}, {m}={g.pick(('0.2', s))})")
    elif form == 1:             # through a dict spread
        g.define([f"def {h}({p}, {k}=0.5, **rest):", f"    return np.sin({p}) * {k}"])
        _set(g, state, "s", f"np.tanh({s} + np.sum({h}({v}, **{{'{k}': 0.7, '{m}': 1.0}})))")
    else:                       # a method of a user object
        cls = g.name("Model")
        g.define([f"class {cls}:", f"    def __init__(self, {p}):", f"        self.w = {p}",
                  f"    def apply(self, {p}, *, {k}=1.0):",
                  f"        return np.tanh(self.w * {p}) * {k}"])
        _set(g, state, "v", f"{cls}({g.pick((x, '0.8'))}).apply({v}, {k}={g.pick((s, '0.6'))})")
    g.use("runtime_parameter_names")


STEPS = (_runtime_names,)
