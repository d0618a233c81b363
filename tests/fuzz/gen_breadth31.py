"""Steps of the calls class (gen_calls.py) added in session 31 (attr31): each reads and
rebinds the carried array v (carried_program's frame).

    _metadata: v.shape[0], v.size, len(v), v.shape and v.ndim into np.arange/np.zeros,
        positions without a derivative. The case is judged by the general rule as well
        (the rule compiled without argument shapes, which grad runs after
        MAX_SPECIALISATIONS shapes; tests/fuzz/oracle.py): there v might be a user
        object whose `.shape` carries a derivative, and such a program was once refused.
"""


def _metadata(g, env, state, x, a):
    v, w = state["v"], g.name("weights")
    form = g.pick((f"np.arange({v}.shape[0])", f"np.arange({v}.size)",
                   f"np.arange(len({v}))", f"np.zeros({v}.shape) + {v}.ndim"))
    g.line(f"{w} = ({form}) / ({v}.shape[0] + 1.0)")
    g.line(f"{v} = {v} * (1.0 + 0.3 * {w})")
    g.use("shape_metadata", "general_rule")


STEPS = (_metadata,)
