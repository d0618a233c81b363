"""Generator: differentiated values reaching functions with no (or a partial) derivative.

    no_derivative:  np.full(n, s), np.full_like(a, s), np.linspace(s1, s2, n) endpoints,
                    geomspace/logspace, x % y, rng.normal(mu, sigma) and other
                    location-scale draws with a fixed seed, np.r_/np.c_, z.fill(s)

Each form's value depends smoothly on the differentiated argument (away from the jumps of
%, which the smoothness filter skips), so a zero gradient is wrong: a correct compiler
applies the real derivative or refuses the program.
"""
from .program import ARRAY, SCALAR

_DRAWS = ("normal({s}, 0.5 + np.exp(np.tanh({t})), size={n})",
          "uniform({s}, {s} + 1.0 + np.exp(np.tanh({t})), size={n})",
          "laplace({s}, np.exp(np.tanh({t})), size={n})",
          "logistic({s}, np.exp(np.tanh({t})), size={n})",
          "gumbel({s}, np.exp(np.tanh({t})), size={n})",
          "exponential(np.exp(np.tanh({t})), size={n})")


def no_derivative(g, seed):
    x, a = g.param(SCALAR), g.param(ARRAY)
    env = {x: SCALAR, a: ARRAY}
    terms = []
    for _ in range(g.rng.randint(1, 2)):
        name = g.name("value")
        s, t = _differentiated(g, x, a, env), g.scalar(env, 1)
        form = g.pick(_FORMS)
        g.line(f"{name} = " + form(g, s, t, a))
        terms.append(f"np.sum(np.sin({name}))" if g.chance(0.5)
                     else f"np.sum({name} * {name})")
    return g.case("no_derivative", seed, " + ".join(terms + [x]))


def _differentiated(g, x, a, env):
    """A scalar expression that depends on an argument (mostly)."""
    return g.pick((x, f"{a}[{g.index()}]", f"np.tanh({x} + {g.scalar(env, 1)})",
                   g.scalar(env, 1)))


def _full(g, s, t, a):
    return g.pick((f"np.full({g.n}, {s})", f"np.full_like({a}, {s})",
                   f"np.full(({g.n},), {s}) * {a}"))


def _spaced(g, s, t, a):
    return g.pick((f"np.linspace({s}, {t}, {g.n})",
                   f"np.linspace({s}, 2.0, {g.n}, endpoint=False)",
                   f"np.geomspace(np.exp(np.tanh({s})), 3.0 + np.exp(np.tanh({t})), {g.n})",
                   f"np.logspace(0.3 * np.tanh({s}), 0.5 * np.tanh({t}), {g.n})"))


def _mod(g, s, t, a):
    return g.pick((f"({s}) % 1.7 + {a}", f"{a} % (2.5 + np.tanh({t}))",
                   f"np.mod({a} * {s}, 1.3)", f"np.full({g.n}, ({s}) % (1.5 + np.tanh({t})))"))


def _draw(g, s, t, a):
    """A location-scale draw from a generator seeded inside f (deterministic per call)."""
    draw = g.pick(_DRAWS).format(s=s, t=t, n=g.n)
    if g.chance(0.7):
        rng = g.name("rng")
        g.line(f"{rng} = np.random.default_rng({g.rng.randrange(100)})")
        return f"{rng}.{draw}"
    g.line(f"np.random.seed({g.rng.randrange(100)})")
    return f"np.random.{draw}"


def _concat(g, s, t, a):
    return g.pick((f"np.r_[{a}, {s} * {a}]", f"np.r_[{s}, {a}]",
                   f"np.sum(np.c_[{a}, {s} * {a}], axis=1)"))


def _fill(g, s, t, a):
    z = g.name("filled")
    g.line(f"{z} = {g.pick(('np.zeros', 'np.empty', 'np.ones'))}({g.n})")
    g.line(f"{z}.fill({s})")
    return f"{z} * {a}"


_FORMS = (_full, _spaced, _mod, _draw, _concat, _fill)
