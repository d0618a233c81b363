"""Session 32 red team (red): jvp of an MLP written `for W, b in params["layers"]:`
with the parameters differentiated is refused in forward mode ("a loop unpacking several
names from this iterable"), and the caret points at the `def` line instead of the loop.
grad/jacrev take it, and so does jvp with respect to x only. Not a wrong result: a valid
program refused, at the wrong line. Run: .venv/bin/python repro/jvp_refused_tuple_loop_over_params.py"""
import numpy as np

from transform import grad, jvp


def mlp(params, x):
    h = x
    for W, b in params["layers"]:
        h = np.tanh(h @ W + b)
    return np.sum(h ** 2)


if __name__ == "__main__":
    r = np.random.default_rng(0)
    params = {"layers": [(r.normal(size=(3, 4)), r.normal(size=4)),
                         (r.normal(size=(4, 2)), r.normal(size=2))]}
    x = r.normal(size=(5, 3))
    print("grad fine:", type(grad(mlp, 0)(params, x)).__name__)
    print("jvp wrt x fine:", jvp(mlp, (params, x), (np.ones_like(x),), wrt=1)[1])
    tangent = {"layers": [(np.ones((3, 4)), np.ones(4)), (np.ones((4, 2)), np.ones(2))]}
    try:
        print(jvp(mlp, (params, x), (tangent,), wrt=0))
    except Exception as exc:
        print("REFUSED:", type(exc).__name__, exc)
