"""Generator: SciPy calls (tests/fuzz/library_scipy.py) on arrays of rank 0-2, float64 or
float32, each program with one to three of them, every result reaching the loss.

    scipy_calls:  def f(a0, x):                  a0: (3,), x: a float
                      s0 = scipy.special.log_ndtr(np.tanh(a0) * x)
                      s1 = scipy.linalg.solve_triangular(np.triu(1.5 * np.eye(3) + ...), s0)
                      return np.sum(np.sin(s0)) + np.sum(s1 * s1)

No SciPy: the class draws plain tensor expressions (its programs stay valid).
"""
from .library_scipy import scipy_call
from .program import SCALAR, tensor
from .tensor_exprs import DIMS, TensorExprs


def scipy_calls(g, seed):
    dtype = "32" if g.chance(0.2) else "64"
    if dtype == "32":
        g.use("float32")
    env = {}
    exprs = TensorExprs(g, env, dims=tuple(sorted(g.rng.sample(DIMS, 2))))
    for _ in range(g.rng.randint(1, 2)):
        shape = exprs.shape()[:2]
        env[g.param(tensor(shape, dtype))] = shape
    if g.chance(0.4):
        env[g.param(SCALAR)] = ()
    made = []
    for _ in range(g.rng.randint(1, 3)):
        shape = exprs.shape()[:2]
        text = _one_call(g, exprs, shape)
        name = g.name("value")
        g.line(f"{name} = {text}")
        env[name] = shape
        made.append(name)
    terms = [f"np.sum(np.sin({n}))" if g.chance(0.5) else f"np.sum({n} * {n})" for n in made]
    return g.case("scipy_calls", seed, " + ".join(terms))


def _one_call(g, exprs, shape):
    """A SciPy call of `shape` (a few tries at other makers), else a tensor expression."""
    for _ in range(8):
        text = scipy_call(exprs, shape, 1)
        if text is not None:
            return text
    return exprs.expr(shape, 1)
