"""Steps of the calls class (gen_calls.py) for README's row added in session 30 (py30b):
each reads and rebinds the carried scalar s and array v (carried_program's frame).

    _regroup: zip and reversed read whole by sorted/list/tuple/dict/sum, `dict(zip(...))`,
        copy.copy/copy.deepcopy with a store into the copy, `xs.sort(key=...)` and
        `rng.shuffle(xs)` of a list f builds
    _keywords: `h(v, **params)` with params built by item writes (keys known when the
        code runs), a nested def with keyword-only parameters, `yield from` of a
        generator helper consumed by sum/list/for

Sort keys are distinct constants (finite differences never reorder them); a shuffle
draws from a generator seeded in f, so each run draws the same order.
"""


def _set(g, state, key, value, depth=1):
    g.line(f"{state[key]} = {value}", depth)


def _regroup(g, env, state, x, a):
    s, v = state["s"], state["v"]
    if "import copy" not in g.imports:
        g.imports.append("import copy")
    ps, d, e, xs, q, t = (g.name("pairs"), g.name("params"), g.name("params"),
                          g.name("items"), g.name("param"), g.name("item"))
    g.line(f"{ps} = {g.pick(('sorted', 'list', 'tuple'))}(zip([2.0, 0.5, 1.0], "
           f"[{s}, {v}, {x} * {v}]))")
    g.line(f"{d} = dict(zip(('w', 'b', 'c'), ({v}, {s}, np.sin({v}))))")
    g.line(f"{e} = copy.{g.pick(('copy', 'deepcopy'))}({d})")
    g.line(f"{e}['w'] = {e}['w'] * {s} + {d}['c']")
    g.line(f"{xs} = [(1.0, {v}), (0.2, {s} * {v}), (0.7, np.tanh({v}))]")
    if g.chance(0.5):
        g.line(f"{xs}.sort(key=lambda {q}: {q}[0]{g.pick(('', ', reverse=True'))})")
    else:
        g.line(f"np.random.default_rng({g.rng.randint(0, 9)}).shuffle({xs})")
    rev = g.pick((f"sum(reversed([{s}, {x}, np.sum({ps}[0][1])]))",
                  f"list(reversed([{s}, {x}]))[0]"))
    _set(g, state, "s", f"np.tanh(0.3 * ({rev}) + 0.1 * np.sum({e}['b']))")
    _set(g, state, "v", f"{v} * 0.5 + 0.2 * {xs}[0][1] + 0.1 * {e}['w'] * {ps}[1][0]")
    g.use("zip_read_whole", "reversed_read_whole", "dict_of_pairs", "copy_module",
          "list_sort_or_shuffle")


def _keywords(g, env, state, x, a):
    s, v = state["s"], state["v"]
    h, p, w, b = g.name("helper"), g.name("param"), g.name("param"), g.name("param")
    g.define([f"def {h}({p}, {g.pick(('', '*, '))}{w}, {b}=0.0):",
              f"    return np.tanh({p} * {w} + {b})"])
    kw = g.name("params")
    g.line(f"{kw} = {{}}")
    g.line(f"{kw}['{w}'] = {v} * 0.5")
    if g.chance(0.5):
        g.line(f"{kw}['{b}'] = {s}")
    _set(g, state, "v", f"{v} + 0.3 * {h}({v}, **{kw})")
    inner, y, k = g.name("helper"), g.name("param"), g.name("param")
    g.line(f"def {inner}({y}, *, {k}{g.pick(('', '=0.5'))}):")
    g.line(f"return {y} * {k} + {x}", 2)
    _set(g, state, "s", f"np.tanh({inner}({s}, {k}={x}) * 0.5 + {inner}({s}, {k}=0.25))")
    gi, go, r, t = g.name("helper"), g.name("helper"), g.name("param"), g.name("item")
    g.define([f"def {gi}({r}):", f"    yield {r} * 0.5", f"    yield np.sin({r})"])
    g.define([f"def {go}({r}, {t}):", f"    yield from {gi}({r})",
              f"    yield from {gi}({t} * {r})"])
    call = f"{go}({s}, {x})"
    if g.chance(0.5):
        _set(g, state, "s", g.pick((f"np.tanh(sum({call}))", f"np.tanh(list({call})[2])")))
    else:
        g.line(f"for {t} in {call}:")
        _set(g, state, "s", f"np.tanh({s} + 0.2 * {t})", 2)
    g.use("keywords_at_run_time", "keyword_only_nested", "yield_from_generator")


STEPS = (_regroup, _keywords)
