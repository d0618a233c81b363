"""Steps of the idioms class (gen_idioms.py) for three README rows marked "works" (session
30): each reads and rebinds the carried scalar s and array v (gen_calls.carried_program).

    operators on user objects:  class V:                       a field or two (a dataclass)
                                    def __add__(self, other):  linear or not
                                        return V(self.w + other.w)
                                    ... __radd__ __sub__ __mul__ __rmul__ __truediv__
                                    __neg__ __matmul__ __abs__ __pow__ (__iadd__)
                                def f(x, a):
                                    o, p = V(v * s), V(np.sin(v))
                                    r = (o + p) * s - p / 2.0      in expressions, loops,
                                    s = np.tanh(o @ r)             helpers, sum([...])
    f(*xs), xs of a length the source does not fix: a comprehension or appends bounded by
        len(a), a helper's parameter, the rows of an array, bound twice, a second name,
        `h(v, *xs)`; h a helper (with a default), a function value or a method
    dict merges: `{**p, "b": t}` and `{"b": t, **p}` (key overlap both ways), two spreads,
        `p | q`, `q | p`, `dict(p, b=t)`, `dict(p)`; `p |= q` in a loop (after `r = p.copy()`
        or `dict(p)`, or `r = p`: refused)

Every value stays bounded (tanh, sin); tests on lengths only (no branch on a value).
"""


def _set(g, state, key, value, depth=1):
    g.line(f"{state[key]} = {value}", depth)


def _new(cls, fields, template):
    """`cls(...)` with one argument per field, `template` formatted with the field's name."""
    return f"{cls}(" + ", ".join(template.format(f=f) for f in fields) + ")"


def _operator_class(g):
    """A class with operator methods over its fields (the first an array, the second, if
    any, a scalar); returns (class name, fields, whether it defines __iadd__)."""
    cls = g.name("Vec").capitalize()
    fields = [g.name("field") for _ in range(g.pick((1, 1, 2)))]
    made = cls if g.chance(0.7) else "type(self)"
    new = lambda t: _new(made, fields, t)  # noqa: E731
    other = "other.{f} if isinstance(other, " + cls + ") else other"
    add = g.pick(("self.{f} + other.{f}", "self.{f} * np.tanh(other.{f}) + other.{f}"))
    methods = {
        "__add__": [f"if isinstance(other, {cls}):", f"    return {new(add)}",
                    f"return {new('self.{f} + other')}"],
        "__radd__": [f"return {new('other + self.{f}')}"],
        "__sub__": [f"return {new('self.{f} - other.{f}')}"],
        "__mul__": [f"return {new('self.{f} * (' + other + ')')}"],
        "__rmul__": [f"return {new('other * self.{f}')}"],
        "__truediv__": [f"return {new('self.{f} / other')}"],
        "__neg__": [f"return {new('-self.{f}')}"],
        "__matmul__": ["return " + " + ".join(f"np.sum(self.{f} * other.{f})" for f in fields)],
        "__abs__": [f"return {new('np.sqrt(self.{f} * self.{f} + 1.0)')}"],
        "__pow__": [f"return {new('np.tanh(self.{f}) ** other')}"],
    }
    iadd = g.chance(0.4)
    if iadd:              # returns a new object (one writing into self is refused)
        methods["__iadd__"] = [f"return {new('self.{f} + 0.5 * (' + other + ')')}"]
    dataclass = len(fields) == 2 and g.chance(0.5)
    if dataclass:
        if "import dataclasses" not in g.imports:
            g.imports.append("import dataclasses")
        lines = ["@dataclasses.dataclass", f"class {cls}:", *(f"    {f}: object" for f in fields)]
    else:
        lines = [f"class {cls}:", f"    def __init__(self, {', '.join(fields)}):",
                 *(f"        self.{f} = {f}" for f in fields)]
    for name, body in methods.items():
        signature = "self" if name in ("__neg__", "__abs__") else "self, other"
        lines += ["", f"    def {name}({signature}):", *("        " + b for b in body)]
    g.define(lines)
    g.use("dataclass" if dataclass else "class_init")
    return cls, fields, iadd


def _user_operators(g, env, state, x, a):
    s, v = state["s"], state["v"]
    cls, fields, iadd = _operator_class(g)
    o, p, r = g.name("left"), g.name("right"), g.name("result")
    extra = [f"{s} * {x}", "0.5", f"np.tanh({x})"]
    g.line(f"{o} = {cls}({v} * {s}{', ' + g.pick(extra) if len(fields) > 1 else ''})")
    g.line(f"{p} = {cls}(np.sin({v}){', ' + g.pick(extra) if len(fields) > 1 else ''})")
    w = fields[0]
    form = g.pick((0, 1, 1, 2, 3, 4))
    if form == 0:
        g.line(f"{r} = " + g.pick((f"({o} + {p}) * {s} - {p} / 2.0", f"2.0 * {o} + 1.0",
                                   f"1.0 + (-{o}) * {x}", f"{x} * {o} - (-{p})",
                                   f"abs({o}) + pow({p}, 2)", f"{o} * {p} + {p}")))
    elif form == 1:
        k = g.name("counter")
        g.line(f"{r} = {o}")
        g.line(f"for {k} in range({g.pick(('2', f'len({a})', f'len({a}) - 2'))}):")
        squashed = _new(cls, fields, "np.tanh(" + r + ".{f})")
        g.line(g.pick((f"{r} += {p} * {s}", f"{r} = {r} - 0.1 * {p}",
                       f"{r} = {r} * 0.5 + {squashed}")), 2)
        g.use("operator_in_loop", *(("operator_iadd",) if iadd else ()))
    elif form == 2:
        t, item = g.name("total"), g.name("item")
        g.line(f"{t} = 0.0")
        g.line(f"for {item} in [{o}, {p}, -{o}]:")
        g.line(f"{t} = {t} + {item} @ {item} * 0.1", 2)
        _set(g, state, "s", f"np.tanh({s} + {t})")
        g.line(f"{r} = {o} - {p}")
    elif form == 3:
        h, q, u = g.name("helper"), g.name("param"), g.name("param")
        g.define([f"def {h}({q}, {u}):", f"    return {q} @ {u} + ({q} - {u}) @ ({q} - {u})"])
        _set(g, state, "s", f"np.tanh({h}({o}, {p}) * 0.1 + {s})")
        g.line(f"{r} = {p} + {o}")
    else:
        g.line(f"{r} = sum([{o}, {p}, {cls}({', '.join(f'{x} * 0.5' for _ in fields)})])")
    _set(g, state, "s", f"np.tanh({s} + 0.1 * ({o} @ {r}) + 0.05 * ({p} @ {p}))")
    _set(g, state, "v", f"0.5 * {v} + 0.5 * np.tanh({r}.{w})")
    g.use("user_operators")


def _spread_values(g, state, x, a):
    """(line or None, the list `xs` whose length only shows when the code runs): 2 or 3
    entries (2 when a has 2 entries), as h's `p, q[, r]`."""
    s, v = state["s"], state["v"]
    xs, k = g.name("items"), g.name("counter")
    form = g.pick(("comprehension", "append", "append", "rows", "twice"))
    if form == "comprehension":
        entry = g.pick((f"{v} * ({k} + 1.0)", f"np.sin({v} + {k})", f"{s} * {k} + {x}"))
        g.line(f"{xs} = [{entry} for {k} in range(min(len({a}), 3))]")
    elif form == "append":
        g.line(f"{xs} = [{v}]")
        g.line(f"for {k} in range(1, min(len({a}), 3)):")
        entry = g.pick((f"{xs}[-1] * {s}", f"np.tanh({v}) * {k}", f"{x} + {k}"))
        g.line(f"{xs}.append({entry})", 2)
    elif form == "rows":
        g.line(f"{xs} = np.stack([{v}, {v} * {s}, {a}])[:min(len({a}), 3)]")
    else:
        g.line(f"{xs} = [{s}, {v}]")
        g.line(f"if len({a}) > 2:")
        g.line(f"{xs} = [{s}, {v}, {x} * 0.5]", 2)
    g.use(f"spread_{form}")
    if g.chance(0.25):
        ys = g.name("items")
        g.line(f"{ys} = {xs}")
        g.use("spread_second_name")
        return ys
    return xs


def _spread_call(g, env, state, x, a):
    s, v = state["s"], state["v"]
    h, p, q, r = g.name("helper"), g.name("param"), g.name("param"), g.name("param")
    g.define([f"def {h}({p}, {q}, {r}=0.5):", f"    return np.tanh({p} * {q}) + {r}"])
    form = g.pick(("direct", "direct", "value", "method", "parameter", "between"))
    out = g.name("spread")
    if form == "between":                              # h(v, *xs), xs of 1 or 2 entries
        xs, k = g.name("items"), g.name("counter")
        g.line(f"{xs} = [{s} * {k} + {x} for {k} in range(1, min(len({a}), 3))]")
        g.line(f"{out} = {h}({v}, *{xs})")
        g.use("spread_between")
    elif form == "parameter":                          # a helper's parameter, spread
        sp, rows = g.name("spread"), g.name("rows")
        g.define([f"def {sp}({rows}):", f"    return {h}(*{rows})"])
        xs = _spread_values(g, state, x, a)
        g.line(f"{out} = {sp}({xs}) + {sp}(({s}, {x}))")
        g.use("spread_parameter")
    else:
        xs = _spread_values(g, state, x, a)
        callee, third = _spread_callee(g, form, (h, r), state, x)
        # refused: a differentiated keyword next to the star (xs of 2 entries: n == 2)
        keyword = f", {third}={s}" if g.n == 2 and g.chance(0.15) else ""
        g.line(f"{out} = {callee}(*{xs}{keyword})")
        g.use("spread_" + form)
    _set(g, state, "s", f"np.tanh({s} + 0.2 * np.sum({out}))")
    if g.chance(0.5):
        _set(g, state, "v", f"{v} * 0.5 + 0.5 * np.tanh({out})")
    g.use("star_call_unfixed")


def _spread_callee(g, form, helper, state, x):
    """(the callee's text, its third parameter's name)."""
    h, third = helper
    if form == "direct":
        return h, third
    if form == "value":
        fn = g.name("fn")
        g.line(f"{fn} = {h}")
        return fn, third
    cls, w, p, q, r = g.name("Layer").capitalize(), g.name("field"), g.name("param"), \
        g.name("param"), g.name("param")
    g.define([f"class {cls}:", f"    def __init__(self, {w}):", f"        self.{w} = {w}", "",
              f"    def forward(self, {p}, {q}, {r}=0.5):",
              f"        return {h}({p} * self.{w}, {q}, {r})"])
    obj = g.name("layer")
    g.line(f"{obj} = {cls}({g.pick((f'np.tanh({x})', '0.7', state['s']))})")
    return f"{obj}.forward", r


def _dict_merge(g, env, state, x, a):
    s, v = state["s"], state["v"]
    p, q, r = g.name("params"), g.name("params"), g.name("params")
    g.line(f"{p} = {{'w': {v}, 'b': {s}}}")
    form = g.pick(("spread_after", "spread_before", "spread_two", "union", "union_reversed",
                   "call_keywords", "call_copy"))
    if form == "spread_after":
        more = g.pick(("", f", 'c': np.sin({v})"))
        g.line(f"{q} = {{**{p}, 'b': {p}['b'] * {x} + 0.1{more}}}")
    elif form == "spread_before":
        g.line(f"{q} = {{'b': {x} * 0.5, 'c': np.tanh({x}), **{p}}}")
    elif form == "spread_two":
        g.line(f"{r} = {{'b': np.tanh({x} * {s}), 'c': {x}}}")
        g.line(f"{q} = " + g.pick((f"{{**{p}, **{r}}}", f"{{**{r}, **{p}, 'c': {s} * 0.5}}")))
    elif form == "union":
        g.line(f"{q} = {p} | {{'b': {s} * {x}, 'c': np.sin({v})}}")
    elif form == "union_reversed":
        g.line(f"{q} = {{'b': {x}, 'c': {x} * 0.5}} | {p}")
    elif form == "call_keywords":
        g.line(f"{q} = dict({p}, b={p}['b'] * {x}{g.pick(('', f', c=np.sin({v})'))})")
    else:
        g.line(f"{q} = dict({p})")
        g.line(f"{q}['b'] = {q}['b'] * {x} + 0.5")
    g.use("dict_merge", "dict_merge_" + form.split("_")[0])
    kept = _merge_in_place(g, state, x, a, g.pick((p, q))) if g.chance(0.5) else p
    _set(g, state, "s", f"np.tanh({q}['b'] + 0.1 * np.sum({q}['w']) + 0.2 * "
                        f"np.sum({q}.get('c', 0.0)) + 0.3 * {kept}['b'])")
    _set(g, state, "v", f"0.5 * {q}['w'] + 0.5 * np.tanh({kept}['w'])")


def _merge_in_place(g, state, x, a, d):
    """`d |= {...}` in a loop after `e = d.copy()` or `dict(d)` (or `e = d`, which would see the
    merges: refused, writes through shared memory); returns e."""
    e, k = g.name("params"), g.name("counter")
    g.line(f"{e} = {g.pick((f'{d}.copy()', f'dict({d})', d))}")
    g.line(f"for {k} in range({g.pick(('2', f'len({a}) - 2', '1'))}):")
    g.line(f"{d} |= {{'w': {d}['w'] * 0.5 + np.tanh({state['v']}), "
           f"'b': {d}['b'] * 0.5 + {x}}}", 2)
    g.use("dict_merge_inplace")
    return e


STEPS = (_user_operators, _spread_call, _dict_merge)
