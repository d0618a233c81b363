"""Steps of the calls class added in session 37, one per wrong value found that session
(each reads and rebinds the carried scalar s and array v, as gen_breadth34.py):

    _dispatched_axis_method: an array method given a positional axis, `m.sum(0)`,
        `m.mean(1)`, `m.max(0)`, ..., on a receiver the source does not show to be an
        array (a list's item, a dict's value, an object's attribute, a helper's
        argument): the compiler dispatches on it when the code runs
        (`if is_user_object(m, "sum"): ... else: t = m.sum(0)`), and forward mode's
        tangent of the copied call in the array branch dropped the axis
        (`np.sum(m_dot)`): jvp, jacfwd and both hvp routes wrong (tests/red37).
    _rows_then_value: a list of rows that carries no derivative (built from the array
        argument alone, so none under hvp wrt the scalar; or from constants), of a length
        known only when the code runs (a loop of 0 to 3 trips, a comprehension), joined
        BEFORE the carried value (`[*rows, v]`, `(*rows, v)`, `rows + [v]`,
        `tuple(rows) + (v,)`, `[*rows, *[v, w]]`, `h(*rows, v)`, `*rest, last = ...`,
        `.extend`), then read by position (row weights 1, 2, ...; the last row). hvp
        forward over reverse's fold of `zero_addend(rows) + v_dot` swapped the operands
        of the concatenation: v's tangent took the first row's place (a zero or wrong
        hvp: mutators16.starred_list_of_unknown_length, tests/forward/test_hvp_fr_code.py).
        gen_idioms.py's `_starred` joined only values carrying a derivative (or the
        inactive one last) and summed the rows, where a position does not show.
"""

# sum's tangent is its own rule's call (tidied, where the axis went missing); the
# others' tangents are other templates: drawn for the dispatch, which they share
METHODS = ("sum", "sum", "sum", "sum", "mean", "max", "prod", "var")
RECEIVERS = ("list", "dict", "attribute", "helper")


def _set(g, state, key, value, depth=1):
    g.line(f"{state[key]} = {value}", depth)


def _receiver(g, matrix):
    """An expression reading `matrix` back through a list, a dict, an attribute or a
    helper's parameter: no static type for the method's receiver."""
    kind = g.pick(RECEIVERS)
    if kind == "list":
        box = g.name("blocks")
        g.line(f"{box} = [{matrix}, {matrix} * 0.5]")
        return kind, f"{box}[0]"
    if kind == "dict":
        box = g.name("feats")
        g.line(f"{box} = {{'m': {matrix}}}")
        return kind, f"{box}['m']"
    if kind == "attribute":
        cls = g.name("Holder")
        g.define(["", "", f"class {cls}:", "    def __init__(self, m):",
                  "        self.m = m", ""])
        return kind, f"{cls}({matrix}).m"
    return kind, None


def _dispatched_axis_method(g, env, state, x, a):
    s, v = state["s"], state["v"]
    matrix = g.name("table")
    g.line(f"{matrix} = np.outer(np.tanh({v}), np.linspace(0.5, 1.5, {g.n})) + {s}")
    method, axis = g.pick(METHODS), g.pick(("0", "1"))
    kind, receiver = _receiver(g, matrix)
    if kind == "helper":
        helper = g.name("reduce_rows")
        g.define(["", "", f"def {helper}(m):", f"    return m.{method}({axis})", ""])
        value = f"{helper}({matrix})"
    else:
        value = f"{receiver}.{method}({axis})"
    _set(g, state, "v", f"{v} * 0.5 + {value}")
    g.use("dispatched_axis_method")

_ROWS = ("[np.cos({a}), {a} * 0.5]", "[np.sin({a} * ({k} + 1.0)) for {k} in range({m})]",
         "[np.linspace(0.1, 0.9, {n}) * ({k} + 1.0) for {k} in range({m})]")
_JOINS = ("[*{rows}, {y}]", "(*{rows}, {y})", "{rows} + [{y}]", "tuple({rows}) + ({y},)",
          "[*{rows}, *[{y}, np.sin({y})]]")


def _rows(g, a):
    """A list of rows without a derivative of x (maybe empty), bound to a fresh name."""
    rows, k, m = g.name("items"), g.name("counter"), g.rng.randint(0, 3)
    if g.chance(0.3):                   # appended in a loop
        g.line(f"{rows} = []")
        g.line(f"for {k} in range({m}):")
        g.line(f"{rows}.append(np.tanh({a} * ({k} + 0.5)))", 2)
    else:
        g.line(f"{rows} = " + g.pick(_ROWS).format(a=a, k=k, m=m, n=g.n))
    return rows


def _rows_then_value(g, env, state, x, a):
    s, v = state["s"], state["v"]
    rows, joined = _rows(g, a), g.name("items")
    y = g.pick((v, f"{v} * {s}", f"np.sin({v}) + {x}"))
    form = g.rng.randrange(8)
    if form < 5:                        # a display or a concatenation, stacked
        g.line(f"{joined} = " + _JOINS[form].format(rows=rows, y=y))
        w = g.name("stacked")
        g.line(f"{w} = np.stack({joined})")
        _set(g, state, "v", f"np.tanh(np.sum({w} ** 2 * np.arange(1.0, {w}.shape[0] + 1.0)"
                            f"[:, None], axis=0) * 0.2 + {w}[-1])")
    elif form == 5:                     # f(*rows, y): a helper of any number of arguments
        h, vs, k, u = g.name("helper"), g.name("rest"), g.name("counter"), g.name("item")
        g.define([f"def {h}(*{vs}):", f"    out = 0.0",
                  f"    for {k}, {u} in enumerate({vs}):",
                  f"        out = out + ({k} + 1.0) * np.tanh({u})", "    return out"])
        _set(g, state, "v", f"{h}(*{rows}, {y}) * 0.5")
        g.use("star_call_unknown_length")
    elif form == 6:                     # *rest, last = [*rows, y]
        rest, last = g.name("rest"), g.name("param")
        g.line(f"*{rest}, {last} = [*{rows}, {y}]")
        _set(g, state, "v", f"np.tanh({last}) * (1.0 + 0.1 * len({rest}))")
        g.use("starred_target")
    else:                               # extended: a copy of rows, then y
        g.line(f"{joined} = list({rows})")
        g.line(f"{joined}.extend([{y}, {y} * 0.5])")
        _set(g, state, "v", f"np.tanh({joined}[-2] * {joined}[-1] + len({joined}) * 0.1)")
        g.use("list_extend")
    g.use("inactive_rows_first")


STEPS = (_dispatched_axis_method, _rows_then_value)
