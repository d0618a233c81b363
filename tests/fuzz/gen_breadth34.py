"""Steps of the calls class (gen_calls.py) added in session 34, one per bug class found
without a generator in session 33: each reads and rebinds the carried scalar s and array v
(carried_program's frame). The forward_mode class judges them too (its calls programs).

    _divmod: `q, r = divmod(3.0 * s, b)` with only q read (its cotangent was None: a
        TypeError in reverse mode; tests/rules/test_divmod_quotient_only.py), of numbers
        or arrays, the divisor a constant or differentiated; only r read; `divmod(..)[0]`.
    _finally_return: `return` inside `try` whose `finally` rebinds a returned name (Python
        returns the value from before the block; the compiler returned the rebound one:
        tests/control/test_finally_return.py), in f, in a loop of f, or in a helper.
    _lambdas_side_by_side: module lambdas of one parameter name, two on ONE line (generated
        file names carried the first line only: hvp refused "changed on disk") or a line
        each, or a tuple of them; called on s and v.
    _positional_only: `def h(p, q, /)`, `lambda p, /, q: ...` helpers, and f's own
        parameters before a `/` (grad refused "no parameter named" until session 34).

Branch conditions read lengths, loop counters or tanh values against +-5: never within
reach of finite differences.
"""


def _set(g, state, key, value, depth=1):
    g.line(f"{state[key]} = {value}", depth)


def _divmod(g, env, state, x, a):
    s, v = state["s"], state["v"]
    q, r = g.name("quotient"), g.name("rest")
    form = g.rng.randrange(4)
    if form == 0:              # numbers, the quotient alone (times a differentiated value)
        b = g.pick(("0.7", f"{x} * {x} + 0.5"))
        g.line(f"{q}, {r} = divmod({g.pick(('3.0', '2.5'))} * {s}, {b})")
        _set(g, state, "s", f"np.tanh({s} + 0.2 * {q} * {x})")
    elif form == 1:            # arrays, the quotient alone
        b = g.pick(("0.9", f"np.abs({a}) + 0.5", f"{x} * {x} + 0.6"))
        g.line(f"{q}, {g.pick(('_', r))} = divmod(2.0 * {v}, {b})")
        _set(g, state, "v", f"{v} + 0.1 * {q} * {v}")
    elif form == 2:            # the remainder alone
        b = g.pick(("0.7", f"{x} * {x} + 0.5"))
        g.line(f"_, {r} = divmod({s} * 3.0 + 2.0, {b})")
        _set(g, state, "s", f"np.tanh({s} + 0.3 * {r})")
        g.use("divmod_remainder")
        return
    else:                      # indexed
        _set(g, state, "s", f"np.tanh({s} + 0.1 * divmod({s} * 4.0, 0.9)[0] * {x})")
    g.use("divmod_quotient")


def _finally_return(g, env, state, x, a):
    s, v = state["s"], state["v"]
    result = f"{s} + np.sum({v} * {v})"          # what f returns at its end, as it is now
    form = g.rng.randrange(3)
    if form == 0:
        g.line("try:")
        _set(g, state, "s", f"np.tanh({s} * {x} + 0.3)", 2)
        g.line(f"if {g.pick((f'len({a}) > {g.rng.randint(1, 4)}', f'{s} > -5.0', f'{s} > 5.0'))}:", 2)
        g.line(f"return {result}", 3)
        g.line("finally:")          # the carried scalar or array rebound, as its kind
        key, value = g.pick((("s", f"{s} * 0.5 + 0.1"), ("v", f"np.sin({v}) * 0.9")))
        _set(g, state, key, value, 2)
    elif form == 1:
        k = g.name("counter")
        g.line(f"for {k} in range({g.rng.randint(1, 4)}):")
        g.line("try:", 2)
        _set(g, state, "s", f"{s} * 0.8 + 0.2 * np.sin({x} + {k})", 3)
        g.line(f"if {k} == {g.rng.randint(0, 3)}:", 3)
        g.line(f"return {result}", 4)
        g.line("finally:", 2)
        key, value = g.pick((("s", f"{s} + 0.1"), ("v", f"{v} * 0.9 + 0.1")))
        _set(g, state, key, value, 3)
        g.use("finally_return_loop")
    else:
        _finally_helper(g, state, x)
    g.use("finally_return")


def _finally_helper(g, state, x):
    h, p, q, y = g.name("helper"), g.name("param"), g.name("param"), g.name("part")
    test = g.pick((f"np.ndim({p}) == 0", f"{q} > -5.0", f"{q} > 5.0"))
    g.define([f"def {h}({p}, {q}):", f"    {y} = {p}", "    try:",
              f"        {y} = {p} * {q}", f"        if {test}:", f"            return {y}",
              "    finally:", f"        {y} = {y} * {g.pick(('3.0', '0.5', q))}",
              f"    return {y}"])
    key = g.pick(("s", "v"))
    _set(g, state, key, f"np.tanh({h}({state[key]}, {x}))")
    g.use("finally_return_helper")


_BODIES = ("np.sin({t}) * {t}", "np.cos({t}) * {t} * 0.5", "np.tanh({t} * 1.5)",
           "{t} * {t} * 0.3 + {t}", "np.exp(-{t} * {t})")


def _lambdas_side_by_side(g, env, state, x, a):
    s, v = state["s"], state["v"]
    h, k, t = g.name("helper"), g.name("helper"), g.name("param")
    one, two = (g.pick(_BODIES).format(t=t) for _ in range(2))
    form = g.rng.randrange(3)
    if form == 0:
        g.define([f"{h}, {k} = (lambda {t}: {one}), (lambda {t}: {two})"])
        g.use("lambdas_one_line")
    elif form == 1:
        pair = g.name("items")
        g.define([f"{pair} = (lambda {t}: {one}, lambda {t}: {two})"])
        h, k = f"{pair}[0]", f"{pair}[1]"
        g.use("lambdas_one_line")
    else:
        g.define([f"{h} = lambda {t}: {one}", f"{k} = lambda {t}: {two}"])
    g.use("lambdas_side_by_side")
    if g.chance(0.5):
        _set(g, state, "v", f"{h}({v}) * 0.5 + {k}({v} * {x})")
    else:
        _set(g, state, "s", f"np.tanh({h}({s}) + {k}({x}) * {s})")


def _positional_only(g, env, state, x, a):
    s, v = state["s"], state["v"]
    h, p, q = g.name("helper"), g.name("param"), g.name("param")
    form = g.rng.randrange(3)
    if form == 0:
        g.define([f"def {h}({p}, {q}, /):", f"    return np.tanh({p}) * {q} + {p}"])
        _set(g, state, "v", f"{h}({v}, {s})")
    elif form == 1:
        g.define([f"def {h}({p}, /, {q}=0.5):", f"    return np.sin({p} * {q}) + {q}"])
        _set(g, state, "s", g.pick((f"{h}({s})", f"{h}({s}, {q}={x})", f"{h}({x}, {s})")))
    else:
        g.define([f"{h} = lambda {p}, /, {q}: {p} * np.cos({q})"])
        _set(g, state, "v", f"{h}({v}, {s}) + 0.5 * {v}")
    if "/" not in g.star:          # f's own parameters too: `def f(x, a, /, ...)`
        g.star = ", /" + g.star
        g.use("positional_only_f")
    g.use("positional_only")


STEPS = (_divmod, _finally_return, _lambdas_side_by_side, _positional_only)
