"""Issue 18: a user's own `runtime` module or package, first on sys.path, makes
`import transform` fail at once with an ImportError naming it and the fix."""
import subprocess
import sys

import pytest

import transform
from transform import layout


def _import(script, cwd):
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=cwd, timeout=120)


@pytest.mark.parametrize("kind", ["package", "module"])
@pytest.mark.parametrize("script", ["import transform", "import runtime, transform",
                                    "from transform import grad"])
def test_a_users_runtime_first_on_the_path(tmp_path, kind, script):
    if kind == "package":
        (tmp_path / "runtime").mkdir()
        (tmp_path / "runtime" / "__init__.py").write_text("SETTINGS = {}\n")
        theirs = tmp_path / "runtime" / "__init__.py"
    else:
        (tmp_path / "runtime.py").write_text("SETTINGS = {}\n")
        theirs = tmp_path / "runtime.py"
    proc = _import(script, tmp_path)
    assert proc.returncode == 1
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: thunkgrad's `transform` needs its own `runtime`")
    assert str(theirs) in last and "Instead: rename" in last
    assert "cannot import name" not in proc.stderr


def test_no_clash_imports_quietly(tmp_path):
    (tmp_path / "model.py").write_text("X = 1\n")
    proc = _import("import transform, model; print(transform.grad.__name__)", tmp_path)
    assert proc.returncode == 0 and proc.stdout.strip() == "grad", proc.stderr


def test_the_check_accepts_our_own_runtime():
    layout.check_runtime_is_ours()
    assert transform.grad is not None
