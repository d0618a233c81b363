"""Generator: the supported subset's structure, step by step over a carried scalar and array.

    calls:  def f(x, a):
                s = np.tanh(x)              carried scalar
                v = a * x                   carried array (length n)
                <2-4 steps, each reading and rebinding s and v>
                return s + np.sum(v * v)

Steps: tuple swaps and nested unpacking; a helper's returned pair unpacked in a loop; dicts (literal, dict(), variable keys, nested,
.items()); dataclasses and objects with methods; closures; recursion; keyword and default
arguments; zero-trip, argument-bounded and negative-step loops; list repetition
([v] * 2, xs * 2); conditional expressions with and/or/not and chained comparisons;
`a or b` / `a and b` as values (`xs[:0] or [v, w]`);
math functions; for over zip / enumerate / rows / a tuple; while with any condition; and
gen_breadth.py's steps (README's Python-breadth rows: comprehensions with several clauses,
max/min, loop else, try/except, globals, generator functions, argument writes, dict and
list methods, functools.reduce).
Module-level helpers and classes are defined by the step that uses them (g.define).
"""
from . import gen_breadth, gen_breadth30, gen_breadth31, gen_breadth32, gen_breadth34, \
    gen_breadth35, gen_breadth36, gen_breadth37, gen_breadth39
from .program import ARRAY, SCALAR


def carried_program(g, seed, name, steps, trips):
    """A scalar and an array carried through `trips` (lo, hi) steps drawn from `steps`,
    summed into the loss: the frame the calls, closures and idioms classes share."""
    x, a = g.param(SCALAR), g.param(ARRAY)
    env = {x: SCALAR, a: ARRAY}
    state = {"s": g.name("carried"), "v": g.name("carried")}
    g.line(f"{state['s']} = np.tanh({x})")
    g.line(f"{state['v']} = {a} * {x}")
    env.update({state["s"]: SCALAR, state["v"]: ARRAY})
    for _ in range(g.rng.randint(*trips)):
        g.pick(steps)(g, env, state, x, a)
    return g.case(name, seed, f"{state['s']} + np.sum({state['v']} * {state['v']})")


def calls(g, seed):
    return carried_program(g, seed, "calls", STEPS, (2, 4))


def recent(g, seed):
    """A calls program of session 34's to 37's steps only (gen_breadth34.py: divmod,
    finally, lambdas side by side, positional-only parameters; gen_breadth35.py: keywords
    named like the runtime's parameters; gen_breadth36.py: local functions in tests,
    zips of zips, super() calls; gen_breadth37.py: array methods given an axis on a
    receiver of no static type, rows without a derivative joined before the carried
    value; gen_breadth39.py: lists appended to after a loop over them, integer casts,
    a list's entry read after an append), for the forward_mode class."""
    return carried_program(g, seed, "calls", gen_breadth34.STEPS + gen_breadth35.STEPS +
                           gen_breadth36.STEPS + gen_breadth37.STEPS + gen_breadth39.STEPS,
                           (1, 3))


def _set(g, state, key, value, depth=1):
    """state[key] = value, as a line rebinding the carried name."""
    g.line(f"{state[key]} = {value}", depth)


def _swap(g, env, state, x, a):
    s, v = state["s"], state["v"]
    u, w = g.name("left"), g.name("right")
    g.line(f"{u}, {w} = np.tanh({v}), {v} * {g.scalar(env, 1)}")
    form = g.pick(("swap", "nested", "index"))
    if form == "swap":
        g.line(f"{u}, {w} = {w}, {u}")
        g.use("tuple_swap")
    elif form == "nested":
        p = g.name("part")
        g.line(f"({u}, {p}), {w} = ({w}, {s}), {u} * 0.5")
        _set(g, state, "s", f"np.tanh({p} + {s})")
        g.use("nested_unpack")
    else:
        t = g.name("pair")
        g.line(f"{t} = ({w}, {u}, {s})")
        g.line(f"{u} = {t}[{g.pick(('0', '-3'))}] * {t}[2]")
        g.use("tuple_index")
    _set(g, state, "v", f"0.5 * {u} + 0.5 * np.sin({w})")


def _dict(g, env, state, x, a):
    s, v = state["s"], state["v"]
    d, key = g.name("params"), g.name("key")
    form = g.pick(("literal", "call", "nested"))
    if form == "call":
        g.line(f"{d} = dict(w={v}, b={s})")
        g.use("dict_call")
    elif form == "nested":
        g.line(f"{d} = {{'w': {v}, 'inner': {{'b': {s}}}}}")
        g.line(f"{d}['b'] = {d}['inner']['b'] * {g.scalar(env, 1)}")
        g.use("dict_nested")
    else:
        g.line(f"{d} = {{'w': {v}, 'b': {s}}}")
        g.use("dict_literal")
    g.line(f"{key} = {g.pick(('w', 'b'))!r}")
    g.line(f"{d}[{key}] = np.tanh({d}[{key}])")
    g.use("dict_variable_key")
    total = g.name("total")
    g.line(f"{total} = 0.0")
    name, value = g.name("name"), g.name("value")
    g.line(f"for {name}, {value} in {d}.items():")
    g.line(f"if {name} != 'inner':", 2)
    g.line(f"{total} = {total} + np.sum({value}) * 0.3", 3)
    g.use("dict_items")
    _set(g, state, "s", f"np.tanh({total} + {d}['b'])")
    _set(g, state, "v", f"{d}['w'] * {x}")


def _dataclass(g, env, state, x, a):
    cls, method = g.name("Layer").capitalize(), g.name("method")
    w, b, vin = g.name("field"), g.name("field"), g.name("param")
    slf = "self"
    decorated = g.chance(0.6)
    if decorated:
        if "import dataclasses" not in g.imports:
            g.imports.append("import dataclasses")
        g.define(["@dataclasses.dataclass", f"class {cls}:", f"    {w}: object",
                  f"    {b}: float", "", f"    def {method}({slf}, {vin}):",
                  f"        return np.tanh({slf}.{w} * {vin} + {slf}.{b})"])
        g.use("dataclass")
    else:
        g.define([f"class {cls}:", f"    def __init__({slf}, {w}, {b}):",
                  f"        {slf}.{w} = {w}", f"        {slf}.{b} = {b}", "",
                  f"    def {method}({slf}, {vin}):",
                  f"        return np.tanh({slf}.{w} * {vin} + {slf}.{b})"])
    g.use("object_method")
    layer = g.name("layer")
    if g.chance(0.2):       # built from differentiated values: refused (no rule for it)
        g.line(f"{layer} = {cls}({state['v']}, {state['s']})")
    else:                   # a module-level object, read by f
        g.module.append(f"{layer} = {cls}(np.linspace(-0.5, 0.8, {g.n}), 0.3)")
        g.use("global_object")
    _set(g, state, "v", f"{layer}.{method}({g.array(env, 1)})")
    _set(g, state, "s", f"np.tanh({layer}.{b} * {x} + np.sum({layer}.{w}) * {state['s']})")


def _closure(g, env, state, x, a):
    inner, p = g.name("inner"), g.name("param")
    c = g.scalar(env, 1)
    g.line(f"def {inner}({p}):")
    g.line(f"return np.sin({p} * {state['s']} + {c})", 2)
    g.use("closure")
    i = g.name("counter")
    g.line(f"for {i} in range({g.rng.randint(1, 3)}):")
    _set(g, state, "v", f"0.5 * {state['v']} + {inner}({state['v']})", 2)
    _set(g, state, "s", f"np.tanh({state['s']} + {inner}({x}))")


def _recursion(g, env, state, x, a):
    rec, p, k = g.name("recursive"), g.name("param"), g.name("steps")
    c = g.pick(("0.5", "1.5", "-0.7"))
    g.define([f"def {rec}({p}, {k}):", f"    if {k} <= 0:", f"        return {p}",
              f"    return {rec}(np.tanh({p} * {c}) + {p} * 0.1, {k} - 1)"])
    g.use("recursion")
    depth = g.pick(("0", "1", "2", f"len({a}) - 1"))
    which = g.pick(("s", "v"))
    _set(g, state, which, f"{rec}({state[which]}, {depth})")


def _keywords(g, env, state, x, a):
    h, p, scale, shift = g.name("helper"), g.name("param"), g.name("scale"), g.name("shift")
    kwonly = g.chance(0.4)
    star = "*, " if kwonly else ""
    g.define([f"def {h}({p}, {scale}=0.5, {star}{shift}=0.1):",
              f"    return np.tanh({p} * {scale} + {shift})"])
    g.use("default_args")
    s, v = state["s"], state["v"]
    calls = [f"{h}({v})", f"{h}({v}, {shift}={s})", f"{h}({p}={v}, {scale}={s})",
             f"{h}({v}, {shift}={s}, {scale}=1.5)"]
    if not kwonly:
        calls.append(f"{h}({v}, {s}, {x})")
    call = g.pick(calls)
    if "=" in call:
        g.use("keyword_args")
    _set(g, state, "v", call)


def _loops(g, env, state, x, a):
    s, v = state["s"], state["v"]
    i = g.name("counter")
    form = g.pick(("zero_trip", "bounded", "negative", "reversed", "while", "zip",
                   "enumerate", "rows", "tuple"))
    header, body = {
        "zero_trip": (g.pick((f"for {i} in range(0):", f"for {i} in range(len({a}), 1):",
                              f"for {i} in {a}[:0]:", f"for {i} in range(len({a}) - len({a})):")),
                      f"{s} = {s} * {x} + 1.0"),
        "bounded": (g.pick((f"for {i} in range(len({a})):", f"for {i} in range({a}.shape[0] - 1):")),
                    f"{s} = np.tanh({s} + {v}[{i}] * {x})"),
        "negative": (g.pick((f"for {i} in range(len({a}) - 1, -1, -1):",
                             f"for {i} in range(len({a}) - 1, 0, -2):")),
                     f"{s} = np.tanh({s} * 0.5 + {v}[{i}])"),
        "reversed": (g.pick((f"for {i} in {v}[::-1]:", f"for {i} in {a}[len({a}) - 1::-1]:",
                             f"for {i} in {a}[::-2]:")), f"{s} = np.tanh({s} + {i} * {x})"),
        "while": (f"while {s} < 0.9 and {i} < {g.rng.randint(0, 3)}:",
                  f"{s} = {s} + 0.2 * np.tanh({x})"),
        "zip": (f"for {i}, {g.name('other')} in zip({v}, {a}):", f"{s} = np.tanh({s} + {i})"),
        "enumerate": (f"for {i}, {g.name('item')} in enumerate({v}):",
                      f"{s} = np.tanh({s} + 0.5 * {i} * {v}[{i}])"),
        "rows": (f"for {i} in np.stack([{v}, {a}]):", f"{s} = np.tanh({s} + np.sum({i}))"),
        "tuple": (f"for {i} in ({x}, {s}, 0.5):", f"{s} = np.tanh({s} * {i} + 0.1)"),
    }[form]
    if form == "while":
        g.line(f"{i} = 0")
        g.line(header)
        g.line(body, 2)
        g.line(f"{i} += 1", 2)
        g.use("while_any_condition")
    else:
        g.line(header)
        g.line(body, 2)
    g.use({"zero_trip": "zero_trip_loop", "bounded": "argument_bounded_loop",
           "negative": "negative_step", "reversed": "negative_step", "zip": "for_zip",
           "enumerate": "for_enumerate", "rows": "for_rows", "tuple": "for_tuple"}
          .get(form, "while_any_condition"))


def _repetition(g, env, state, x, a):
    s, v = state["s"], state["v"]
    xs = g.name("items")
    form = g.pick(("arrays", "scalars", "list_times", "joined_times", "chosen_times"))
    if form == "arrays":
        g.line(f"{xs} = [{v}] * {g.rng.randint(1, 3)}")
        _set(g, state, "v", g.pick((f"np.sum({xs}, axis=0) * 0.5", f"np.stack({xs})[0]",
                                    f"np.concatenate({xs})[:len({a})]")))
    elif form == "scalars":
        g.line(f"{xs} = [{s}, {x}] * 2")
        g.line(f"{xs}[{g.rng.randrange(4)}] = np.tanh({s})")
        _set(g, state, "s", f"np.tanh(sum({xs}) / (1.0 + len({xs})))")
        g.use("list_len_sum")
    else:
        # the repeated list may be a name, a concatenation or a conditional expression
        g.line(f"{xs} = [{v}, np.sin({v})]")
        ys = g.name("items")
        repeated = {"list_times": xs, "joined_times": f"({xs} + [{v} * 0.5])",
                    "chosen_times": f"({xs} if {s} > 0 else [{v}, {v}])"}[form]
        g.line(f"{ys} = {repeated} * 2")
        _set(g, state, "v", f"np.sum(np.stack({ys}), axis=0) * 0.25")
    g.use("list_repetition", "list_into_numpy")


def _chosen_operand(g, env, state, x, a):
    """`a or b` / `a and b` as values: the result is an operand, with its derivative. Each
    test's truth does not change near the inputs (s is nonzero, x * 0.0 and [] are false),
    so finite differences never cross the operator's jump."""
    s, v = state["s"], state["v"]
    form = g.pick(("or_first", "or_second", "and_last", "or_chain", "list_or"))
    if form == "list_or":
        ys = g.name("items")
        g.line(f"{ys} = {g.pick(('[]', f'[{v}][:0]'))} or [{v}, np.sin({v})]")
        _set(g, state, "v", f"np.sum(np.stack({ys}), axis=0) * 0.5")
        g.use("list_into_numpy")
    else:
        _set(g, state, "s", {"or_first": f"np.tanh(({s} or {x}) * {x})",
                             "or_second": f"np.tanh(({x} * 0.0 or {s}) + {x})",
                             "and_last": f"({s} and np.tanh({x})) + {s} * 0.5",
                             "or_chain": f"np.tanh({x} * 0.0 or 0 or {s} * {x})"}[form])
    g.use("bool_value")


def _conditional(g, env, state, x, a):
    s, v = state["s"], state["v"]
    test = g.pick((f"-0.5 < {x} < 0.5", f"{s} > 0.1 and not {x} < -1.0",
                   f"{x} > 0.3 or {s} < -0.2", f"not ({s} > 0.4)"))
    _set(g, state, "s", f"np.tanh({s} * {x}) if {test} else np.sin({s} + {x})")
    g.use("conditional_expression", "bool_ops_chained")
    if g.chance(0.5):
        _set(g, state, "s", f"math.tanh(float({s})) + math.sin({x}) * 0.5")
        g.use("math_function", "float_call")
    if g.chance(0.5):
        _set(g, state, "v", f"np.tanh({v}).reshape(-1) + {v}.sum() * 0.1 + {v}.dot({a}) * 0.1")
        g.use("ndarray_method")


def _pair_helper(g, env, state, x, a):
    """A module helper returning a pair, unpacked in a loop body where it is inlined:
    the pair is not built (transform/lowering/normalize.py unpacked_display), and its
    second entry may be the parameter the caller's target passes (copied first); then,
    maybe, a fresh product scaled in place (`w *= 1.1`) and stored into."""
    h, p, q = g.name("helper"), g.name("param"), g.name("param")
    second = g.pick((q, f"{q} * 0.5", f"{q} + np.sum({p}) * 0.1"))
    g.define([f"def {h}({p}, {q}):", f"    return np.tanh({p} * {q}) * 0.9, {second}"])
    g.use("tuple_unpack")
    s, v = state["s"], state["v"]
    g.line(f"for _ in range({g.pick(('1', '2', '3'))}):")
    g.line(f"{v}, {s} = {h}({v}, {s})", 2)
    if g.chance(4):
        # a product scaled in place then stored into: the backward copy `dt = dw` went
        # into the thunk's lambda body (optimize/copies.py, fixed in session 31)
        w = g.name("scaled")
        g.line(f"{w} = {v} * {g.pick(('2.0', '0.5'))}", 2)
        g.line(f"{w} *= 1.1", 2)
        g.line(f"{w}[0] = {g.pick(('0.5', f'{s} * 0.5'))}", 2)
        g.line(f"{v} = {w}", 2)


STEPS = (_swap, _pair_helper, _dict, _dataclass, _closure, _recursion, _keywords, _loops, _loops, _loops,
         _repetition, _conditional, _chosen_operand, *gen_breadth.STEPS,
         *gen_breadth30.STEPS, *gen_breadth31.STEPS, *gen_breadth32.STEPS,
         *gen_breadth34.STEPS, *gen_breadth35.STEPS, *gen_breadth36.STEPS,
         *gen_breadth37.STEPS, *gen_breadth39.STEPS)
