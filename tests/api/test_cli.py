"""The `thunkgrad` console script and `python -m transform`, run as
subprocesses. Good dumps exit 0; user mistakes exit 2 with one line on stderr."""
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.gradcheck import POLICIES

ROOT = Path(__file__).resolve().parents[2]
QUICKSTART = ROOT / "examples" / "quickstart.py"
SCRIPT = Path(sys.executable).parent / "thunkgrad"

COMMANDS = {
    "script": [str(SCRIPT)],
    "module": [sys.executable, "-m", "transform"],
}


@pytest.fixture(params=sorted(COMMANDS))
def cli(request):
    def run(*args, cwd=ROOT):
        proc = subprocess.run(COMMANDS[request.param] + [str(a) for a in args],
                              capture_output=True, text=True, cwd=cwd, timeout=120)
        return proc
    return run


def test_console_script_installed():
    assert SCRIPT.exists(), SCRIPT


def _assert_user_error(proc):
    """Exit status 2, no traceback: one line with the message, then at most the
    source line and a caret under it, and an `Instead:` line (issue 18)."""
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    lines = proc.stderr.splitlines()
    assert "Traceback" not in proc.stderr
    assert lines and lines[0].strip() and not lines[0].startswith(" "), proc.stderr
    rest = lines[1:]
    if rest and rest[-1].startswith("Instead: "):
        rest = rest[:-1]
    assert len(rest) <= 2 and all(line.startswith("    ") for line in rest), proc.stderr
    if len(rest) == 2:
        assert rest[1].strip() == "^", proc.stderr
    assert proc.stdout == ""
    return lines[0]


def test_dump_quickstart(cli):
    proc = cli("dump", f"{QUICKSTART}:loss", "--wrt", "W,b")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert "def loss_rrule(" in proc.stdout
    assert "def pullback(" in proc.stdout
    compile(proc.stdout, "<dump>", "exec")


def test_dump_default_wrt(cli):
    proc = cli("dump", f"{QUICKSTART}:loss")
    assert proc.returncode == 0, proc.stderr
    assert "wrt=W" in proc.stdout.splitlines()[0]
    assert "def loss_rrule(" in proc.stdout


def test_dump_relative_path(cli):
    proc = cli("dump", "examples/quickstart.py:layer", "--wrt", "0,1")
    assert proc.returncode == 0, proc.stderr
    assert "def layer_rrule(" in proc.stdout


@pytest.mark.parametrize("policy", POLICIES)
def test_dump_each_policy(cli, policy):
    proc = cli("dump", f"{QUICKSTART}:loss", "--wrt", "W", "--policy", policy)
    assert proc.returncode == 0, proc.stderr
    assert f"policy={policy}" in proc.stdout
    assert "def loss_rrule(" in proc.stdout


def test_dump_is_deterministic_and_matches_api(cli):
    first = cli("dump", f"{QUICKSTART}:loss", "--wrt", "W,b").stdout
    second = cli("dump", f"{QUICKSTART}:loss", "--wrt", "W,b").stdout
    assert first == second
    sys.path.insert(0, str(QUICKSTART.parent))
    try:
        import quickstart
        from transform import adjoint_source
        assert first == adjoint_source(quickstart.loss, wrt=("W", "b"))
    finally:
        sys.path.remove(str(QUICKSTART.parent))


def test_missing_file(cli, tmp_path):
    line = _assert_user_error(cli("dump", f"{tmp_path / 'nope.py'}:f"))
    assert "nope.py" in line


def test_missing_function(cli):
    line = _assert_user_error(cli("dump", f"{QUICKSTART}:no_such_function"))
    assert "no_such_function" in line


def test_target_without_function(cli):
    _assert_user_error(cli("dump", str(QUICKSTART)))


@pytest.mark.parametrize("wrt", ["nope", "W,nope", "7", ","])
def test_bad_wrt(cli, wrt):
    _assert_user_error(cli("dump", f"{QUICKSTART}:loss", "--wrt", wrt))


def test_bad_wrt_names_the_parameter(cli):
    line = _assert_user_error(cli("dump", f"{QUICKSTART}:loss", "--wrt", "bogus_param"))
    assert "bogus_param" in line


UNSUPPORTED = textwrap.dedent("""\
    import numpy as np


    def f(x):
        y = x * 2.0
        try:
            y = np.sin(y)
        except ValueError:
            pass
        return y
""")


def test_unsupported_code(cli, tmp_path):
    path = tmp_path / "bad_code.py"
    path.write_text(UNSUPPORTED)
    line = _assert_user_error(cli("dump", f"{path}:f"))
    assert "bad_code.py:6:5" in line
    assert "try" in line


def test_module_that_fails_to_import(cli, tmp_path):
    path = tmp_path / "broken_import.py"
    path.write_text("import numpy as np\nraise RuntimeError('boom')\n\ndef f(x):\n    return x\n")
    _assert_user_error(cli("dump", f"{path}:f"))


def test_not_a_function(cli, tmp_path):
    path = tmp_path / "notfn.py"
    path.write_text("VALUE = 3\n")
    _assert_user_error(cli("dump", f"{path}:VALUE"))


def test_integer_wrt_index(cli, tmp_path):
    proc = cli("dump", f"{QUICKSTART}:loss", "--wrt", "1")
    assert proc.returncode == 0, proc.stderr
    assert "wrt=b" in proc.stdout.splitlines()[0]


# ---------------------------------------------------------------- readable loops
NESTED = textwrap.dedent("""\
    import numpy as np


    def nested(W, xs, n):
        s = 0.0
        for i in range(n):
            for x in xs:
                h = np.tanh(W @ x)
                if np.sum(h) > 10.0:
                    break
                s = s + np.sum(h * h)
        return s
""")


def test_dump_nested_loops_with_break_is_readable(cli, tmp_path):
    path = tmp_path / "nested_loops.py"
    path.write_text(NESTED)
    proc = cli("dump", f"{path}:nested", "--wrt", "W")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    compile(out, "<dump>", "exec")
    assert "def nested_rrule(" in out
    assert "tape.append(" in out
    assert "pop()" in out
    comments = [ln.strip() for ln in out.splitlines() if ln.strip().startswith("# ")]
    assert any("np.tanh" in c for c in comments), out
    assert any(c.startswith("# for ") for c in comments), out
    assert any("s + " in c for c in comments), out
    assert any("break" in ln for ln in out.splitlines()), out
    # every adjoint block of the backward sweep is preceded by a comment
    backward = out[out.index("def pullback("):]
    assert backward.count("\n") > 10
    assert sum(1 for ln in backward.splitlines() if ln.strip().startswith("# ")) >= 4


def test_dump_nested_loops_explain(cli, tmp_path):
    path = tmp_path / "nested_loops2.py"
    path.write_text(NESTED)
    proc = cli("dump", f"{path}:nested", "--wrt", "W", "--explain")
    assert proc.returncode == 0, proc.stderr
    compile(proc.stdout, "<dump>", "exec")
