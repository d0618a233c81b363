"""The checkpointed_loops class's own programs (gen_checkpointed.py marks their loops):
steps over a carried scalar s and array v, each a loop.

    def f(x, a, m):
        s, v = np.tanh(x), a * 0.5
        for row in m:                              rows of a matrix
            v = np.tanh(v * row + s)
        w = np.zeros(3)
        for t in range(4):                         element writes into a carried array
            w[t % 3] += v[t % 3] * s
        v = v + w
        return s + np.sum(v * v)

Steps: ranges (zero-trip, bounded by len(a), negative step), array elements and matrix
rows, list and tuple items, nested loops, helpers called in the body (one returning a
tuple, one with its own loop), element and slice writes and augmented assignments into
carried arrays, dict and list carries, and random draws in the body (np.random after
np.random.seed, random after random.seed, a generator made in f, a helper drawing, a
helper given the generator), which a marked loop must refuse.
"""
from .program import ARRAY, MATRIX, SCALAR



def program(g, seed, mark):
    x, a = g.param(SCALAR), g.param(ARRAY)
    m = g.param(MATRIX) if g.chance(0.4) else None
    env = {x: SCALAR, a: ARRAY}
    state = {"s": g.name("state"), "v": g.name("state")}
    g.line(f"{state['s']} = np.tanh({x})")
    g.line(f"{state['v']} = {a} * {g.pick(('0.5', x, f'np.cos({x})'))}")
    draws = _random_setup(g) if g.chance(0.15) else None
    steps = [g.pick(STEPS) for _ in range(g.rng.randint(1, 2))]
    if draws:
        steps.insert(g.rng.randrange(len(steps) + 1), _drawing)
    g.refused_calls = {}       # call text -> why a marked loop calling it must be refused
    for step in steps:
        step(g, env, state, x, a, m, draws)
    case = g.case("checkpointed_loops", seed, f"{state['s']} + np.sum({state['v']} ** 2)")
    marked, used = mark(case.source, g.rng, rate=0.9)
    case.reference_source, case.source = case.source, marked or case.source
    case.productions = case.productions | used
    if draws:
        g.refused_calls.update(dict.fromkeys(draws, "a random draw"))
    why = [g.refused_calls[c] for c in _marked_calls(marked or "", g.refused_calls)]
    if why:
        case.must_refuse = f"{why[0]} in a checkpointed loop's body"
    return case


def _trips(g, a):
    return g.pick(("range(3)", "range(2)", "range(0)", f"range(len({a}))", "range(1, 4)",
                   "range(3, 0, -1)", f"range(len({a}) - 1)"))


def _range_carry(g, env, state, x, a, m, draws):
    s, v, t = state["s"], state["v"], g.name("counter")
    g.line(f"for {t} in {_trips(g, a)}:")
    g.line(f"{s} = np.tanh({s} * {g.scalar(env, 1)} + 0.1 * {t})", 2)
    g.line(f"{v} = {v} * 0.9 + 0.1 * np.sin({v} * {s})", 2)
    g.use("checkpointed_range")


def _rows(g, env, state, x, a, m, draws):
    s, v, e = state["s"], state["v"], g.name("item")
    if m is not None:
        g.line(f"for {e} in {g.pick((m, f'{m}[::-1]', f'np.tanh({m})'))}:")
        g.line(f"{v} = np.tanh({v} * {e} + {s})", 2)
        g.use("checkpointed_rows")
    else:
        g.line(f"for {e} in {g.pick((a, f'{a}[1:]', f'np.sin({a})'))}:")
        g.line(f"{s} = {s} * 0.5 + np.sin({e} * {x})", 2)
        g.use("checkpointed_array_elements")


def _items(g, env, state, x, a, m, draws):
    s, v, xs, e = state["s"], state["v"], g.name("items"), g.name("item")
    opened, closed = g.pick((("[", "]"), ("(", ")")))
    g.line(f"{xs} = {opened}{v}, np.sin({a}), {a} * {x}{closed}")
    g.line(f"for {e} in {xs}:")
    g.line(f"{v} = np.tanh({v} + {e} * {s})", 2)
    g.use("checkpointed_items")


def _nested(g, env, state, x, a, m, draws):
    s, v, t, u = state["s"], state["v"], g.name("counter"), g.name("counter")
    g.line(f"for {t} in range({g.rng.randint(1, 3)}):")
    g.line(f"for {u} in {g.pick((f'range({g.rng.randint(0, 2)})', a))}:", 2)
    g.line(f"{s} = np.tanh({s} + 0.3 * {u} * {x})", 3)
    g.line(f"{v} = np.tanh({v} * {s} + 0.1 * {t})", 2)
    g.use("checkpointed_nested")


def _helper(g, env, state, x, a, m, draws):
    s, v, t = state["s"], state["v"], g.name("counter")
    h, p, q, i = g.name("helper"), g.name("param"), g.name("param"), g.name("counter")
    form = g.pick(("plain", "tuple", "looped"))
    if form == "plain":
        g.define([f"def {h}({p}, {q}):", f"    return np.tanh({p} * {q}) + 0.1 * {p}"])
        call = f"{v} = {h}({v}, {s})"
    elif form == "tuple":
        g.define([f"def {h}({p}, {q}):",
                  f"    return np.tanh({p} * {q}) * 0.9, 0.5 * {q} + 0.1 * np.sum({p})"])
        call = f"{v}, {s} = {h}({v}, {s})"
    else:
        g.define([f"def {h}({p}, {q}):", f"    for {i} in range(2):",
                  f"        {p} = 0.5 * ({p} + np.roll({p}, 1)) * {q}", f"    return {p}"])
        call = f"{v} = {h}({v}, np.tanh({s}))"
    g.line(f"for {t} in {_trips(g, a)}:")
    g.line(call, 2)
    g.use("checkpointed_helper", f"checkpointed_helper_{form}")


def _element_writes(g, env, state, x, a, m, draws):
    s, v, w, t, n = state["s"], state["v"], g.name("written"), g.name("counter"), g.n
    g.line(f"{w} = {g.pick((f'np.zeros({n})', f'{a} * 0.5', f'{v}.copy()'))}")
    g.line(f"for {t} in range({g.rng.randint(1, 4)}):")
    for _ in range(g.rng.randint(1, 2)):
        g.line(g.pick((f"{w}[{t} % {n}] = np.tanh({s} * {x} + {t})",
                       f"{w}[{t} % {n}] += {v}[{t} % {n}] * {s}",
                       f"{w}[1:] = {w}[:-1] * 0.5 + {v}[1:] * {x}",
                       f"{w} += {v} * 0.1", f"{w} *= np.tanh({s})",
                       f"{w}[0] -= {s} * {w}[-1]")), 2)
    g.line(f"{v} = {v} + {w}")
    g.use("checkpointed_element_writes")


def _containers(g, env, state, x, a, m, draws):
    s, v, c, t = state["s"], state["v"], g.name("store"), g.name("counter")
    if g.chance(0.5):
        g.line(f"{c} = {{'h': {v}, 'c': {s}}}")
        g.line(f"for {t} in range({g.rng.randint(1, 3)}):")
        g.line(g.pick((f"{c} = {{'h': np.tanh({c}['h'] * {c}['c']), 'c': {c}['c'] * {x}}}",
                       f"{c}['h'] = np.tanh({c}['h'] * {c}['c'] + {x})")), 2)
        g.line(f"{v} = {c}['h'] + {c}['c']")
        g.use("checkpointed_dict_carry")
        return
    g.line(f"{c} = []")
    g.line(f"for {t} in range({g.rng.randint(1, 3)}):")
    g.line(f"{s} = np.tanh({s} * {x} + 0.2)", 2)
    g.line(f"{c}.append(np.sum({v}) * {s})", 2)
    g.line(f"{s} = {s} + 0.1 * sum({c})")
    g.use("checkpointed_list_carry")


def _random_setup(g):
    """Seed a generator in f so the unmarked program is deterministic; returns the
    draw expressions the body may use."""
    form = g.pick(("numpy", "random", "generator", "helper", "helper_given"))
    g.use(f"checkpointed_draw_{form}")
    if form in ("numpy", "helper"):
        g.line(f"np.random.seed({g.rng.randint(0, 9)})")
        if form == "helper":
            h = g.name("helper")
            g.define([f"def {h}():", "    return np.random.normal()"])
            return [f"{h}()"]
        return ["np.random.normal()", "np.random.uniform(-1.0, 1.0)", "np.random.rand()"]
    if form == "random":
        g.imports.append("import random")
        g.line(f"random.seed({g.rng.randint(0, 9)})")
        return ["random.gauss(0.0, 1.0)", "random.random()"]
    r = g.name("rng")
    g.line(f"{r} = np.random.default_rng({g.rng.randint(0, 9)})")
    if form == "helper_given":
        h, p = g.name("helper"), g.name("param")
        g.define([f"def {h}({p}):", f"    return {p}.normal()"])
        return [f"{h}({r})"]
    return [f"{r}.normal()", f"{r}.uniform(-1.0, 1.0)"]


def _drawing(g, env, state, x, a, m, draws):
    s, v, t = state["s"], state["v"], g.name("counter")
    g.line(f"for {t} in range({g.rng.randint(1, 3)}):")
    g.line(f"{s} = np.tanh({s} * {x} + 0.3 * {g.pick(draws)})", 2)
    g.line(f"{v} = {v} * (1.0 + 0.1 * {g.pick(draws)}) * {s}", 2)


def _objects(g, env, state, x, a, m, draws):
    """An object made in f whose method the body calls: reading its attributes (right),
    or setting one (`self.h = ...`: the driver does not carry it, refused)."""
    s, v, t = state["s"], state["v"], g.name("counter")
    cls, slf, p, q, meth, obj = ("Cell" + g.name("class"), g.name("self"), g.name("param"),
                                 g.name("param"), g.name("method"), g.name("object"))
    changes = g.chance(0.4)
    body = [f"        {slf}.h = np.tanh({slf}.w * {q} + {slf}.h * 0.5)", f"        return {slf}.h"] \
        if changes else [f"        return np.tanh({slf}.w * {q}) + {slf}.h"]
    g.define([f"class {cls}:", f"    def __init__({slf}, {p}):", f"        {slf}.w = {p}",
              f"        {slf}.h = 0.0", "", f"    def {meth}({slf}, {q}):", *body])
    g.line(f"{obj} = {cls}({v} * {x})")
    g.line(f"for {t} in range({g.rng.randint(1, 3)}):")
    g.line(f"{v} = {v} * 0.5 + {obj}.{meth}({s} + 0.1 * {t})", 2)
    if changes:
        g.line(f"{v} = {v} + {obj}.h")
        g.refused_calls[f"{obj}.{meth}("] = "a method changing its object"
    g.use("checkpointed_object_changed" if changes else "checkpointed_object_read")


def _marked_calls(source, calls):
    """The calls (their text up to `(`) appearing in the body of a loop source marks."""
    import ast
    found = set()
    for loop in ast.walk(ast.parse(source)) if source else ():
        if isinstance(loop, ast.For) and isinstance(loop.iter, ast.Call) and \
                getattr(loop.iter.func, "id", "") == "checkpointed":
            body = "\n".join(ast.get_source_segment(source, s) for s in loop.body)
            found |= {c for c in calls if c.split("(")[0] + "(" in body}
    return sorted(found)


STEPS = (_range_carry, _rows, _items, _nested, _helper, _element_writes, _containers,
         _range_carry, _element_writes, _helper, _objects)
