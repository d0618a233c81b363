"""Generators: values carried around loops, tuple-returning helpers, lists of arrays.

    loop_carried:  prev = cur; a temporary read twice; v = np.zeros(n) written in the
                   body; un = u.copy(); un[1:-1] = ...; u = un
    tuple_helpers: def cell(w, h, c): ... return h2, c2  /  h, c = cell(w, h + x, c)
                   (one in 12 unpacks one name too few or too many: ValueError expected)
    array_lists:   xs.append(...) or [... for i in range(k)], then np.sum / np.mean /
                   np.stack(xs); comprehensions over an array
    loop_targets:  t = ...; for t in range(k) / a list / an array / enumerate / zip /
                   tuples, k possibly 0; t read before and after the loop


    element_stores: dst[key] = ... over a dict or list whose entries differ in shape;
                   y[[i, j, i]] = / += / -= (a position written twice: the last write wins)
"""
import random

from .program import ARRAY, SCALAR


def _header(g, body_env, a):
    """Emit a loop header (for range / while / for over an array); returns the body's
    depth and a closer emitting what ends an iteration. body_env gains the counter."""
    k = g.rng.randint(1, 3)
    form = g.pick(("range", "range", "while", "array"))
    counter = g.name("counter")
    if form == "array":
        g.line(f"for {counter} in {a}:")
        body_env[counter] = SCALAR
        return lambda: None
    if form == "while":
        g.line(f"{counter} = 0")
        g.line(f"while {counter} < {k}:")
        body_env[f"(0.5 * {counter})"] = SCALAR
        return lambda: g.line(f"{counter} += 1", 2)
    g.line(f"for {counter} in range({k}):")
    body_env[f"(0.5 * {counter})"] = SCALAR
    return lambda: None


def loop_carried(g, seed):
    x, a = g.param(SCALAR), g.param(ARRAY)
    env = {x: SCALAR, a: ARRAY}
    carried = {}
    for _ in range(g.rng.randint(1, 2)):
        g.pick((_prev_cur, _temporary_twice, _allocated_in_body, _stencil,
                _slices_around_whole))(g, env, a, carried)
    terms = [name if kind == SCALAR else f"np.sum({name} * {name})"
             for name, kind in carried.items()]
    return g.case("loop_carried", seed, " + ".join(terms + [x]))


def _prev_cur(g, env, a, carried):
    kind = g.pick((SCALAR, ARRAY))
    prev, cur, acc = g.name("prev"), g.name("cur"), g.name("total")
    g.line(f"{prev} = {g.scalar(env, 1) if kind == SCALAR else g.array(env, 1)}")
    g.line(f"{acc} = 0.0")
    body = dict(env, **{prev: kind})
    close = _header(g, body, a)
    value = g.scalar(body, 2) if kind == SCALAR else g.array(body, 2)
    g.line(f"{cur} = np.tanh({value})", 2)
    g.line(f"{acc} = {acc} + np.sum({cur} * {prev})", 2)
    g.line(f"{prev} = {cur}", 2)
    close()
    carried.update({prev: kind, acc: SCALAR})


def _temporary_twice(g, env, a, carried):
    kind = g.pick((SCALAR, ARRAY))
    u, t, h = g.name("state"), g.name("total"), g.name("temp")
    g.line(f"{u} = {g.scalar(env, 1) if kind == SCALAR else g.array(env, 1)}")
    g.line(f"{t} = 0.0")
    body = dict(env, **{u: kind})
    close = _header(g, body, a)
    g.line(f"{h} = np.tanh({u} * {u})", 2)
    g.line(f"{t} = {t} + np.sum({h})", 2)
    g.line(f"{u} = np.tanh({u} + {h} * {g.scalar(body, 1)})", 2)
    close()
    carried.update({u: kind, t: SCALAR})


def _allocated_in_body(g, env, a, carried):
    acc, v = g.name("total"), g.name("fresh")
    g.line(f"{acc} = 0.0")
    body = dict(env)
    close = _header(g, body, a)
    g.line(f"{v} = {g.pick(('np.zeros({n})', 'np.ones({n})', 'np.empty({n})'))}"
           .format(n=g.n), 2)
    if "empty" in g.body[-1] or g.chance(0.3):
        g.line(f"{v}[:] = {g.array(body, 1)}", 2)
    g.line(f"{v}[{g.index()}] = {g.scalar(body, 2)}", 2)
    if g.chance(0.5):
        g.line(f"{v}[{g.index()}] += {g.scalar(body, 1)}", 2)
    g.line(f"{acc} = {acc} + np.sum({v} * {g.pick(list(_arrays(env)) or [a])})", 2)
    close()
    carried[acc] = SCALAR


def _stencil(g, env, a, carried):
    u, un = g.name("field"), g.name("next_field")
    c = g.pick(("0.1", "0.25", f"0.2 * np.tanh({g.scalar(env, 1)})"))
    g.line(f"{u} = {g.pick((f'{a}.copy()', f'np.tanh({a})', g.array(env, 1)))}")
    close = _header(g, dict(env), a)
    g.line(f"{un} = {u}.copy()", 2)
    if g.n >= 3:
        g.line(f"{un}[1:-1] = {u}[1:-1] + {c} * ({u}[2:] - 2 * {u}[1:-1] + {u}[:-2])", 2)
    else:
        g.line(f"{un}[1:] = {u}[1:] + {c} * ({u}[:-1] - {u}[1:])", 2)
    g.line(f"{u} = {un}", 2)
    close()
    carried[u] = ARRAY


_SLICES = ("1:", ":1", "-2:", ":-1", "::2", "1::2", "::-1", "5:100", "-100:2", "1:-1")
_WHOLE = ("np.sum({a} * {a}) * {x}", "np.mean({a}) ** 2", "{a} @ np.tanh({a})",
          "np.sum(np.cos({a}))", "np.sum({a}.copy() ** 2)")


def _slices_around_whole(g, env, a, carried):
    """Slice reads of one array (literal indices) before and after a use of the whole:
    the backward sweep meets the later read first (a still-zero buffer), then the whole
    use's `+=`, then the earlier read, which must add (round 31: it assigned)."""
    t = g.name("total")
    x = g.pick([n for n, k in env.items() if k == SCALAR])
    looped = g.chance(0.4)
    close = _header(g, dict(env), a) if looped else (lambda: None)
    depth = 2 if looped else 1
    first, last = g.pick(_SLICES), g.pick(_SLICES)
    whole = g.pick(_WHOLE).format(a=a, x=x)
    g.line(f"{t} = np.sum({a}[{first}] ** 2) + {whole} + np.sum(np.sin({a}[{last}]))", depth)
    close()
    carried[t] = SCALAR
    g.use("slice_reads_around_whole_use")


def _arrays(env):
    return (n for n, k in env.items() if k == ARRAY)


def tuple_helpers(g, seed):
    """A helper returning a tuple of new states, called in a loop that unpacks it."""
    x, a = g.param(SCALAR), g.param(ARRAY)
    env = {x: SCALAR, a: ARRAY}
    kinds = [g.pick((SCALAR, ARRAY)) for _ in range(g.rng.randint(2, 3))]
    cell = _cell(g, kinds)
    states = [g.name("state") for _ in kinds]
    for name, kind in zip(states, kinds):
        g.line(f"{name} = {'0.0' if kind == SCALAR else f'np.zeros({g.n})'}")
    body = dict(env)
    looped = g.chance(0.85)
    if looped:
        g.use("tuple_helper_in_loop")
    close = _header(g, body, a) if looped else (lambda: None)
    depth = 2 if looped else 1
    args = [g.pick((x, f"np.tanh({g.scalar(body, 1)})"))] + [
        _nudged(g, s, kind, body) for s, kind in zip(states, kinds)]
    call = f"{cell}({', '.join(args)})"
    if g.chance(0.7):
        g.line(f"{', '.join(_miscounted(g, states, seed))} = {call}", depth)
    else:
        result = g.name("result")
        g.line(f"{result} = {call}", depth)
        for k, name in enumerate(states):
            g.line(f"{name} = {result}[{k}]", depth)
    close()
    terms = [s if k == SCALAR else f"np.sum({s} * {s})" for s, k in zip(states, kinds)]
    return g.case("tuple_helpers", seed, " + ".join(terms))


def _miscounted(g, states, seed):
    """The unpacking's targets: one in 12 programs one too few or one too many (drawn
    from its own random, so the other programs stay as they were). Python raises
    ValueError there, on the first call; the oracle then expects the compiled code to
    raise it too (Case.raises: once its targets were bound to t[0], t[1] and the rest
    ignored, session 32)."""
    draw = random.Random(f"miscounted-{seed}")
    if draw.random() >= 1 / 12:
        return states
    g.raises = "ValueError"
    g.use("unpack_count_error")
    if draw.random() < 0.5:         # one too few (`h, = cell(...)` when one is left)
        return states[:-2] + [states[-2] + ("," if len(states) == 2 else "")]
    return states + [g.name("state")]


def _nudged(g, state, kind, env):
    """The state, or the state plus an input (`h + x`), as the loop passes it on."""
    if g.chance(0.4):
        return state
    return f"{state} + {g.scalar(env, 1) if kind == SCALAR else g.array(env, 1)}"


def _cell(g, kinds):
    """def cell(w, s1, s2, ...): return new states, each bounded: tanh, a mix, the state
    passed through unchanged, or an earlier output of the same kind (one object twice)."""
    name, w = g.name("helper"), g.name("weight")
    params = [g.name("param") for _ in kinds]
    env = {w: SCALAR, **dict(zip(params, kinds))}
    lines = [f"def {name}({w}, {', '.join(params)}):"]
    if g.chance(0.2):                   # a loop inside the helper too
        lines += [f"    for {g.name('counter')} in range({g.rng.randint(1, 2)}):",
                  f"        {w} = np.tanh({w} * {g.scalar(env, 1)})"]
    outs = []
    for p, kind in zip(params, kinds):
        same = [o for o, k in zip(outs, kinds) if k == kind]
        form = g.pick(("tanh", "tanh", "mix", "mix", "passthrough", "repeat"))
        if form == "passthrough" or form == "repeat" and not same:
            outs.append(p)
            continue
        if form == "repeat":
            outs.append(g.pick(same))
            continue
        value = g.scalar(env, 2) if kind == SCALAR else g.array(env, 2)
        out = g.name("new")
        lines.append(f"    {out} = " + (f"np.tanh({w} * {value})" if form == "tanh"
                                         else f"0.5 * {p} + 0.5 * np.sin({value})"))
        outs.append(out)
    lines.append(f"    return {', '.join(outs)}")
    g.define(lines)
    return name


def array_lists(g, seed):
    """A list of arrays (or scalars) built by append or a comprehension, then reduced."""
    x, a = g.param(SCALAR), g.param(ARRAY)
    env = {x: SCALAR, a: ARRAY}
    xs, k = g.name("items"), g.rng.randint(1, 3)
    elem_kind = g.pick((ARRAY, ARRAY, SCALAR))
    counter = g.name("counter")
    body = dict(env, **{f"(0.5 * {counter})": SCALAR})
    element = g.array(body, 2) if elem_kind == ARRAY else g.scalar(body, 2)
    form = g.pick(("append", "comprehension", "over_array", "literal"))
    if form == "append":
        g.line(f"{xs} = []")
        g.line(f"for {counter} in range({k}):")
        g.line(f"{xs}.append({element})", 2)
    elif form == "comprehension":
        g.line(f"{xs} = [{element} for {counter} in range({k})]")
    elif form == "over_array":
        elem_kind = SCALAR
        g.line(f"{xs} = [{g.scalar(dict(env, **{counter: SCALAR}), 2)} for {counter} in {a}]")
    else:
        g.line(f"{xs} = [{a}, {g.array(env, 1)}]")
        elem_kind = ARRAY
    rebound = _rebound_to_array(g, xs, a, seed) if elem_kind == ARRAY else None
    return g.case("array_lists", seed, rebound or _consume(g, xs, elem_kind, a))


def _rebound_to_array(g, xs, a, seed):
    """One list of arrays in four (its own random: other programs stay as they were): an
    entry's `.shape` read, then the list's own name rebound to its array and indexed
    (`xs = np.array(xs)`; flat and nested once captured list(xs) of the array, and loop
    added to a None cotangent of `q.shape`, session 32). Else None."""
    draw = random.Random(f"rebound-{seed}")
    if draw.random() >= 0.25:
        return None
    first = g.name("first")
    g.line(f"{first} = {xs}[0]")
    g.line(f"{xs} = np.array({xs}) * np.tanh(np.sum({first})) / {first}.shape[0]")
    g.use("list_rebound_to_array", "shape_of_list_entry")
    return f"np.sum({xs}[:, 0] ** 2) + np.sum({xs}[-1] * {a})"


def _consume(g, xs, elem_kind, a):
    forms = ["np.sum({xs})", "np.mean({xs})", "sum({xs})", "np.sum(np.array({xs}))"]
    if elem_kind == ARRAY:
        forms += ["np.sum(np.stack({xs}) * np.stack({xs}))", "np.sum(np.mean({xs}, axis=0) * {a})",
                  "np.sum(np.sum({xs}, axis=0) ** 2)", "np.sum(np.stack({xs})[-1] * {a})"]
    else:
        forms += ["np.sum(np.array({xs}) * np.array({xs}))", "np.mean(np.stack({xs}))"]
    result = g.pick(forms).format(xs=xs, a=a)
    return result if "np.sum" in result and "**" in result else f"np.sum({result})"


def loop_targets(g, seed):
    """A loop variable reusing a name bound (and active) before the loop; zero-trip
    loops leave it holding that value. Found issue 12's silent wrong gradient
    `i = x * 2.0; y = x * i; for i in range(3): y = y * x + i; return y * i`."""
    x, a = g.param(SCALAR), g.param(ARRAY)
    env = {x: SCALAR, a: ARRAY}
    name = "_" if g.chance(0.2) else g.name("reused")
    kind = g.pick((SCALAR, ARRAY))
    g.line(f"{name} = {g.scalar(env, 1) if kind == SCALAR else g.array(env, 1)}")
    acc = g.name("total")
    g.line(f"{acc} = np.sum({name} * {g.scalar(env, 1)})")
    trips = g.pick((0, 0, 1, 2, 3))
    nested = g.chance(0.2)
    if nested:                          # an outer loop around the reusing one
        g.line(f"for {g.name('counter')} in range({g.pick((0, 1, 2))}):")
    depth = 2 + nested
    body = _reusing_header(g, name, env, a, trips, depth - 1)
    if g.chance(0.3):                   # the body rebinds the loop variable too
        g.line(f"{name} = np.tanh({name} * {x})", depth)
    g.line(f"{acc} = {acc} * 0.5 + np.sum({name} * {g.scalar(body, 1)})", depth)
    after = g.pick((f"np.sum({name} * {x})", f"np.sum(np.tanh({name}) * {acc})"))
    return g.case("loop_targets", seed, f"{acc} + {after}")


def _reusing_header(g, name, env, a, trips, depth):
    """`for` with `name` among its targets; returns the body's env (name as it is
    bound inside the loop)."""
    element = g.array(env, 1)
    counter = g.name("counter")
    items = f"[{element} for {counter} in range({trips})]"
    other = g.name("other")
    form = g.pick(("range", "list", "array", "enumerate", "zip", "tuple"))
    header, kinds = {
        "range": (f"{name} in range({trips})", {f"(0.5 * {name})": SCALAR}),
        "list": (f"{name} in {items}", {name: ARRAY}),
        "array": (f"{name} in {a}[:{trips}]", {name: SCALAR}),
        "enumerate": (g.pick((f"{name}, {other} in enumerate({items})",
                              f"{other}, {name} in enumerate({items})")), None),
        "zip": (f"{name}, {other} in zip({items}, range({trips}))", {name: ARRAY}),
        "tuple": (f"{name}, {other} in [({element}, {g.scalar(env, 1)}) "
                  f"for {counter} in range({trips})]", {name: ARRAY, other: SCALAR}),
    }[form]
    if kinds is None:                   # enumerate: the index or the element
        kinds = {f"(0.5 * {name})": SCALAR, other: ARRAY} \
            if header.startswith(f"{name},") else {name: ARRAY}
    g.line(f"for {header}:", depth)
    body = {k: v for k, v in env.items()}
    body.update(kinds)
    return body


def element_stores(g, seed):
    """Element stores a loop's backward sweep must undo entry by entry:

        src = {"k0": <array>, "k1": <scalar>}   (or a list)
        for key in src:  dst[key] = np.tanh(src[key] * s)     (each entry its own shape)
        y[[1, 0, 1]] += <3 values>                              (a position written twice)
    """
    x, a = g.param(SCALAR), g.param(ARRAY)
    env = {x: SCALAR, a: ARRAY}
    terms = [_container_loop(g, env)]
    if g.chance(0.6):
        terms.append(_repeated_positions(g, env, a))
    return g.case("element_stores", seed, " + ".join(terms))


def _container_loop(g, env):
    kinds = [g.pick((SCALAR, ARRAY)) for _ in range(g.rng.randint(2, 3))]
    values = [g.scalar(env, 1) if k == SCALAR else g.array(env, 1) for k in kinds]
    src, dst, key = g.name("source"), g.name("stored"), g.name("key")
    as_dict = g.chance(0.5)
    keys = [f"'k{i}'" if as_dict else str(i) for i in range(len(kinds))]
    if as_dict:
        g.line(f"{src} = {{{', '.join(f'{k}: {v}' for k, v in zip(keys, values))}}}")
        g.line(f"{dst} = {{}}")
    else:
        g.line(f"{src} = [{', '.join(values)}]")
        g.line(f"{dst} = [0.0] * {len(kinds)}")
    loop = g.pick(("keys", "items") if as_dict else ("range", "enumerate"))
    value = g.name("value")
    g.line({"keys": f"for {key} in {src}:", "items": f"for {key}, {value} in {src}.items():",
            "range": f"for {key} in range(len({src})):",
            "enumerate": f"for {key}, {value} in enumerate({src}):"}[loop])
    read = value if loop in ("items", "enumerate") else f"{src}[{key}]"
    g.line(f"{dst}[{key}] = np.tanh({read} * {g.scalar(env, 1)})", 2)
    read_back = [k for k in keys if g.chance(0.7)] or keys[:1]
    return " + ".join(f"np.sum({dst}[{k}] * {dst}[{k}])" for k in read_back)


def _repeated_positions(g, env, a):
    n, y = g.n, g.name("written")
    index = [g.rng.randrange(n) for _ in range(3)]
    index[2] = index[0]                              # one position written twice at least
    g.line(f"{y} = {g.pick((f'np.zeros({n})', f'{a} * 1.0'))}")
    value = g.pick((f"np.tanh({a}[[0, 1, 0]] * {g.scalar(env, 1)})", g.scalar(env, 1)))
    g.line(f"{y}[{index}] {g.pick(('=', '+=', '-='))} {value}")
    return f"np.sum({y} * np.linspace(1.0, 2.0, {n}))"
