"""Steps of the calls class (gen_calls.py) added in session 32 (heat): each reads and
rebinds the carried array v (carried_program's frame).

    _owned_join: a loop whose body joins v's first element and the rest of v updated
        by a difference of v's neighbours (`np.concatenate([v[:1], v[1:] + c * d])`,
        the difference computed first), so the join's cotangent is cut into views of an
        adjoint the backward loop may own, and the rest goes back where it came from
        (transform/optimize/reused_buffers.py). Of any length n >= 1 (v[1:] may be empty).
"""


def _owned_join(g, env, state, x, a):
    s, v = state["s"], state["v"]
    diff, k = g.name("diff"), g.name("counter")
    g.line(f"for {k} in range({g.pick(('2', '3'))}):")
    g.line(f"{diff} = {v}[1:] - {v}[:-1]", 2)
    g.line(f"{v} = np.concatenate([{v}[:1], {v}[1:] + 0.1 * np.tanh({s}) * {diff}])", 2)
    g.use("owned_join")


STEPS = (_owned_join,)
