"""Hessians and Jacobians of scalar losses of one parameter vector (the complaint:
`hessian` of a 100-parameter function is slow), side by side in one run.

For each function of benchmarks/hessian_workloads.py (logistic regression with 100 and
300 parameters, an MLP's loss wrt its 200 packed parameters, a pair energy of 50
particles' 150 positions), timed round-robin in one process (harness_utils):

    hessian          transform.hessian(f)(x)            (its default route, "auto")
    jacfwd(grad)     transform.jacfwd(transform.grad(f))(x), the same matrix
    jacrev(grad)     transform.jacrev(transform.grad(f))(x), the same matrix
    n x grad         n calls of transform.grad(f) (n = x.size): the naive baseline, what
                     one gradient per column costs before any second derivative
    hand             a hand-written NumPy Hessian (logistic regression, the energy)
    autograd         autograd.hessian, when autograd imports
    jax, jax.jit     jax.hessian eager, and jax.jit(jax.hessian) (compiled first, untimed),
                     when jax imports

Every Hessian is checked against the hand Hessian (or, without one, against central
differences of grad) before anything is timed. The whole measurement runs `--runs`
times; the table quotes each implementation's median over the runs' medians, and its
ratio to `hessian` and to `n x grad`.

Run:  .venv/bin/python benchmarks/hessian.py [--quick] [--runs 3] [--only logreg100]
      [--profile NAME] (cProfile of one implementation on the first case, no table)
"""
import argparse
import cProfile
import importlib
import pstats
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from harness_utils import pin_threads                # noqa: E402

THREADS = pin_threads()                              # before NumPy and the peers load

import numpy as np                                   # noqa: E402

from transform import grad, hessian, jacfwd, jacrev  # noqa: E402

import hessian_workloads as hw                       # noqa: E402
import harness_utils                                 # noqa: E402
from harness_utils import fmt_time, freeze_heap, interleaved_medians, markdown_table  # noqa: E402


class Case:
    def __init__(self, key, title, fn, data, tiny, hand=None, peer=None):
        self.key, self.title, self.fn, self.data, self.tiny = key, title, fn, data, tiny
        self.hand, self.peer = hand, peer


CASES = [
    Case("logreg100", "logistic regression, 100 parameters, 500 samples", hw.logreg_loss,
         lambda: hw.logreg_data(100), lambda: hw.logreg_data(6, 20),
         hw.logreg_hand_hessian, "logreg"),
    Case("logreg300", "logistic regression, 300 parameters, 500 samples", hw.logreg_loss,
         lambda: hw.logreg_data(300), lambda: hw.logreg_data(7, 20),
         hw.logreg_hand_hessian, "logreg"),
    Case("mlp200", "MLP 8-16-3 loss wrt its 200 packed parameters, batch 64", hw.mlp_loss,
         hw.mlp_data, lambda: hw.mlp_data(batch=5), None, "mlp"),
    Case("energy50", "pair energy of 50 particles (150 positions)", hw.energy,
         hw.energy_data, lambda: hw.energy_data(4), hw.energy_hand_hessian, "energy"),
]


# ---- peers (optional) ----------------------------------------------------------------
def _peer_losses(xp):
    """The workloads' losses written on a NumPy-like module (autograd.numpy, jax.numpy)."""
    def logreg(w, X, y, lam):
        return xp.mean(xp.logaddexp(0.0, -y * (X @ w))) + 0.5 * lam * xp.sum(w * w)

    def mlp(theta, X, Y):
        a = hw.MLP_IN * hw.MLP_HIDDEN
        b = a + hw.MLP_HIDDEN
        c = b + hw.MLP_HIDDEN * hw.MLP_OUT
        h = xp.tanh(X @ theta[:a].reshape(hw.MLP_IN, hw.MLP_HIDDEN) + theta[a:b])
        r = h @ theta[b:c].reshape(hw.MLP_HIDDEN, hw.MLP_OUT) + theta[c:c + hw.MLP_OUT] - Y
        return xp.mean(r * r) + 1e-3 * xp.sum(theta * theta)

    def energy(x, mask):
        d = x[:, None, :] - x[None, :, :]
        return 0.5 * xp.sum(mask * xp.exp(-xp.sum(d * d, axis=-1)))
    return {"logreg": logreg, "mlp": mlp, "energy": energy}


def _load(name):
    try:
        return importlib.import_module(name)
    except Exception:                   # noqa: BLE001 - any import failure skips the peer
        return None


def peers(case, args):
    """name -> a no-argument callable giving the Hessian as a NumPy array."""
    out = {}
    autograd = _load("autograd")
    if autograd is not None:
        f = _peer_losses(importlib.import_module("autograd.numpy"))[case.peer]
        h = autograd.hessian(f, 0)
        out["autograd"] = lambda: h(*args)
    jax = _load("jax")
    if jax is not None:
        jax.config.update("jax_enable_x64", True)
        f = _peer_losses(importlib.import_module("jax.numpy"))[case.peer]
        jargs = tuple(jax.numpy.asarray(a) for a in args)
        eager, jitted = jax.hessian(f, 0), jax.jit(jax.hessian(f, 0))
        jitted(*jargs).block_until_ready()          # the compile, untimed
        out["jax"] = lambda: np.asarray(eager(*jargs).block_until_ready())
        out["jax.jit"] = lambda: np.asarray(jitted(*jargs).block_until_ready())
    return out


# ---- implementations ------------------------------------------------------------------
def implementations(case, args):
    """name -> a no-argument callable; every Hessian checked before anything is timed."""
    n = np.size(args[0])
    g, h = grad(case.fn), hessian(case.fn)
    jf, jr = jacfwd(grad(case.fn)), jacrev(grad(case.fn))

    def n_grads():
        for _ in range(n):
            g(*args)
    fns = {"hessian": lambda: h(*args), "jacfwd(grad)": lambda: jf(*args),
           "jacrev(grad)": lambda: jr(*args), "n x grad": n_grads}
    if case.hand is not None:
        fns["hand"] = lambda: case.hand(*args)
    fns.update(peers(case, args))
    expected = case.hand(*args) if case.hand is not None else differenced_hessian(g, args)
    for name, fn in fns.items():
        if name != "n x grad":
            check(case, name, fn(), expected)
    return fns


def differenced_hessian(g, args, eps=1e-5):
    """Central differences of grad, column by column (float64)."""
    x = np.asarray(args[0], np.float64)
    cols = []
    for k in range(x.size):
        e = np.zeros(x.size)
        e[k] = eps
        up = g(*((x + e.reshape(x.shape)),) + tuple(args[1:]))
        down = g(*((x - e.reshape(x.shape)),) + tuple(args[1:]))
        cols.append(np.ravel((up - down) / (2 * eps)))
    return np.stack(cols, axis=-1).reshape(x.shape + x.shape)


def check(case, name, actual, expected, tol=1e-6):
    actual = np.asarray(actual, np.float64).reshape(np.shape(expected))
    err = float(np.max(np.abs(actual - expected)) / max(float(np.max(np.abs(expected))), 1e-30))
    if not err <= tol:
        raise AssertionError(f"{case.key}: {name} differs from the reference by {err:.1e}")


def measure(case, args, runs, rounds, budget_s):
    fns = implementations(case, args)
    medians = {name: [] for name in fns}
    for _ in range(runs):
        timed = interleaved_medians(fns, rounds=rounds, budget_s=budget_s, target_sample_s=0)
        for name in fns:
            medians[name].append(timed[name]["median"])
    return medians


def report(case, n, medians):
    mid = {name: statistics.median(ts) for name, ts in medians.items()}
    rows = [[name, fmt_time(mid[name]), f"{mid[name] / mid['hessian']:.2f}",
             f"{mid[name] / mid['n x grad']:.2f}", " ".join(fmt_time(t) for t in ts)]
            for name, ts in medians.items()]
    return "\n".join([f"### {case.key}: {case.title} (n = {n})", "",
                      markdown_table(["implementation", "median", "/ hessian",
                                      "/ n x grad", "per run"], rows), ""])


def profile(case, args, name):
    fn = implementations(case, args)[name]
    fn()
    prof = cProfile.Profile()
    prof.runcall(lambda: [fn() for _ in range(3)])
    pstats.Stats(prof).sort_stats("cumulative").print_stats(30)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds (a smoke run)")
    parser.add_argument("--tiny", action="store_true", help="tiny sizes (tests)")
    parser.add_argument("--runs", type=int, default=3, help="whole measurements")
    parser.add_argument("--only", default="", help="comma-separated case keys")
    parser.add_argument("--profile", default="", help="cProfile this implementation")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    parser.add_argument("--threads", type=int, default=1,
                        help="BLAS/OpenMP threads (default 1; 0 leaves the default)")
    args = parser.parse_args(argv)
    if args.clock == "cpu":
        harness_utils.CLOCK["now"] = time.thread_time
    cases = [c for c in CASES if not args.only or c.key in args.only.split(",")]
    if args.profile:
        return profile(cases[0], cases[0].data(), args.profile)
    start = time.perf_counter()
    freeze_heap()
    out = [f"## Hessians of 100-300 parameter losses, {args.runs} runs, "
           f"{THREADS or 'default'} BLAS thread(s), {args.clock} clock, "
           f"{time.strftime('%Y-%m-%d %H:%M')}", ""]
    for case in cases:
        data = case.tiny() if args.tiny else case.data()
        rounds = 2 if args.tiny else 3 if args.quick else 7
        budget = 0.5 if args.tiny else 4.0 if args.quick else 15.0
        out.append(report(case, np.size(data[0]),
                          measure(case, data, args.runs, rounds, budget)))
        print(out[-1], flush=True)
    out.append(f"whole run {time.perf_counter() - start:.0f} s")
    print(out[-1])
    return "\n".join(out)


if __name__ == "__main__":
    main()
