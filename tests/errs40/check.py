"""errs40's runner: each program of programs.py through every public entry (grad,
value_and_grad, vjp, jvp, jacfwd, jacrev, hessian, hvp, @differentiable, grad's plain
lowering, check_grads, `thunkgrad dump` in its three modes), what the user sees
classified:

    OK        a value matching central differences (float64, computed here from the
              plain function; second order: differences of differences)
    PASS      check_grads passed
    REFUSED   a TransformError located in the program (programs.py, a line of its own),
              with advice (`Instead:`)
    TYPE      a TypeError or ValueError naming programs.py (the user's file)
    ERROR     a TypeError or ValueError not naming it (API misuse: said in the API's terms)
    CHECKED   check_grads' AssertionError (its way of reporting a bad function)
    DEEP      RecursionError saying how many frames the derivative needs
    DUMPED / DUMP-REFUSED   the CLI printed code / refused at a line of the program
    WRONG, NOFD, INTERNAL, CLI-INTERNAL   what must not happen (a value differing from
              the differences; a value returned where the differences cannot be taken;
              any other exception; the CLI's "internal error")

`python -m tests.errs40.check [NAME...]` prints the table."""
import contextlib
import inspect
import io
import re
import sys
import warnings

import numpy as np

import transform as tg
from transform import cli
from transform.testing import check_grads
from tests.errs40 import programs as P

X = np.array([0.3, 0.7, 1.1])
V = np.array([0.5, -1.0, 2.0])
ENTRIES = ("grad", "vag", "vjp", "jvp", "jacfwd", "jacrev", "hessian", "hvp", "diffable",
           "plain", "check")
MODES = ("dump", "dump-forward", "dump-hvp")


def _call(f, x):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return f(x.copy())


def fd_grad(f, x, eps=1e-6):
    g = np.zeros_like(x)
    for i, e in enumerate(np.eye(x.size) * eps):
        g[i] = (_call(f, x + e) - _call(f, x - e)) / (2 * eps)
    return g


def fd_hess(f, x, eps=1e-4):
    return np.array([(fd_grad(f, x + e) - fd_grad(f, x - e)) / (2 * eps)
                     for e in np.eye(x.size) * eps])


_RUN = {
    "grad": lambda f: (tg.grad(f)(X.copy()), "g"),
    "vag": lambda f: (tg.value_and_grad(f)(X.copy())[1], "g"),
    "vjp": lambda f: (tg.vjp(f, X.copy())[1](1.0), "g"),
    "jvp": lambda f: (tg.jvp(f, (X.copy(),), (V.copy(),))[1], "gv"),
    "jacfwd": lambda f: (tg.jacfwd(f)(X.copy()), "g"),
    "jacrev": lambda f: (tg.jacrev(f)(X.copy()), "g"),
    "hessian": lambda f: (tg.hessian(f)(X.copy()), "H"),
    "hvp": lambda f: (tg.hvp(f, (X.copy(),), (V.copy(),)), "Hv"),
    "diffable": lambda f: (tg.grad(tg.differentiable(f))(X.copy()), "g"),
    "plain": lambda f: (tg.grad(f, lowering="plain")(X.copy()), "g"),
    "check": lambda f: (check_grads(f, X.copy()), None),
}


def _expected(f, kind):
    return {"g": lambda: fd_grad(f, X), "gv": lambda: fd_grad(f, X) @ V,
            "H": lambda: fd_hess(f, X), "Hv": lambda: fd_hess(f, X) @ V}[kind]()


def _lines(f):
    lines, first = inspect.getsourcelines(f)
    return range(first, first + len(lines))


def _in_program(exc, f):
    return getattr(exc, "filename", None) == P.__file__ and exc.line in _lines(f)


def _classified(exc, f):
    if isinstance(exc, tg.TransformError):
        if not exc.hint:
            return "REFUSED-NO-ADVICE", exc.one_line()
        return ("REFUSED" if _in_program(exc, f) else "REFUSED-ELSEWHERE"), exc.one_line()
    text = f"{type(exc).__name__}: {exc}"
    if isinstance(exc, (TypeError, ValueError)):
        return ("TYPE" if P.__file__ in str(exc) else "ERROR"), text
    if isinstance(exc, RecursionError) and str(exc).startswith("the gradient needs more"):
        return "DEEP", text
    if isinstance(exc, AssertionError) and str(exc).startswith("check_grads("):
        return "CHECKED", text
    return "INTERNAL", text


def run(name, entry):
    """(status, detail) of program `name` through `entry`."""
    f = getattr(P, name)
    try:
        with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got, kind = _RUN[entry](f)
    except Exception as exc:  # noqa: BLE001 - classified
        return _classified(exc, f)
    if kind is None:
        return "PASS", ""
    try:
        want = _expected(f, kind)
    except Exception as exc:  # noqa: BLE001 - a value where differences make no sense
        return "NOFD", f"{type(exc).__name__}: {exc}"
    while isinstance(got, tuple) and len(got) == 1:
        got = got[0]
    got = np.asarray(got, dtype=float)
    atol = 1e-4 if kind in ("H", "Hv") else 1e-6
    if got.shape != np.shape(want) or not np.allclose(got, want, rtol=1e-4, atol=atol):
        return "WRONG", f"got {got!r} want {want!r}"
    return "OK", ""


def run_cli(name, mode):
    f = getattr(P, name)
    argv = ["dump", f"{P.__file__}:{name}"] + (["--mode", mode[5:]] if mode != "dump" else [])
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = cli.main(argv)
        except BaseException as exc:  # noqa: BLE001 - the CLI must never raise
            return "CLI-INTERNAL", repr(exc)
    text = err.getvalue().strip()
    if status == 0:
        return "DUMPED", ""
    first = text.splitlines()[0] if text else ""
    if "internal error" in text:
        return "CLI-INTERNAL", first
    if "Instead:" not in text:
        return "DUMP-NO-ADVICE", first
    where = re.match(re.escape(P.__file__) + r":(\d+):", first)
    located = where is not None and int(where.group(1)) in _lines(f)
    return ("DUMP-REFUSED" if located else "DUMP-ERROR"), first


def program_names():
    return [n for n, v in vars(P).items() if inspect.isfunction(v)
            and v.__module__ == P.__name__ and not n.startswith("_")]


def main(names):
    for name in names:
        for entry in ENTRIES:
            status, detail = run(name, entry)
            print(f"{name:24} {entry:12} {status:17} {detail.splitlines()[0][:150] if detail else ''}")
        for mode in MODES:
            status, detail = run_cli(name, mode)
            print(f"{name:24} {mode:12} {status:17} {detail[:150]}")
        sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv[1:] or program_names())
