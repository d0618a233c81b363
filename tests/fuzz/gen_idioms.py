"""Generator: idioms from scientific code, one per step over a carried scalar and array.

    idioms:  def f(x, a):
                 s, v = np.tanh(x), a * x
                 u, un = v, v * 0.5
                 for k in range(3):               double buffering
                     un = 0.5 * (u + np.roll(u, 1)) * s
                     u, un = un, u
                 v = u
                 return s + np.sum(v * v)

Steps: double buffering `u, un = un, u` in a loop (rebinding, or writing into un's
elements: right, or refused); a list or tuple times an array (`[v, w] * a`, entry by
entry), in f or in a helper also given `[s] * 2` (repetition); `enumerate(xs, start)`;
`[*xs, y]` and `(*xs, y)` displays
into np.stack / sum; np.piecewise with functions agreeing at the break; `ufunc.outer`
(subtract, add, multiply, hypot, maximum, arctan2, logaddexp, power) reduced; np.float64(s)
and np.float32 round trips of scalars; session 29's NumPy families (quantile, insert/delete,
cond, polyder) chained; and gen_operators.py's steps (session 30: operators on instances of
user classes, f(*xs) of a length only known when the code runs, dict merges).
"""
from . import gen_operators
from .gen_calls import carried_program
from .program import ARRAY, SCALAR


def idioms(g, seed):
    return carried_program(g, seed, "idioms", STEPS, (1, 3))


def _double_buffer(g, env, state, x, a):
    s, v = state["s"], state["v"]
    u, un, k = g.name("current"), g.name("next"), g.name("step")
    g.line(f"{u}, {un} = {v} * 1.0, {g.pick((f'{v} * 0.5', f'np.zeros({g.n})', f'{v}.copy()'))}")
    g.line(f"for {k} in range({g.rng.randint(0, 3)}):")
    if g.chance(0.4):
        g.line(f"{un}[1:] = 0.5 * ({u}[1:] + {u}[:-1]) * {s}", 2)
        g.line(f"{un}[0] = np.tanh({u}[0])", 2)
        g.use("double_buffer_writes")
    else:
        g.line(f"{un} = {g.pick((f'0.5 * ({u} + np.roll({u}, 1)) * {s}', f'np.tanh({u} * {s}) + 0.1 * {un}'))}", 2)
        g.use("double_buffer")
    g.line(f"{u}, {un} = {un}, {u}", 2)
    g.line(f"{state['v']} = {g.pick((u, f'{u} + 0.5 * {un}'))}")


def _enumerate_start(g, env, state, x, a):
    s, v = state["s"], state["v"]
    i, t = g.name("counter"), g.name("item")
    start = g.pick(("1", "2", "-1", f"len({a})", "start=3"))
    g.line(f"for {i}, {t} in enumerate({g.pick((v, f'[{x}, {s}]', f'{v}[::-1]'))}, {start}):")
    g.line(f"{state['s']} = np.tanh({state['s']} + 0.1 * {i} * {t})", 2)
    g.use("enumerate_start")


def _starred(g, env, state, x, a):
    s, v = state["s"], state["v"]
    xs, ys = g.name("items"), g.name("items")
    if g.chance(0.5):
        g.line(f"{xs} = [{v}, np.sin({v})]")
        g.line(f"{ys} = {g.pick((f'[*{xs}, {a}]', f'({a} * {s}, *{xs})', f'[*{xs}, *{xs}]'))}")
        g.line(f"{state['v']} = np.sum(np.stack({ys}), axis=0) * 0.3")
    else:
        g.line(f"{xs} = ({s}, {x})")
        g.line(f"{ys} = {g.pick((f'[*{xs}, {s} * {x}]', f'[{x}, *{xs}]', f'(*{xs}, 0.5)'))}")
        g.line(f"{state['s']} = np.tanh(sum({ys}) * 0.5)")
    g.use("starred_display")
    if g.chance(0.4):                   # f(*xs) of a display bound once
        h, p, q, zs = g.name("helper"), g.name("param"), g.name("param"), g.name("items")
        g.define([f"def {h}({p}, {q}):", f"    return np.tanh({p} * {q}) + {q}"])
        s = state["s"]
        g.line(f"{zs} = " + g.pick((f"({s}, {x})", f"[{x}, {s}]")))
        g.line(f"{state['s']} = {h}(*{zs})")
        g.use("star_call")


def _piecewise(g, env, state, x, a):
    v, s = state["v"], state["s"]
    t = g.name("param")
    form = g.pick((f"[np.sin, lambda {t}: {t}]", f"[lambda {t}: {t} * {t} * 0.5 + {t}, np.sin]",
                   f"[np.tanh, lambda {t}: np.sin({t})]"))
    g.line(f"{state['v']} = np.piecewise({v}, [{v} < 0, {v} >= 0], {form}) * {s}")
    g.use("piecewise")


_OUTER = ("np.subtract.outer({p}, {q})", "np.add.outer({p}, {q})",
          "np.multiply.outer({p}, {q})", "np.hypot.outer({p}, {q})",
          "np.maximum.outer({p}, {q} + 0.01)", "np.arctan2.outer({p}, 1.5 + {q} * {q})",
          "np.logaddexp.outer({p}, {q})", "np.power.outer(1.0 + {p} * {p}, {q})")


def _outer(g, env, state, x, a):
    v, s = state["v"], state["s"]
    m = g.name("table")
    g.line(f"{m} = " + g.pick(_OUTER).format(p=v, q=g.pick((a, f"{a} * {s}", "np.sin({v})".format(v=v)))))
    g.line(f"{state['v']} = np.tanh({m}).{g.pick(('sum(axis=0)', 'mean(axis=1)'))} + 0.5 * {v}")
    g.use("ufunc_outer")


def _float_scalar(g, env, state, x, a):
    s, v = state["s"], state["v"]
    g.line(f"{state['s']} = " + g.pick((f"np.float64({s}) * 2.0 + np.float64({x})",
                                        f"np.tanh(np.float64({v}[0]) + {s})",
                                        f"float(np.float64({s} * {x}))",
                                        f"np.float64(np.sum({v})) * 0.1 + {s}")))
    g.use("float64_scalar")


def _list_times_array(g, env, state, x, a):
    """A list (or tuple) times a NumPy array: NumPy multiplies entry by entry (not the
    list's repetition); in f, or in a helper whose `p * q` is also given a number."""
    s, v = state["s"], state["v"]
    scalars = ", ".join(g.pick((s, x, f"{s} * {x}", "0.5")) for _ in range(g.n))
    form = g.rng.randrange(4)
    if form == 0:
        pair = g.pick((f"[{v}, np.sin({a})]", f"({v}, {a} * {s})"))
        g.line(f"{state['v']} = np.sum({pair} * {a}, axis=0) * 0.5")
    elif form == 1:
        g.line(f"{state['v']} = {g.pick((f'{v} * [{scalars}]', f'[{scalars}] * {v}'))}")
    elif form == 2:
        g.line(f"{state['v']} = np.mean([[{s}], [{x}]] * {v}, axis=0) + 0.5 * {v}")
    else:
        h, p, q = g.name("helper"), g.name("param"), g.name("param")
        g.define([f"def {h}({p}, {q}):", f"    return {p} * {q}"])
        g.line(f"{state['v']} = {g.pick((f'{h}([{scalars}], {v})', f'{h}({v}, ({scalars}))'))}"
               f" + np.sum({h}([{s}], 2))")
    g.use("list_times_array")


def _library29(g, env, state, x, a):
    """The NumPy families of session 29 in one chain: a quantile (linear interpolation
    between v and sin(v)), insert/delete (values moved), cond of a well-conditioned
    matrix, polyder (linear)."""
    v, s = state["v"], state["s"]
    q, e = g.name("middle"), g.name("moved")
    g.line(f"{q} = np.quantile(np.stack([{v}, np.sin({v})]), 0.3, axis=0)")
    g.line(f"{e} = np.delete(np.insert({q}, 1, {s}), 0)")
    g.line(f"{state['s']} = {s} + 0.1 * np.linalg.cond(1.5 * np.eye({g.n}) + 0.2 * "
           f"np.tanh(np.outer({e}, {e})))")
    g.line(f"{state['v']} = np.polyder(np.append({e}, {x}))")
    g.use("library29")


STEPS = (_double_buffer, _double_buffer, _list_times_array, _list_times_array,
         _enumerate_start, _starred, _piecewise, _outer,
         _float_scalar, _library29, *gen_operators.STEPS, *gen_operators.STEPS)
