"""The generated `<name>_jvp`: readable (the tangent statement under each primal one,
loops kept), deterministic (the same text in processes with different hash seeds),
registered for inspect.getsource and tracebacks; `thunkgrad dump --mode forward`."""
import inspect
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.forward import functions as F
from transform.forward_pipeline import compile_forward
from transform.forward_api import jvp_source

ROOT = Path(__file__).resolve().parents[2]
FUNCTIONS = Path(F.__file__)


def test_dump_reads_like_the_primal():
    text = jvp_source(F.looped, wrt=(0, 1))
    assert text.startswith("# thunkgrad: tangent of looped (wrt=x, w; forward mode)\n")
    assert "def looped_jvp(x, w, *, x_dot, w_dot):" in text
    assert "for i in steps1:" in text                       # the loop kept, no tape
    assert "tape" not in text and "pullback" not in text
    assert "return (t" in text and "_dot)" in text


def test_inspect_getsource_and_tracebacks_see_the_generated_text():
    compiled = compile_forward(F.looped, ("x", "w"))
    shown = inspect.getsource(compiled.rrule)
    assert shown.lstrip().startswith("def looped_jvp(x, w, *, x_dot, w_dot):")
    assert "s_dot = zero_tangent(s)" in shown
    with pytest.raises(ValueError) as info:             # a bad tangent fails in the code
        compiled.rrule(np.ones(3), 0.5, x_dot=np.ones(4), w_dot=0.0)
    frames = [f for f in info.traceback if str(f.path) == compiled.filename]
    assert frames, "no frame in the generated code"


_DUMP = """
import sys
sys.path.insert(0, {root!r})
from tests.forward import functions as F
from transform.forward_api import jvp_source
for name in ("straight", "looped", "branched", "whiled", "containers", "stores", "keywords",
             "calls_layers", "records", "unpacking_loops", "tuple_outputs", "lists"):
    sys.stdout.write(jvp_source(getattr(F, name), wrt=0))
"""


def test_source_is_deterministic_across_hash_seeds():
    texts = []
    for seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        proc = subprocess.run([sys.executable, "-c", _DUMP.format(root=str(ROOT))],
                              capture_output=True, text=True, env=env, timeout=300)
        assert proc.returncode == 0, proc.stderr
        texts.append(proc.stdout)
    assert texts[0] == texts[1]
    assert texts[0].count("def ") == 12


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "transform", "dump", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)


def test_cli_dump_forward():
    proc = _cli(f"{FUNCTIONS}:branched", "--mode", "forward", "--wrt", "x,y")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == jvp_source(F.branched, wrt=("x", "y"))
    assert "def branched_jvp(x, y, *, x_dot, y_dot):" in proc.stdout


def test_cli_forward_refusal_and_reverse_only_options():
    proc = _cli(f"{FUNCTIONS}:calls_custom", "--mode", "forward")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "forward mode" in proc.stderr and "Instead:" in proc.stderr
    proc = _cli(f"{FUNCTIONS}:looped", "--mode", "forward", "--policy", "eager")
    assert proc.returncode == 2 and "does not apply to --mode forward" in proc.stderr


def test_cli_dump_hvp_shows_what_the_default_route_runs():
    """hvp's default route, auto: forward over reverse's code where it compiles."""
    from transform.hessians import hvp_source
    proc = _cli(f"{FUNCTIONS}:looped", "--mode", "hvp", "--wrt", "x")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == hvp_source(F.looped, wrt="x") == \
        hvp_source(F.looped, wrt="x", route="forward_over_reverse")
    assert proc.stdout.startswith("# thunkgrad: gradient of looped in one sweep (wrt=x; "
                                  "forward over reverse)\n")


def test_cli_dump_hvp_reverse_over_forward_shows_the_tangent_code_and_its_adjoint():
    from transform.hessians import hvp_source
    proc = _cli(f"{FUNCTIONS}:looped", "--mode", "hvp", "--wrt", "x",
                "--route", "reverse_over_forward")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == hvp_source(F.looped, wrt="x", route="reverse_over_forward")
    assert proc.stdout.startswith("# thunkgrad: tangent of looped (wrt=x; forward mode)\n"
                                  "def looped_tan(x_dot, x, w):\n")
    assert "def looped_tan_rrule(x_dot, x, w):" in proc.stdout
    assert "def pullback(" in proc.stdout
    assert "# thunkgrad: adjoint of looped_tan (wrt=x;" in proc.stdout     # (session 33:
    assert "<locals>" not in proc.stdout                    # not thunkgrad_factory.<locals>)


def test_tangent_statements_read_as_written():
    """Session 33: literal arithmetic folded and the tangent last in an elementwise
    term (`2 * t3 * t3_dot`, not `t3_dot * 2 * t3 ** (2 - 1)`); a template calling the
    rule's own function shows the arguments the user gave, by name, not every default."""
    text = jvp_source(F.readable, wrt=0)
    assert "_dot = 2 * h * h_dot\n" in text
    assert "np.sum(t2_dot)\n" in text and "np.sum(t2_dot, axis=0)\n" in text
    assert "np.sum(t2_dot, axis=1, keepdims=True)\n" in text
    assert "None, None" not in text and "(2 - 1)" not in text


def test_readable_tangents_are_right():
    from tests.fd import assert_close, numerical_jvp
    from transform import jvp
    x, t = np.linspace(-1.0, 1.0, 6).reshape(2, 3), np.arange(6.0).reshape(2, 3) / 5
    _, got = jvp(F.readable, (x,), (t,))
    assert_close(got, numerical_jvp(F.readable, [x], 0, t), rtol=1e-7)


def test_cli_dump_hvp_refusals():
    proc = _cli(f"{FUNCTIONS}:looped", "--mode", "hvp", "--wrt", "x,w")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "one argument" in proc.stderr and "Instead:" in proc.stderr
    proc = _cli(f"{FUNCTIONS}:looped", "--mode", "hvp", "--explain")
    assert proc.returncode == 2 and "does not apply to --mode hvp" in proc.stderr
