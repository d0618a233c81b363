"""The generated adjoint source is deterministic, readable, debuggable:
tracebacks point into it, and inspect.getsource works on compiled rules."""
import inspect
import math
import subprocess
import sys
import textwrap
import traceback
from pathlib import Path

import numpy as np
import pytest

from tests.gradcheck import POLICIES

import transform.api
from transform import Thunk, adjoint_source, grad, rrule, unthunk, vjp

ROOT = Path(__file__).resolve().parents[2]


def model(W, b, x):
    h = np.tanh(W @ x + b)
    return np.sum(h ** 2) + 0.1 * np.sum(W * W)


def looped(x, n):
    s = 0.0
    for i in range(n):
        if i % 2 == 0:
            s = s + x * i
        else:
            s = s * 0.5
    return s


@pytest.mark.parametrize("fn,wrt", [(model, ("W", "b")), (model, 0), (looped, 0)])
def test_adjoint_source_twice_is_identical(fn, wrt):
    a = adjoint_source(fn, wrt=wrt)
    b = adjoint_source(fn, wrt=wrt)
    assert a == b
    assert isinstance(a, str) and a


@pytest.mark.parametrize("policy", POLICIES)
def test_adjoint_source_identical_after_recompile(policy):
    first = transform.api.compile_function(looped, ("x",), policy).source
    second = transform.api.compile_function(looped, ("x",), policy).source
    assert first == second


def test_adjoint_source_mentions_function_and_rule_name():
    src = adjoint_source(model, wrt=("W", "b"))
    assert "def model_rrule(" in src
    assert "def pullback(" in src


SUBPROCESS_SCRIPT = textwrap.dedent("""
    import sys
    sys.path.insert(0, {root!r})
    from tests.emit.test_generated_source import model, looped
    from transform import adjoint_source
    sys.stdout.write(adjoint_source(model, wrt=("W", "b")))
    sys.stdout.write("=====\\n")
    sys.stdout.write(adjoint_source(looped, wrt=0, policy="eager"))
""")


def test_adjoint_source_byte_identical_across_processes():
    script = SUBPROCESS_SCRIPT.format(root=str(ROOT))
    outs = []
    for seed in ("0", "12345"):
        env = {"PYTHONHASHSEED": seed, "PATH": "/usr/bin:/bin"}
        proc = subprocess.run([sys.executable, "-c", script], capture_output=True, cwd=ROOT,
                              env=env, timeout=120)
        assert proc.returncode == 0, proc.stderr.decode()
        outs.append(proc.stdout)
    assert outs[0] == outs[1]
    here = (adjoint_source(model, wrt=("W", "b")) + "=====\n"
            + adjoint_source(looped, wrt=0, policy="eager")).encode()
    assert outs[0] == here


# ---------------------------------------------------------------- tracebacks
def exploding(x):
    return x * 2.0


@rrule(exploding)
def exploding_rrule(x):
    def pullback(g):
        raise RuntimeError("pullback exploded")
    return x * 2.0, pullback


def calls_exploding(x):
    y = math.sin(x)
    z = exploding(y)
    return z * z


def _frames_in_generated(tb_text):
    return [line for line in tb_text.splitlines() if "<thunkgrad " in line]


def test_traceback_from_custom_pullback_shows_generated_source():
    with pytest.raises(RuntimeError, match="pullback exploded"):
        try:
            grad(calls_exploding)(0.3)
        except RuntimeError:
            text = traceback.format_exc()
            raise
    frames = _frames_in_generated(text)
    assert frames, text
    assert "calls_exploding" in frames[-1]
    generated = transform.api.compiled(calls_exploding, ("x",), "loop").source
    lines = text.splitlines()
    shown = [lines[i + 1].strip() for i, line in enumerate(lines)
             if "<thunkgrad " in line and i + 1 < len(lines)]
    assert any(s and s in generated for s in shown), text
    assert any("pullback" in s for s in shown), text


def fails_for_negative(x):
    return np.sum(np.sqrt(x))


def sqrt_of_checked(x):
    y = x * 1.0
    return fails_for_negative(y) + np.sum(y)


def test_traceback_from_rule_failing_for_input_shows_generated_line():
    x = np.array([0.0, 1.0])  # sqrt'(0) divides by zero -> make numpy raise
    with np.errstate(divide="raise"):
        try:
            grad(sqrt_of_checked)(x)
        except FloatingPointError:
            text = traceback.format_exc()
        else:
            pytest.fail("expected FloatingPointError")
    frames = _frames_in_generated(text)
    assert frames, text
    generated = (transform.api.compiled(fails_for_negative, ("x",), "loop").source
                 + transform.api.compiled(sqrt_of_checked, ("x",), "loop").source)
    lines = text.splitlines()
    shown = [lines[i + 1].strip() for i, line in enumerate(lines)
             if "<thunkgrad " in line and i + 1 < len(lines)]
    assert any(s and s in generated for s in shown), text


def bad_forward_shape(a, b):
    return np.sum(a @ b)


def test_traceback_from_forward_sweep_shows_generated_line():
    try:
        grad(bad_forward_shape)(np.ones((2, 3)), np.ones((2, 3)))
    except ValueError:
        text = traceback.format_exc()
    else:
        pytest.fail("expected ValueError")
    assert "<thunkgrad " in text
    assert "a @ b" in text


def test_generated_filename_names_function_wrt_and_policy():
    c = transform.api.compiled(looped, ("x",), "eager")
    assert c.filename.startswith("<thunkgrad ")
    assert "looped" in c.filename
    assert "eager" in c.filename


def test_inspect_getsource_on_compiled_rule():
    c = transform.api.compiled(model, ("W", "b"), "loop")
    src = inspect.getsource(c.rrule)
    assert src in c.text                          # the text that runs, as linecache has it
    src = textwrap.dedent(src)                    # one space deeper: inside the factory
    assert src.startswith("def model_rrule(")
    assert src in c.source
    assert inspect.getsourcefile(c.rrule) == c.filename or \
        inspect.getfile(c.rrule) == c.filename


def test_inspect_getsource_on_compiled_loop_rule():
    c = transform.api.compiled(looped, ("x",), "loop")
    src = inspect.getsource(c.rrule)
    assert "def looped_rrule(" in src
    assert "for " in src


def test_inspect_getsource_on_pullback():
    c = transform.api.compiled(model, ("W",), "loop")
    W, b, x = np.ones((2, 3)), np.ones(2), np.ones(3)
    _, pullback = c.rrule(W, b, x)
    src = inspect.getsource(pullback)
    assert src in c.text
    src = textwrap.dedent(src)
    assert src.startswith("def pullback(")
    assert textwrap.indent(src, "    ").strip() in c.source


def test_compiled_rule_runs_standalone():
    c = transform.api.compiled(model, ("W", "b"), "loop")
    rng = np.random.default_rng(0)
    W, b, x = rng.normal(size=(4, 3)), rng.normal(size=4), rng.normal(size=3)
    out, pullback = c.rrule(W, b, x)
    assert out == pytest.approx(model(W, b, x))
    dW, db = (unthunk(g) for g in pullback(1.0))
    gW, gb = grad(model, wrt=(0, 1))(W, b, x)
    np.testing.assert_allclose(dW, gW)
    np.testing.assert_allclose(db, gb)


def test_generated_source_compiles_as_python():
    src = adjoint_source(looped, wrt=0)
    compile(src, "<check>", "exec")


def test_generated_source_has_primal_comments():
    src = adjoint_source(model, wrt=("W", "b"))
    comments = [ln.strip() for ln in src.splitlines() if ln.strip().startswith("# ")]
    assert any("np.tanh" in c for c in comments)
    assert len(comments) >= 4


def test_explain_source_differs_but_is_deterministic():
    a = adjoint_source(model, wrt=0, explain=True)
    b = adjoint_source(model, wrt=0, explain=True)
    assert a == b
    compile(a, "<check>", "exec")


def test_vjp_pullback_exception_shows_generated_frame():
    out, pb = vjp(calls_exploding, 0.3)
    with pytest.raises(RuntimeError):
        try:
            pb(1.0)
        except RuntimeError:
            text = traceback.format_exc()
            raise
    assert "<thunkgrad " in text


def test_thunk_exported_for_rules():
    assert unthunk(Thunk(lambda: 3)) == 3


def test_traceback_frame_line_matches_generated_source_line():
    try:
        grad(calls_exploding)(0.3)
    except RuntimeError as exc:
        frames = traceback.extract_tb(exc.__traceback__)
    else:
        pytest.fail("expected RuntimeError")
    generated = [f for f in frames if f.filename.startswith("<thunkgrad ")]
    assert generated
    frame = generated[-1]
    ran = transform.api.compiled(calls_exploding, ("x",), "loop",   # grad's rule for a float
                                 signature=transform.api.signature_of((0.3,)))
    source = ran.source
    assert frame.filename == ran.filename
    assert frame.line
    assert source.splitlines()[frame.lineno - 1].strip() == frame.line.strip()
