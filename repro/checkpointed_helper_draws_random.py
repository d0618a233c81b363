"""Session 32 red team (red): a checkpointed loop whose body calls a helper that draws
random numbers from a generator object the helper's module holds (RNG.normal). The
backward sweep runs steps again, so the helper draws other numbers than the forward
sweep did: the gradient differs from the unmarked loop's with the same generator state,
silently. Caught (TypeError or TransformError): draws in the body itself (np.random,
random, a module's generator: at the line), a generator passed in (when the loop runs),
and draws from np.random's or random's global generators anywhere during the backward
sweep (the driver compares their states). Not caught: this one (the helper's own
Generator object). Run: .venv/bin/python repro/checkpointed_helper_draws_random.py"""
import numpy as np

from transform import checkpointed, grad

RNG = np.random.default_rng(0)


def _noisy(x):
    return x * (1.0 + 0.5 * RNG.normal(size=x.shape))


def marked(x, n, s):
    for t in checkpointed(range(n), snapshots=s):
        x = np.tanh(_noisy(x))
    return np.sum(x)


def plain(x, n):
    for t in range(n):
        x = np.tanh(_noisy(x))
    return np.sum(x)


if __name__ == "__main__":
    x = np.array([0.3, -0.5, 0.8])
    RNG = np.random.default_rng(0)
    want = grad(plain)(x, 4)
    RNG = np.random.default_rng(0)
    try:
        got = grad(marked)(x, 4, 2)
    except Exception as exc:                 # the fix: a clear refusal
        print("refused:", type(exc).__name__, exc)
    else:
        print("unmarked:", want)
        print("marked:  ", got)
        print("MISMATCH" if not np.allclose(got, want, rtol=1e-9) else "same")
