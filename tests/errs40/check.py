"""Run every program of programs.py through every public entry and classify what the
user sees (`python -m tests.errs40.check [NAME...]` prints the table)."""
import contextlib
import io
import sys
import traceback

import numpy as np

import transform as tg
from transform import cli
from transform.testing import check_grads
from tests.errs40 import programs as P

X = np.array([0.3, 0.7, 1.1])
V = np.array([0.5, -1.0, 2.0])


def fresh():
    return X.copy()


def call(f, x):
    return f(x.copy())


def fd_grad(f, x, eps=1e-6):
    g = np.zeros_like(x)
    for i in range(x.size):
        e = np.zeros_like(x); e[i] = eps
        g[i] = (call(f, x + e) - call(f, x - e)) / (2 * eps)
    return g


def fd_hess(f, x, eps=1e-4):
    return np.array([(fd_grad(f, x + e) - fd_grad(f, x - e)) / (2 * eps)
                     for e in np.eye(x.size) * eps])


ENTRIES = {
    "grad": lambda f: (tg.grad(f)(fresh()), "g"),
    "vag": lambda f: (tg.value_and_grad(f)(fresh())[1], "g"),
    "vjp": lambda f: (tg.vjp(f, fresh())[1](1.0), "g"),
    "jvp": lambda f: (tg.jvp(f, (fresh(),), (V.copy(),))[1], "gv"),
    "jacfwd": lambda f: (tg.jacfwd(f)(fresh()), "g"),
    "jacrev": lambda f: (tg.jacrev(f)(fresh()), "g"),
    "hessian": lambda f: (tg.hessian(f)(fresh()), "H"),
    "hvp": lambda f: (tg.hvp(f, (fresh(),), (V.copy(),)), "Hv"),
    "diffable": lambda f: (tg.grad(tg.differentiable(f))(fresh()), "g"),
    "plain": lambda f: (tg.grad(f, lowering="plain")(fresh()), "g"),
    "check": lambda f: (check_grads(f, fresh()), "none"),
}


def expected(f, kind):
    if kind == "g":
        return fd_grad(f, X)
    if kind == "gv":
        return fd_grad(f, X) @ V
    if kind == "H":
        return fd_hess(f, X)
    if kind == "Hv":
        return fd_hess(f, X) @ V


def _unwrap(v):
    while isinstance(v, (tuple, list)) and len(v) == 1:
        v = v[0]
    return v


def classify_exc(exc):
    tb = traceback.extract_tb(exc.__traceback__)
    mine = "errs40/programs.py" in str(exc)
    kind = type(exc).__name__
    if isinstance(exc, tg.TransformError):
        return f"REFUSED{'@' if mine else '-noloc'}", str(exc)
    if isinstance(exc, (TypeError, ValueError)):
        return f"TVE{'@' if mine else '-noloc'}", f"{kind}: {exc}  [last frame {tb[-1].filename}:{tb[-1].lineno}]"
    return "INTERNAL", f"{kind}: {exc} [last {tb[-1].filename}:{tb[-1].lineno}]"


def run(name, entry):
    f = getattr(P, name)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            got, kind = ENTRIES[entry](f)
    except Exception as exc:  # noqa
        return classify_exc(exc)
    if kind == "none":
        return "PASS", ""
    try:
        want = expected(f, kind)
    except Exception as exc:  # noqa
        return "VALUE-nofd", f"{type(exc).__name__}: {exc}"
    got = np.asarray(_unwrap(got), dtype=float)
    atol = 1e-4 if kind in ("H", "Hv") else 1e-6
    if got.shape != np.shape(want) or not np.allclose(got, want, rtol=1e-4, atol=atol):
        return "WRONG", f"got {got!r} want {want!r}"
    return "OK", ""


def run_cli(name, mode):
    out, err = io.StringIO(), io.StringIO()
    argv = ["dump", f"{P.__file__}:{name}"] + (["--mode", mode] if mode else [])
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = cli.main(argv)
        except SystemExit as e:
            rc = e.code
        except Exception as exc:  # noqa
            return "CLI-TRACEBACK", repr(exc)
    text = err.getvalue()
    if rc == 0:
        return "CLI-OK", ""
    if "internal error" in text:
        return "CLI-INTERNAL", text.strip().splitlines()[0]
    return ("CLI-REFUSED@" if "programs.py:" in text else "CLI-REFUSED-noloc"), text.strip().splitlines()[0]


def main(names):
    for name in names:
        for entry in ENTRIES:
            status, detail = run(name, entry)
            print(f"{name:22} {entry:8} {status:14} {detail.splitlines()[0][:160] if detail else ''}")
        for mode in (None, "forward", "hvp"):
            status, detail = run_cli(name, mode)
            print(f"{name:22} cli-{mode or 'rev':4} {status:14} {detail[:160]}")
        sys.stdout.flush()


if __name__ == "__main__":
    names = sys.argv[1:] or [n for n, v in vars(P).items()
                             if callable(v) and getattr(v, "__module__", "") == P.__name__
                             and not isinstance(v, type)]
    main(names)
