"""Steps of the calls class added in session 37, one per wrong value red37 found (each
reads and rebinds the carried scalar s and array v, as gen_breadth34.py):

    _dispatched_axis_method: an array method given a positional axis, `m.sum(0)`,
        `m.mean(1)`, `m.max(0)`, ..., on a receiver the source does not show to be an
        array (a list's item, a dict's value, an object's attribute, a helper's
        argument): the compiler dispatches on it when the code runs
        (`if is_user_object(m, "sum"): ... else: t = m.sum(0)`), and forward mode's
        tangent of the copied call in the array branch dropped the axis
        (`np.sum(m_dot)`): jvp, jacfwd and both hvp routes wrong (tests/red37).
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


STEPS = (_dispatched_axis_method,)
