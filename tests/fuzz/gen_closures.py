"""Generator: functions as values that read locals, some of them being differentiated.

    closures:  def make(c):                       a helper returning a closure
                   return lambda t: np.tanh(t * c)
               def f(x, a):
                   s, v = np.tanh(x), a * x        carried scalar and array
                   h = make(s)                     reads s: the derivative must reach s
                   v = h(v) + 0.5 * v
                   return s + np.sum(v * v)

Steps: lambdas bound to a name reading s or x (two on one line, too); nested defs and lambdas returned by module
helpers (def inner or lambda); dicts and lists of functions called by key, index or in a
loop; functools.partial of a helper, its bound values positional; a function given to a
helper that calls it; map over a list; a nested def of f returning a lambda or def over its
parameter, given a differentiated value; lambdas made in a loop binding the loop index as a
default (`lambda t, i=i: ...`), or, one time in six, reading it late (Python's late
binding: refused, or right).
"""
from .gen_calls import carried_program
from .program import ARRAY, SCALAR


def closures(g, seed):
    return carried_program(g, seed, "closures", STEPS, (1, 3))


def _reader(g, state, x):
    """A scalar the closure reads: a differentiated local bound once (the carried names are
    bound again later, which the compiler refuses for a closure: late binding), an
    argument, a constant, or, one time in eight, the carried scalar itself."""
    if g.chance(0.125):
        g.use("closure_reads_rebound")
        return state["s"]
    form = g.pick(("local", "local", "argument", "constant"))
    if form == "local":
        c = g.name("captured")
        s, v = state["s"], state["v"]
        g.line(f"{c} = " + g.pick((s, f"{s} * {x}", f"np.sum({v}) * 0.3")))
        g.use("closure_reads_local")
        return c
    return x if form == "argument" else g.const()


def _lambda_local(g, env, state, x, a):
    h, t = g.name("fn"), g.name("param")
    c = _reader(g, state, x)
    g.line(f"{h} = lambda {t}: np.sin({t} * {c}) + {t} * 0.5")
    g.use("lambda_value")
    g.line(f"{state['v']} = {h}({state['v']})")
    g.line(f"{state['s']} = np.tanh({h}({state['s']}))")


def _side_by_side(g, env, state, x, a):
    """Two lambdas of one parameter name on one line of f (session 34: generated file
    names of lambdas on one line collided; gen_breadth34.py has module-level ones)."""
    h, k, t = g.name("fn"), g.name("fn"), g.name("param")
    c = _reader(g, state, x)
    g.line(f"{h}, {k} = (lambda {t}: np.sin({t} * {c}) + {t} * 0.5), "
           f"(lambda {t}: np.tanh({t}) * {c})")
    g.use("lambda_value", "lambdas_one_line_local")
    g.line(f"{state['v']} = {h}({state['v']}) + 0.5 * {k}({state['v']})")
    g.line(f"{state['s']} = np.tanh({k}({h}({state['s']})))")


def _returned(g, env, state, x, a):
    make, c, inner, t = g.name("make"), g.name("param"), g.name("inner"), g.name("param")
    if g.chance(0.5):
        g.define([f"def {make}({c}):", f"    def {inner}({t}):",
                  f"        return np.tanh({t} * {c}) + {c}", f"    return {inner}"])
    else:
        g.define([f"def {make}({c}):", f"    return lambda {t}: np.tanh({t} * {c}) + {c}"])
    g.use("closure_returned")
    h = g.name("fn")
    g.line(f"{h} = {make}({_reader(g, state, x)})")
    g.line(f"{state['v']} = {h}({state['v']}) + 0.5 * {state['v']}")


def _container(g, env, state, x, a):
    fs = g.name("table")
    c = _reader(g, state, x)
    t = g.name("param")
    if g.chance(0.5):
        g.line(f"{fs} = {{'a': lambda {t}: {t} * {c}, 'b': np.sin, 'c': lambda {t}: np.tanh({t})}}")
        key = g.name("key")
        form = g.pick(("key", "loop"))
        if form == "key":
            g.line(f"{state['v']} = {fs}['a']({state['v']}) + {fs}[{g.pick(('b', 'c'))!r}]({a})")
        else:
            fn = g.name("fn")
            g.line(f"for {key}, {fn} in {fs}.items():")
            g.line(f"{state['v']} = 0.5 * {fn}({state['v']}) + 0.5 * {state['v']}", 2)
        g.use("function_dict")
    else:
        g.line(f"{fs} = [np.tanh, lambda {t}: {t} * {c} + 0.1, np.sin]")
        fn = g.name("fn")
        g.line(f"for {fn} in {fs}[{g.pick(('0', '1'))}:]:")
        g.line(f"{state['v']} = {fn}({state['v']})", 2)
        g.line(f"{state['s']} = {fs}[1]({state['s']})")
        g.use("function_list")


def _partial(g, env, state, x, a):
    if "import functools" not in g.imports:
        g.imports.append("import functools")
    h, c, d, t = g.name("helper"), g.name("param"), g.name("param"), g.name("param")
    g.define([f"def {h}({c}, {d}, {t}):", f"    return np.tanh({t} * {c}) + {d}"])
    p = g.name("bound")
    c = _reader(g, state, x)
    bound = g.pick((c, f"{c}, 0.1", f"0.5, {c}"))
    g.line(f"{p} = functools.partial({h}, {bound})")
    args = f"{state['v']}" if "," in bound else f"0.2, {state['v']}"
    g.line(f"{state['v']} = {p}({args})")
    g.use("functools_partial")


def _given(g, env, state, x, a):
    apply, fn, t = g.name("apply"), g.name("param"), g.name("param")
    g.define([f"def {apply}({fn}, {t}):", f"    return {fn}({t}) * 0.5 + {fn}({t} * 0.5)"])
    inner, p = g.name("inner"), g.name("param")
    c = _reader(g, state, x)
    if g.chance(0.5):
        g.line(f"def {inner}({p}):")
        g.line(f"return np.sin({p}) * {c}", 2)
        g.line(f"{state['v']} = {apply}({inner}, {state['v']})")
    else:
        g.line(f"{state['v']} = {apply}(lambda {p}: np.cos({p} * {c}), {state['v']})")
    g.use("function_argument")


def _mapped(g, env, state, x, a):
    t, ys = g.name("param"), g.name("items")
    c = _reader(g, state, x)
    g.line(f"{ys} = list(map(lambda {t}: np.tanh({t} * {c}), [{state['v']}, {a}]))")
    g.line(f"{state['v']} = {ys}[0] + 0.5 * {ys}[1]")
    g.use("function_map")


def _made_in_loop(g, env, state, x, a):
    fs, i, t, fn = g.name("table"), g.name("counter"), g.name("param"), g.name("fn")
    v = state["v"]
    late = g.chance(1 / 6)
    default = "" if late else f", {i}={i}"
    w, c = g.name("captured"), _reader(g, state, x)
    g.line(f"{w} = {v} * 1.0")
    g.line(f"{fs} = []")
    g.line(f"for {i} in range({g.n}):")
    g.line(f"{fs}.append(lambda {t}{default}: {t} * {w}[{i}] + {c})", 2)
    g.line(f"{state['s']} = np.tanh(sum({fn}({x}) for {fn} in {fs}))")
    g.use("closure_late_binding" if late else "closure_default_bound")


def _nested_returned(g, env, state, x, a):
    """A nested def of f returning a lambda (or a def) over its parameter, called with a
    differentiated value: the def is inlined, its parameter renamed (`make_c`), and the
    lambda must be a closure over that name (session 38: it was kept as a constant
    function, silently losing the derivative through the parameter)."""
    make, c, t = g.name("make"), g.name("param"), g.name("param")
    g.line(f"def {make}({c}):")
    if g.chance(0.5):
        inner = g.name("inner")
        g.line(f"def {inner}({t}):", 2)
        g.line(f"return np.sin({t} * {c}) + {t} * {c}", 3)
        g.line(f"return {inner}", 2)
    else:
        g.line(f"return lambda {t}: np.sin({t} * {c}) + {t} * {c}", 2)
    g.use("nested_def_returns_closure")
    reader = _reader(g, state, x)
    if g.chance(0.5):
        g.line(f"{state['v']} = {make}({reader})({state['v']}) + 0.5 * {state['v']}")
    else:
        h = g.name("fn")
        g.line(f"{h} = {make}({reader})")
        g.line(f"{state['s']} = np.tanh({h}({state['s']})) + {h}(0.5)")


STEPS = (_lambda_local, _returned, _returned, _container, _partial, _given, _mapped,
         _made_in_loop, _side_by_side, _nested_returned)
