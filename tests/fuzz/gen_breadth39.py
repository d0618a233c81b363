"""Steps of the calls class added in session 39, one per wrong value found that session
(each reads and rebinds the carried scalar s and array v, as gen_breadth37.py):

    _stages_appended: a loop over a list that an outer loop appends to afterwards (a
        hand-written Runge-Kutta's stages, `for kk in ks: ...` then `ks.append(k)`): the
        backward sweep walked the list at its final length (grad [0, 0] against
        differences [1, 0.2]; runtime.tape.iterable copies a list now, tests/red40).
    _integer_cast: `(5 * v).astype(int)` multiplying the carried value: forward mode cast
        the tangent too (`t.astype(int)`, nonzero where |t| >= 1): jvp, jacfwd, hvp and
        hessian wrong (cast_jvp gives it a zero tangent now, tests/errs40).
    _entry_after_append: an entry read by index from a list display, the list appended
        to, the entry read later: red40 stopped counting such an entry a view of the list
        (transform/alias), so a value, not a refusal, is what this step checks.
"""


def _set(g, state, key, value, depth=1):
    g.line(f"{state[key]} = {value}", depth)


def _stages_appended(g, env, state, x, a):
    s, v = state["s"], state["v"]
    ks, acc, k, kk = g.name("stages"), g.name("total"), g.name("counter"), g.name("item")
    g.line(f"{ks} = [{v} * 0.5]")
    g.line(f"for {k} in range({g.rng.randint(1, 3)}):")
    g.line(f"{acc} = 0.0 * {v}", 2)
    g.line(f"for {kk} in {ks}:", 2)
    g.line(f"{acc} = {acc} + {g.pick(('0.3', '0.5'))} * {kk}", 3)
    g.line(f"{ks}.append(np.tanh({acc} + {s}))", 2)
    _set(g, state, "v", f"{ks}[-1] + 0.1 * len({ks}) * {ks}[0]")
    g.use("loop_over_list_appended_later")


def _integer_cast(g, env, state, x, a):
    s, v = state["s"], state["v"]
    m = g.name("counts")
    kind = g.pick(("int", "np.int64", "bool"))
    scale = "5.0" if kind != "bool" else "1.0"
    g.line(f"{m} = ({v} * {scale}).astype({kind})")
    _set(g, state, "v", f"{v} * {m} + {v} * 0.5")
    g.use("integer_cast")


def _entry_after_append(g, env, state, x, a):
    s, v = state["s"], state["v"]
    traj, last = g.name("items"), g.name("item")
    g.line(f"{traj} = [{v}, {v} * {s}]" if g.chance(0.5) else f"{traj} = [{v}]")
    g.line(f"{last} = {traj}[{g.pick(('-1', '0'))}]")
    g.line(f"{traj}.append(np.tanh({v}) * {s})")
    _set(g, state, "v", f"{last} * 0.5 + {traj}[-1] + {traj}[0] * 0.1")
    g.use("list_entry_after_append")


STEPS = (_stages_appended, _integer_cast, _entry_after_append)
