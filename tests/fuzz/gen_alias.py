"""Generators: names sharing memory, then a write through one of them, then a read.

    alias_write:  b = a.copy(); s = b[:2]; b[0] = x; return np.sum(s * s) + ...
    inplace:      a.sort(); a.fill(x); np.add.at(y, [0, 0], x) on arguments and locals
    alias_swap:   S[0], S[1] = S[1], S[0]; for i, r in enumerate(S[:-1]): S[i + 1] = ...

Every write form mutates an ndarray in place (subscript and augmented assignment, sort,
fill, clip(out=), np.add.at, ufunc out=), so the primal's value depends on which names
alias; a correct compiler reproduces the primal's value and gradient or refuses.
"""
from .program import ARRAY, MATRIX, SCALAR


def alias_write(g, seed):
    x, a = g.param(SCALAR), g.param(ARRAY)
    env = {x: SCALAR, a: ARRAY}
    if g.chance(0.2):
        return _row_views(g, seed, x, a, env)
    base = g.name("base")
    g.line(f"{base} = {g.pick(_FRESH_COPIES).format(a=a, x=x)}")
    views = [_view(g, base, g.n) for _ in range(g.rng.randint(1, 2))]
    for _ in range(g.rng.randint(1, 2)):
        text, length, whole = g.pick([(base, g.n, True)] + views)
        _write(g, text, length, env, whole=whole)
    reads = [f"np.sum(np.sin({text}))" for text, _, _ in views]
    if g.chance(0.5):
        text, length, _ = g.pick(views)
        reads.append(f"{text}[{g.rng.randrange(-length, length)}]")
    return g.case("alias_write", seed, " + ".join(reads + [f"np.sum({base} * {a})", x]))


# a fresh local array from the arguments (so the primal never writes the caller's array)
_FRESH_COPIES = ("{a}.copy()", "np.array({a})", "{a} * 1.0", "np.tanh({a})",
                 "{a} + {x}", "np.zeros_like({a}) + {a}")


def _view(g, base, n):
    """A name or expression sharing memory with `base` (length n): (text, length, whole),
    whole=False for an element of a tuple (`pair[0] += s` would assign into the tuple)."""
    name = g.name("view")
    k = g.rng.randint(1, n)
    form = g.pick(["same", "prefix", "suffix", "stride", "asarray", "reshape", "ravel",
                   "transpose", "view", "list", "dict", "tuple", "astype"])
    rhs, text, length = {
        "same": (base, name, n), "prefix": (f"{base}[:{k}]", name, k),
        "suffix": (f"{base}[{n - k}:]", name, k),
        "stride": (f"{base}[::2]", name, (n + 1) // 2),
        "asarray": (f"np.asarray({base})", name, n),
        "reshape": (f"{base}.reshape(-1)", name, n), "ravel": (f"{base}.ravel()", name, n),
        "transpose": (f"{base}.T", name, n), "view": (f"{base}.view()", name, n),
        "astype": (f"{base}.astype(np.float64, copy=False)", name, n),     # round 31
        "list": (f"[{base}]", f"{name}[0]", n),
        "dict": (f"{{'w': {base}}}", f"{name}['w']", n),
        "tuple": (f"({base}, 1.0)", f"{name}[0]", n)}[form]
    g.line(f"{name} = {rhs}")
    if form == "astype":
        g.use("astype_copy_false_view")
    return text, length, form != "tuple"


def _write(g, target, length, env, depth=1, whole=True):
    """One in-place write into the array `target` (of `length` elements); whole=False:
    no augmented assignment to `target` itself (an element of a tuple)."""
    s = g.scalar(env, 1)
    j = g.rng.randrange(-length, length)
    forms = [
        f"{target}[{j}] = {s}", f"{target}[{j}] += {s}", f"{target}[{j}] *= np.tanh({s})",
        f"{target} += {s}", f"{target} *= np.cos({s})", f"{target} -= np.tanh({s})",
        f"{target}[{min(j, 0) % length}:] = {s}",
        f"{target}.sort()", f"{target}.fill({s})",
        f"np.clip({target}, -0.6, 0.6, out={target})",
        f"{target}.clip(-0.8, 0.8, out={target})",
        f"np.add.at({target}, [{j}, {j}], {s})",
        f"np.multiply({target}, {s}, out={target})", f"np.tanh({target}, out={target})"]
    if not whole:
        forms = [form for form in forms if not form.startswith(f"{target} ")]
    g.line(g.pick(forms), depth)


def _row_views(g, seed, x, a, env):
    """Rows of a 2-D array read into names, then written back (symplectic Euler)."""
    S, p, q = g.name("state"), g.name("row"), g.name("row")
    dt = g.pick(("0.1", "0.3", "0.5"))
    g.line(f"{S} = np.stack([{a}, {g.array(env, 1)}])")
    steps = g.rng.randint(1, 3)
    g.line(f"for {g.name('step')} in range({steps}):")
    g.line(f"{p} = {S}[0]", 2)
    g.line(f"{q} = {S}[1]", 2)
    g.line(f"{S}[1] = {q} - {dt} * {x} * {p}", 2)
    g.line(f"{S}[0] = {p} + {dt} * {q}", 2)
    return g.case("alias_write", seed, f"np.sum({S} * {S}) + np.sum({p})")


def inplace(g, seed):
    x = g.param(SCALAR)
    a = g.param(ARRAY)
    m = g.param(MATRIX) if g.chance(0.25) else None
    env = {x: SCALAR, a: ARRAY}
    targets = [(a, g.n)]                      # the argument itself
    if g.chance(0.6):
        local = g.name("local")
        g.line(f"{local} = {g.pick(_LOCAL_ARRAYS).format(a=a, x=x, n=g.n)}")
        targets.append((local, g.n))
        env[local] = ARRAY
    if m is not None:
        targets += [(f"{m}[0]", g.n), (f"{m}.T[{g.rng.randrange(g.n)}]", 2)]
    for _ in range(g.rng.randint(1, 3)):
        target, length = g.pick(targets)
        if m is not None and g.chance(0.2):
            g.line(g.pick([f"{m}.sort(axis=1)", f"{m}.sort(axis=0)", f"{m}.fill({x})",
                           f"{m} *= np.tanh({x})"]))
        else:
            _write(g, target, length, env)
    reads = [f"np.sum({t} * {t})" for t, _ in targets] + [x]
    return g.case("inplace", seed, " + ".join(reads))


_LOCAL_ARRAYS = ("{a}.copy()", "np.zeros({n}) + {x}", "{a} * {x}", "np.sin({a})",
                 "np.full({n}, 0.5) * {a}")


def swap_and_iterate(g, seed):
    """Tuple assignment into subscripts of one array (views on the right), and loops over
    an array or its slice writing into it; each also in a form that copies first:

        S[0], S[1] = S[1], S[0]                  S[[0, 1]] = S[[1, 0]]
        for i, r in enumerate(S[:-1]):           for i, r in enumerate(S[:-1].copy()):
            S[i + 1] = S[i + 1] + x * r              ...
    """
    x, a = g.param(SCALAR), g.param(ARRAY)
    S, v = g.name("state"), g.name("vector")
    g.line(f"{S} = np.stack([{a}, np.tanh({a}) * {x}, {a} * 0.5])")
    g.line(f"{v} = {a} * {x}")
    for _ in range(g.rng.randint(1, 2)):
        if g.chance(0.5):
            _swap(g, S, v, x)
        else:
            _iterate_writing(g, S, v, x)
    return g.case("alias_swap", seed, f"np.sum({S} * np.cos({S})) + np.sum({v} * {v}) + {x}")


def _swap(g, S, v, x):
    n, i, j = g.n, *g.rng.sample(range(g.n), 2)
    k = g.rng.randint(1, n - 1)
    copy = ".copy()" if g.chance(0.3) else ""
    g.line(g.pick([
        f"{S}[0], {S}[1] = {S}[1]{copy}, {S}[0]{copy}",
        f"{S}[0], {S}[1], {S}[2] = {S}[1]{copy}, {S}[2]{copy}, {S}[0]{copy}",
        f"{S}[:, {i}], {S}[:, {j}] = {S}[:, {j}]{copy}, {S}[:, {i}]{copy}",
        f"{v}[:{k}], {v}[{k}:] = {v}[{n - k}:]{copy}, {v}[:{n - k}]{copy}",
        f"{v}[{i}], {v}[{j}] = {v}[{j}], {v}[{i}] * {x}",
        f"{S}[[0, 1]] = {S}[[1, 0]]",
        f"{S}[0], {S}[2] = np.sin({S}[2]), {S}[0] * {x}"]))


def _iterate_writing(g, S, v, x):
    i, e = g.name("index"), g.name("element")
    copy = ".copy()" if g.chance(0.3) else ""
    header, body = g.pick([
        (f"for {i}, {e} in enumerate({S}[:-1]{copy}):", f"{S}[{i} + 1] = {S}[{i} + 1] + {x} * {e}"),
        (f"for {i}, {e} in enumerate({v}[:-1]{copy}):", f"{v}[{i} + 1] = np.tanh({e}) * {x}"),
        (f"for {i}, {e} in enumerate({S}{copy}):", f"{S}[0] = {S}[0] * 0.5 + {e}"),
        (f"for {i} in range({g.n - 1}):", f"{v}[{i} + 1] = {v}[{i}] * {x}")])
    g.line(header)
    g.line(body, 2)


def slot_alias(g, seed):
    """One array in two container slots (or a slot and a name, or taken back out), then
    an augmented assignment, which changes that array in place for every holder:

        y = np.tanh(a);  xs = [y, y]          d = {k: y for k in "pq"};  d["p"] *= x
        xs.insert(0, y); xs[0] += x           v = d.pop("p");  v *= x
    """
    x, a = g.param(SCALAR), g.param(ARRAY)
    y, box = g.name("shared"), g.name("box")
    g.line(f"{y} = {g.pick(_FRESH_COPIES).format(a=a, x=x)}")
    form, slot, other = g.pick(_HOLDERS)
    for text in form:
        g.line(text.format(box=box, y=y, a=a, x=x))
    op, amount = g.pick(("+=", "*=", "-=")), g.pick((x, f"np.tanh({x})", a))
    if g.chance(0.3):
        taken = g.name("taken")
        g.line(f"{taken} = {g.pick(_TAKE_OUT).format(box=box, slot=slot)}")
        g.line(f"{taken} {op} {amount}")
        slot = taken
    else:
        g.line(f"{box}[{slot}] {op} {amount}")
    g.use("slot_alias")
    reads = [f"np.sum(np.sin({box}[{other}]))", f"np.sum({y} * {y})",
             f"np.sum({slot if slot.isidentifier() else f'{box}[{slot}]'})"]
    return g.case("slot_alias", seed, " + ".join(g.rng.sample(reads, g.rng.randint(1, 3))
                                                 + [x]))


# ways to put `y` into two slots of `box`: (lines, a slot written, the other slot read)
_HOLDERS = (
    (("{box} = [{y}, {y}]",), "0", "-1"),
    (("{box} = [{y}] * 2",), "0", "-1"),
    (("{box} = [{y}]", "{box}.insert(0, {y})"), "0", "-1"),
    (("{box} = [{y}]", "{box}.append({y})"), "1", "0"),
    (("{box} = {{'p': {y}}}", "{box}.setdefault('q', {y})"), "'p'", "'q'"),
    (("{box} = {{'p': {a} * 1.0}}", "{box}.update(p={y}, q={y})"), "'p'", "'q'"),
    (("{box} = {{k: {y} for k in 'pq'}}",), "'p'", "'q'"),
    (("{box} = dict(p={y}, q={y})",), "'q'", "'p'"),
    (("{box} = [{y}, {a} * 2.0]",), "0", "-1"),           # held once: may be accepted
)
_TAKE_OUT = ("{box}[{slot}]", "{box}.pop({slot})")
