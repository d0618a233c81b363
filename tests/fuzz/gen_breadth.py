"""Steps of the calls class (gen_calls.py) for README's Python-breadth rows marked "works":
each reads and rebinds the carried scalar s and array v (carried_program's frame).

    comprehensions with several for/if clauses, dict comprehensions; builtins max/min
    (values, an iterable, key=), sorted, reversed, pow, divmod, .item(), .tolist();
    annotated assignments, del, loop else, `with np.errstate(...)`, `:=` in an if test;
    try/except/else/finally around values not
    being differentiated; global declarations of names only read; generator functions
    (yield, yield from) consumed by sum/list/for/enumerate; writes into an argument of f;
    dict .values()/.items()/.get()/.copy(), list .copy()/.index(); list pop/insert/reverse/
    clear/remove and dict pop/popitem/clear on a list or dict f builds and shares with no
    other name; functools.reduce with a lambda, a helper, operator.add/mul or a NumPy
    function, with and without an initial value; f's own *args/**kwargs parameters (the
    oracle passes Case.data and Case.options after the inputs, not differentiated).

Every test on a differentiated value keeps a margin (`> -5.0` of a tanh), so finite
differences never cross a branch; max/min of distinct values are left to the oracle's
smoothness check (a tie within reach of finite differences is skipped).
"""


def _set(g, state, key, value, depth=1):
    g.line(f"{state[key]} = {value}", depth)


def _comprehension(g, env, state, x, a):
    s, v = state["s"], state["v"]
    i, t, k, ys = g.name("counter"), g.name("item"), g.name("key"), g.name("items")
    form = g.rng.randrange(3)
    if form == 0:
        g.line(f"{ys} = [{t} * {k} for {t} in ({s}, {x}) for {k} in {v} "
               f"if {k} > -5.0{g.pick(('', f' if {t} > -5.0'))}]")
        _set(g, state, "s", f"np.tanh(sum({ys}) * 0.2)")
    elif form == 1:
        g.line(f"{ys} = [{v}[{i}] * {v}[{k}] for {i} in range(len({a})) "
               f"for {k} in range({i}) if ({i} + {k}) % 2 == {g.pick(('0', '1'))}]")
        _set(g, state, "s", f"np.tanh({s} + 0.3 * sum({ys}))")
    else:
        g.line(f"{ys} = {{{i}: {v}[{i}] * {s} for {i} in range(len({a})) if {i} != 1}}")
        _set(g, state, "s", f"np.tanh(sum({ys}.values()) + {s})")
        g.use("dict_values", "dict_comprehension")
    g.use("comprehension_clauses")


def _max_min(g, env, state, x, a):
    s, v = state["s"], state["v"]
    p, q = g.name("pair"), g.name("param")
    form = g.rng.randrange(5)
    if form == 0:
        _set(g, state, "s", f"{g.pick(('max', 'min'))}({s}, 0.5 * {x}, np.tanh({v}[0]))")
    elif form == 1:
        _set(g, state, "s", f"{g.pick(('max', 'min'))}([{s} * {x}, {v}[-1], 0.25], key=abs)")
    elif form == 2:
        g.line(f"{p} = [({v}[0], {v}), (np.sum({v}) * 0.3, np.sin({v})), (0.1, {a} * {s})]")
        _set(g, state, "v", f"{g.pick(('max', 'min'))}({p}, key=lambda {q}: {q}[0])[1]")
    elif form == 3:
        _set(g, state, "v", f"np.array(sorted({v}.tolist(), reverse=True)) * {s} + {v}")
        g.use("sorted_tolist")
    else:          # (sum(reversed([s, x])) is refused: reversed of a display has no rule)
        t = g.name("item")
        _set(g, state, "s", f"pow({s} * 0.5, 2) + {v}[0].item()")
        g.line(f"for {t} in reversed([{s}, {x}, {v}[1]]):")
        _set(g, state, "s", f"np.tanh({s} * 0.5 + {t})", 2)
    g.use("builtin_max_min")


def _statements(g, env, state, x, a):
    s, v = state["s"], state["v"]
    t, i, u = g.name("part"), g.name("counter"), g.name("item")
    g.line(f"{t}: float = np.tanh({s} * {x})")
    g.line(f"for {i}, {u} in enumerate({v}):")
    g.line(f"if {u} > {g.pick(('5.0', '-5.0'))}:", 2)
    g.line(f"{t} = {t} + {u} * 0.1", 3)
    g.line(f"if {i} == {g.rng.randint(0, 4)}:", 3)
    g.line("break", 4)
    g.line("else:")
    g.line(f"{t} = {t} * 0.5", 2)
    _set(g, state, "s", f"np.tanh({t} + {s})")
    g.line(f"del {t}")
    g.use("annotated_assign", "del_name", "loop_else")
    if g.chance(0.5):
        g.line(f"with np.errstate({g.pick(('all', 'over', 'divide'))}='ignore'):")
        _set(g, state, "v", f"{v} * np.tanh({s})", 2)
        g.use("with_block")
    if g.chance(0.5):
        g.line(f"if ({t} := np.tanh({s} * {x})) > -5.0:")
        _set(g, state, "s", f"{t} * 0.5 + {s}", 2)
        g.use("walrus")


def _handlers(g, env, state, x, a):
    s, v = state["s"], state["v"]
    c, k = g.name("scale"), g.name("count")
    g.line(f"{k} = {g.pick(('0', '2', 'len(' + a + ') - 3'))}")
    g.line("try:")
    g.line(f"{c} = 1.0 / {k}", 2)
    g.line("except ZeroDivisionError:")
    g.line(f"{c} = {g.pick(('0.0', '0.25'))}", 2)
    if g.chance(0.5):
        g.line("else:")
        g.line(f"{c} = {c} + 0.5", 2)
    if g.chance(0.6):
        g.line("finally:")
        _set(g, state, "v", f"{v} * 0.9 + 0.1 * np.sin({v})", 2)
    _set(g, state, "s", f"np.tanh({s} + {c} * {x})")
    g.use("try_except")


def _global_read(g, env, state, x, a):
    name = g.name("scale").upper()
    g.define([f"{name} = {g.pick(('0.7', '-0.4', '1.3'))}"])
    g.line(f"global {name}")
    _set(g, state, "s", f"np.tanh({state['s']} * {name} + {x})")
    g.use("global_declared_read")


def _generator(g, env, state, x, a):
    s, v = state["s"], state["v"]
    h, p, q, k = g.name("helper"), g.name("param"), g.name("param"), g.name("counter")
    if g.chance(0.4):            # yield from a display (of another generator: refused)
        inner = g.name("helper")
        source = g.pick((f"[{p} * 0.5, np.sin({p})]", f"({p}, {p} * {p})", f"{inner}({p})"))
        if source.startswith(inner):
            g.define([f"def {inner}({p}):", f"    yield {p} * 0.5", f"    yield np.sin({p})"])
        g.define([f"def {h}({p}, {q}):", f"    yield from {source}",
                  f"    for {k} in range(len({q})):", f"        yield {q}[{k}] * {p}"])
    else:
        g.define([f"def {h}({p}, {q}):", f"    for {k} in {q}:",
                  f"        yield np.tanh({k} * {p})"])
    call = f"{h}({s}, {v})"
    form = g.rng.randrange(3)
    if form == 0:
        _set(g, state, "s", g.pick((f"np.tanh(sum({call}))", f"np.tanh(np.sum(list({call})))")))
    else:
        i, t = g.name("counter"), g.name("item")
        g.line(f"for {i}, {t} in enumerate({call}):" if form == 1 else f"for {t} in {call}:")
        _set(g, state, "s", f"np.tanh({s} + 0.2 * {t})", 2)
    g.use("generator_function")


def _argument_write(g, env, state, x, a):
    s, v = state["s"], state["v"]
    form = g.pick((0, 0, 1, 1, 2))        # 2: `a += ...`: copied on entry (session 30)
    if form == 0:
        g.line(f"{a}[{g.index()}] = np.tanh({s})")
    elif form == 1:
        g.line(f"{a}[1:] = {a}[1:] * {s} + {v}[:-1] * 0.5")
    else:
        g.line(f"{a} += 0.1 * {v}")
    _set(g, state, "v", f"{v} + {a} * {x}")
    g.use("argument_write")


def _dict_methods(g, env, state, x, a):
    s, v = state["s"], state["v"]
    d, e, k, t = g.name("params"), g.name("params"), g.name("key"), g.name("item")
    g.line(f"{d} = {{'w': {v}, 'b': {s}}}")
    g.line(f"{e} = {d}.copy()")
    g.line(f"{e}['b'] = {e}.get('b', 0.0) * {x} + {d}.get('c', 0.5)")
    if g.chance(0.5):
        g.line(f"for {k}, {t} in {e}.items():")
        _set(g, state, "s", f"np.tanh({s} + 0.1 * np.sum({t}))", 2)
    else:
        _set(g, state, "s", f"np.tanh(sum(np.sum({t}) for {t} in {e}.values()) * 0.2)")
        g.use("dict_values")
    xs = g.name("items")
    g.line(f"{xs} = [{s}, {x}, 0.5]")
    at = g.pick(("1", "-2", f"{xs}.index(0.5) - 1", f"{xs}.count(0.5)"))
    _set(g, state, "v", f"{v} * {xs}.copy()[{at}]")
    g.use("dict_methods")


def _list_mutators(g, env, state, x, a):
    s, v = state["s"], state["v"]
    xs, last, d = g.name("items"), g.name("item"), g.name("params")
    g.line(f"{xs} = [{s}, {x}, 0.5, np.sum({v}) * 0.2]")
    g.line(f"{xs}.insert({g.rng.randint(0, 3)}, {s} * {x})")
    at = g.pick(("", "0", "-2"))
    g.line(f"{last} = {xs}.pop({at})")
    if at != "-2" and g.chance(0.5):                # 0.5 is still in the list
        g.line(f"{xs}.remove(0.5)")
    g.line(f"{xs}.reverse()")
    _set(g, state, "s", f"np.tanh(sum({xs}) * 0.3 + {last} * {xs}[0])")
    if g.chance(0.5):
        g.line(f"{xs}.clear()")
        g.line(f"{xs}.append({v})")
        _set(g, state, "v", f"{xs}[0] * 0.5 + {v}")
    if g.chance(0.4):
        g.line(f"{d} = {{'w': {v}, 'b': {s}}}")
        _set(g, state, "s", f"{d}.pop('b') * {x} + np.sum({d}.popitem()[1]) * 0.1")
        g.line(f"{d}.clear()")
        g.use("dict_mutators")
    g.use("list_mutators")


def _reduce(g, env, state, x, a):
    if "import functools" not in g.imports:
        g.imports.append("import functools")
    s, v = state["s"], state["v"]
    p, q, h = g.name("param"), g.name("param"), g.name("helper")
    fn = g.pick((f"lambda {p}, {q}: {p} * 0.5 + np.tanh({q} * {x})", "operator.add",
                 "operator.mul", "np.add", h))
    if fn == h:
        g.define([f"def {h}({p}, {q}):", f"    return np.sin({p}) + {q}"])
    if fn.startswith("operator") and "import operator" not in g.imports:
        g.imports.append("import operator")
    k = g.name("counter")
    key, items = g.pick((("s", f"[{s}, {x}, np.sum({v}) * 0.1]"),
                         ("s", f"({s} * {v}[{k}] for {k} in range(2))"),
                         ("v", f"[{v}, np.sin({v})]")))
    init = g.pick(("", ", 0.5", f", {s}"))
    value = f"functools.reduce({fn}, {items}{init})"
    _set(g, state, key, f"np.tanh({value})" if fn != "operator.mul" else f"np.tanh({value} * 0.5)")
    g.use("functools_reduce")


def _varargs(g, env, state, x, a):
    """f's own `*args, **kwargs` parameters: data the oracle passes after the inputs (not
    differentiated); the named parameters are."""
    s, v = state["s"], state["v"]
    if not hasattr(g, "star_names"):       # (g.star may hold a `/` already)
        rest, options = g.name("rest"), g.name("options")
        g.star += f", *{rest}, **{options}"
        g.data = tuple(g.pick((0.3, -1.2, 2.0)) for _ in range(g.rng.randint(0, 2)))
        g.options = g.pick(({}, {"scale": 0.7}, {"scale": -0.4, "shift": 0.2}))
        g.star_names = (rest, options)
    rest, options = g.star_names
    t = g.name("item")
    form = g.rng.randrange(3)
    if form == 0:
        g.line(f"for {t} in {rest}:")
        _set(g, state, "s", f"np.tanh({s} + {t} * {x})", 2)
    elif form == 1:
        _set(g, state, "s", f"{s} * {options}.get('scale', 0.5) + 0.1 * len({rest}) * {x}")
    else:
        _set(g, state, "v", f"{v} * (1.0 + 0.2 * sum({rest})) + {options}.get('shift', 0.0)")
    g.use("star_parameters")


def _helper_varargs(g, env, state, x, a):
    """A helper's `*args` given differentiated values (session 30): by position, by a
    star of a tuple display, after a named parameter, with a keyword-only one after."""
    h, w, rest, t = g.name("helper"), g.name("param"), g.name("rest"), g.name("item")
    g.define([f"def {h}({w}, *{rest}, scale=0.5):", f"    out = {w} * scale",
              f"    for {t} in {rest}:", f"        out = out + np.tanh({t}) * {w}",
              "    return out"])
    s, v = state["s"], state["v"]
    call = g.pick((f"{h}({s}, {v}, {x})", f"{h}({x}, *({v}, {s} * {v}))",
                   f"{h}({s}, {v}, scale=0.3)", f"np.sum({h}(0.7, {v} * {x}))"))
    _set(g, state, "s" if call.startswith("np.sum") else "v", call)
    g.use("helper_varargs")


def _starred_target(g, env, state, x, a):
    """`m, *rest = ...` of a list display, a tuple or the carried array (session 30)."""
    s, v = state["s"], state["v"]
    m, rest, last = g.name("param"), g.name("rest"), g.name("param")
    form = g.rng.randrange(4)
    if form == 0:
        g.line(f"{m}, *{rest} = [{s} * {x}, np.tanh({s}), {x}]")
        _set(g, state, "s", f"np.tanh({m} + 0.5 * sum({rest}))")
    elif form == 1:
        g.line(f"{m}, *{rest}, {last} = ({v}, np.sin({v}), {v} * {s})")
        _set(g, state, "v", f"{m} * 0.5 + {last} * 0.3 + len({rest}) * {rest}[0] * 0.1")
    elif form == 2:
        g.line(f"{m}, *{rest} = {v} * {x}")
        _set(g, state, "s", f"np.tanh({s} + {m} * 0.2 + sum({rest}) * 0.1)")
    else:      # a starred comprehension target: refused (its gradient was silently zero)
        rows = f"[({s}, {v}, {x}), ({x} * {s}, {v} * 0.5, {s})]"
        _set(g, state, "s", f"np.tanh({s} + 0.1 * sum(np.sum({rest}[0]) * {m} "
                            f"for {m}, *{rest} in {rows}))")
    g.use("starred_target")


def _attribute_write(g, env, state, x, a):
    """An object f makes, its attributes set by f (`c.state = ...`) or by a method
    setting `self.h` (an RNN step), read back (session 30)."""
    cls, step, h, w = g.name("Layer").capitalize(), g.name("method"), g.name("field"), \
        g.name("field")
    p, obj, k = g.name("param"), g.name("layer"), g.name("counter")
    g.define([f"class {cls}:", f"    def __init__(self, {w}):", f"        self.{w} = {w}",
              f"        self.{h} = 0.0", "", f"    def {step}(self, {p}):",
              f"        self.{h} = np.tanh(self.{w} * {p} + self.{h} * 0.5)",
              f"        return self.{h}"])
    s, v = state["s"], state["v"]
    g.line(f"{obj} = {cls}({g.pick((v, s, f'{v} * {x}'))})")
    if g.chance(0.5):
        g.line(f"for {k} in range({g.pick(('2', '3'))}):")
        g.line(f"{obj}.{step}({s} + {k} * 0.1)", 2)
    else:
        g.line(f"{obj}.{h} = {obj}.{w} * {x} + {s}")
        g.line(f"{p} = {obj}.{step}({x})")
        _set(g, state, "s", f"np.tanh({s} + np.sum({p}) * 0.1)")
    _set(g, state, "v", f"{v} + {obj}.{h} * 0.5")
    g.use("attribute_write")


def _nested_append(g, env, state, x, a):
    """`hist["loss"].append(v)` in a loop, the entry read back (session 30)."""
    s, v = state["s"], state["v"]
    hist, k, key = g.name("items"), g.name("counter"), g.pick(("loss", "norm"))
    g.line(f"{hist} = {{{key!r}: [], 'steps': []}}")
    g.line(f"for {k} in range({g.pick(('2', '3'))}):")
    g.line(f"{hist}[{key!r}].append(np.tanh({s} + {k} * {x}))", 2)
    g.line(f"{hist}['steps'].append({v} * {k})", 2)
    read = g.pick((f"sum({hist}[{key!r}])", f"{hist}[{key!r}][-1]", f"np.mean({hist}[{key!r}])"))
    _set(g, state, "s", f"np.tanh({s} + 0.5 * {read})")
    _set(g, state, "v", f"{v} + 0.1 * {hist}['steps'][-1]")
    g.use("nested_append")


STEPS = (_comprehension, _max_min, _statements, _handlers, _global_read, _generator,
         _argument_write, _dict_methods, _list_mutators, _reduce, _varargs,
         _helper_varargs, _starred_target, _attribute_write, _nested_append)
