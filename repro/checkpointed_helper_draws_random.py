"""Session 32 red team (red): a checkpointed loop whose body calls a helper that draws
random numbers from the global NumPy generator. The backward sweep recomputes steps
(and runs each reversed step again through its rule), so the helper draws other numbers
than the forward sweep did: the gradient differs from the unmarked loop's with the same
seed, silently. The body's own draws (np.random.normal, random.gauss, a module-level
rng.normal) are refused at the line and a generator passed in is refused when the loop
runs; a helper's draws are not seen. Run: .venv/bin/python repro/checkpointed_helper_draws_random.py"""
import numpy as np

from transform import checkpointed, grad


def _noisy(x):
    return x * (1.0 + 0.5 * np.random.normal(size=x.shape))


def marked(x, n, s):
    np.random.seed(0)
    for t in checkpointed(range(n), snapshots=s):
        x = np.tanh(_noisy(x))
    return np.sum(x)


def plain(x, n):
    np.random.seed(0)
    for t in range(n):
        x = np.tanh(_noisy(x))
    return np.sum(x)


if __name__ == "__main__":
    x = np.array([0.3, -0.5, 0.8])
    want = grad(plain)(x, 4)
    try:
        got = grad(marked)(x, 4, 2)
    except Exception as exc:                 # the fix: a clear refusal
        print("refused:", type(exc).__name__, exc)
    else:
        print("unmarked:", want)
        print("marked:  ", got)
        print("MISMATCH" if not np.allclose(got, want, rtol=1e-9) else "same")
