"""Issue 18: "internal compiler error" is unreachable from user code. Every corpus
program and a sample of each fuzz class goes through every public entry point; each
either gives the right gradient (central finite differences of the primal) or raises a
TransformError located in the user's file, or a TypeError saying what to do."""
from pathlib import Path

import numpy as np
import pytest

import transform
from transform import TransformError
from tests.corpus.case import all_cases
from tests.fd import numerical_grad, numerical_vjp
from tests.fuzz.classes import CLASSES, make_case
from tests.fuzz.runner import load

ENTRIES = ("grad", "value_and_grad", "vjp", "adjoint_source")
PACKAGE_DIRS = tuple(str(Path(m.__file__).resolve().parent)
                     for m in (transform, __import__("runtime")))
FUZZ_SEEDS = range(3)


def _differentiable_arg(args):
    """The first argument that is a float or a float array, or None."""
    for k, a in enumerate(args):
        if type(a) is float or isinstance(a, np.ndarray) and a.dtype.kind == "f":
            return k
    return None


def _refusal_ok(exc):
    """A refusal as the user should see it: never internal, located in user code."""
    text = str(exc)
    assert "internal compiler error" not in text, text
    if isinstance(exc, TransformError):
        assert exc.filename is not None and exc.line is not None, text
        assert not str(Path(exc.filename).resolve()).startswith(PACKAGE_DIRS), text


def _run(entry, fn, args, k):
    """The gradient (or None for adjoint_source); a TransformError or TypeError raised."""
    if entry == "grad":
        return transform.grad(fn, wrt=k)(*args)
    if entry == "value_and_grad":
        return transform.value_and_grad(fn, wrt=k)(*args)[1]
    if entry == "vjp":
        out, pullback = transform.vjp(fn, *args, wrt=k)
        seed = np.ones_like(out) if isinstance(out, np.ndarray) else 1.0
        return pullback(seed)[0], seed
    transform.adjoint_source(fn, wrt=k)
    return None


def _expected(entry, fn, args, k, got):
    if entry == "vjp":
        got, seed = got
        return got, numerical_vjp(fn, args, k, seed)
    return got, numerical_grad(fn, args, k)


def check_entry(entry, fn, args, rtol=1e-4, atol=1e-6):
    k = _differentiable_arg(args)
    if k is None:
        pytest.skip("no float argument")
    try:
        got = _run(entry, fn, [_copy(a) for a in args], k)
    except (TransformError, TypeError) as exc:
        _refusal_ok(exc)
        return str(exc)
    if got is None:
        return "compiled"
    got, expected = _expected(entry, fn, args, k, got)
    if got is None:                        # the argument does not reach the output
        got = np.zeros_like(np.asarray(expected))
    np.testing.assert_allclose(np.asarray(got, dtype=float), expected, rtol=rtol, atol=atol)
    return "passed"


def _copy(a):
    return a.copy() if isinstance(a, np.ndarray) else a


def _corpus():
    for c in all_cases():
        if not c.refused and not c.kwargs:
            yield pytest.param(c, id=c.name)


@pytest.mark.parametrize("entry", ENTRIES)
@pytest.mark.parametrize("case", list(_corpus()))
def test_corpus_program(case, entry):
    with np.errstate(all="ignore"):
        outcome = check_entry(entry, case.fn, case.inputs(), rtol=max(case.rtol, 1e-4),
                              atol=max(case.atol, 1e-6))
    # corpus programs compile: the one refusal allowed is grad of a non-scalar output
    assert outcome in ("passed", "compiled") or entry in ("grad", "value_and_grad") \
        and "needs a scalar output" in outcome, outcome


@pytest.mark.parametrize("entry", ENTRIES)
@pytest.mark.parametrize("cls", sorted(c for c in CLASSES if c != "grammar"))
def test_fuzz_programs(cls, entry):
    for seed in FUZZ_SEEDS:
        case = make_case(cls, seed)
        module = load(case.source)
        args = case.inputs()
        try:
            primal = module.f(*[_copy(a) for a in args])
        except Exception:                  # noqa: BLE001 - the generator's own problem
            continue
        if not np.all(np.isfinite(primal)) or np.max(np.abs(primal)) > 1e3:
            continue                       # finite differences cannot judge it
        with np.errstate(all="ignore"):
            check_entry(entry, module.f, args, rtol=1e-3, atol=1e-5)
