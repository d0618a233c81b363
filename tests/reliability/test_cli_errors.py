"""Issue 18: the CLI never prints a traceback. Each case runs `thunkgrad` as a
subprocess: exit status 2, `file:line:col: message` (or `thunkgrad: error: ...`), the
source line and a caret where there is one, and `Instead:`."""
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import transform

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(sys.executable).parent / "thunkgrad"


def run(*args, cwd):
    return subprocess.run([str(SCRIPT)] + [str(a) for a in args], capture_output=True,
                          text=True, cwd=cwd, timeout=180)


def failure(proc):
    """(first line, source line or None, caret line or None, Instead text or None)."""
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr and proc.stdout == ""
    lines = proc.stderr.splitlines()
    hint = lines.pop()[len("Instead: "):] if lines[-1].startswith("Instead: ") else None
    assert 1 <= len(lines) <= 3, proc.stderr
    lines += [None] * (3 - len(lines))
    return lines[0], lines[1], lines[2], hint


def write(folder, name, text):
    (folder / name).write_text(textwrap.dedent(text))
    return name


def test_a_400_term_function_compiles(tmp_path):
    terms = " + ".join(f"x * {k}.0" for k in range(400))
    write(tmp_path, "big.py", f"def f(x):\n    return {terms}\n")
    proc = run("dump", "big.py:f", cwd=tmp_path)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    compile(proc.stdout, "<dump>", "exec")


def test_a_text_file_target(tmp_path):
    write(tmp_path, "notpy.txt", "def f(x):\n    return x\n")
    first, _, _, hint = failure(run("dump", "notpy.txt:f", cwd=tmp_path))
    assert first == "thunkgrad: error: notpy.txt: not a Python source file (.py)"
    assert ".py" in hint


def test_a_directory_target(tmp_path):
    (tmp_path / "models").mkdir()
    first, _, _, hint = failure(run("dump", "models:f", cwd=tmp_path))
    assert "models: is a directory" in first and "no such file" not in first and hint


def test_a_function_imported_from_numpy(tmp_path):
    write(tmp_path, "uses_sin.py", "from numpy import sin\n\ndef f(x):\n    return sin(x)\n")
    first, _, _, hint = failure(run("dump", "uses_sin.py:sin", cwd=tmp_path))
    assert "'sin' is numpy.sin" in first and "weak reference" not in first
    assert "Python functions" in hint


def test_a_class_target_names_its_methods(tmp_path):
    write(tmp_path, "model.py", """\
        import numpy as np

        class Model:
            def forward(self, x):
                return np.sum(x * x)
        """)
    first, _, _, hint = failure(run("dump", "model.py:Model", cwd=tmp_path))
    assert "'Model' is a class" in first and "out of range" not in first
    assert "model.py:Model.forward" in hint
    proc = run("dump", "model.py:Model.forward", "--wrt", "x", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr


def test_sys_exit_at_import(tmp_path):
    write(tmp_path, "script.py", "import sys\nsys.exit(7)\n\ndef f(x):\n    return x\n")
    first, _, _, hint = failure(run("dump", "script.py:f", cwd=tmp_path))
    assert "sys.exit(7)" in first and "__main__" in hint


def test_an_exception_at_import_points_at_the_users_line(tmp_path):
    write(tmp_path, "raises.py", """\
        import numpy as np

        def helper():
            raise ValueError("bad value")

        helper()
        """)
    first, source, caret, hint = failure(run("dump", "raises.py:f", cwd=tmp_path))
    # Python 3.10's tracebacks carry no columns: the line alone there
    where = "raises.py:4:5:" if sys.version_info >= (3, 11) else "raises.py:4:"
    assert first.startswith(f"{where} importing the file failed: ValueError: bad value")
    assert source == '        raise ValueError("bad value")'
    assert caret == ("    " + " " * 4 + "^" if sys.version_info >= (3, 11) else None) and hint


def test_a_syntax_error(tmp_path):
    write(tmp_path, "syntax.py", "def f(x):\n    return x +\n")
    first, source, caret, hint = failure(run("dump", "syntax.py:f", cwd=tmp_path))
    assert first.startswith("syntax.py:2:") and "does not parse" in first
    assert source.strip() == "return x +" and caret.strip() == "^" and hint


@pytest.mark.parametrize("stem", ["runtime", "gast", "transform", "numpy_helpers"])
def test_a_file_named_like_the_compilers_modules(tmp_path, stem):
    write(tmp_path, f"{stem}.py", "import numpy as np\n\ndef f(x):\n    return np.sin(x)\n")
    proc = run("dump", f"{stem}.py:f", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "def f_rrule(x):" in proc.stdout


def test_unsupported_code_shows_the_caret_and_the_advice(tmp_path):
    write(tmp_path, "bad.py", """\
        import numpy as np


        def f(x):
            y = x * 2.0
            try:
                y = np.sin(y)
            except ValueError:
                pass
            return y
        """)
    first, source, caret, hint = failure(run("dump", "bad.py:f", cwd=tmp_path))
    assert first.endswith("bad.py:6:5: `y`, which is being differentiated, is read (or may "
                          "be kept) by a try statement's body or handler: they run as "
                          "written, in the forward sweep only, so no derivative flows "
                          "through them")
    assert source == "        try:" and caret == "        ^"
    assert hint


def test_explain_names_the_for_line(tmp_path):
    write(tmp_path, "loop.py", """\
        import numpy as np


        def f(x, n):
            s = 0.0
            for i in range(n):
                s = s + np.sin(x) * i
                s = s * 0.5
            return s
        """)
    proc = run("dump", "loop.py:f", "--explain", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "the loop at line 6" in proc.stdout and "the loop at line 8" not in proc.stdout


def test_help_describes_every_option_with_an_example(tmp_path):
    for args in (["--help"], ["dump", "--help"]):
        proc = run(*args, cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        for option in ("--wrt", "--policy", "--explain", "--as-rule", "PATH.py:FUNC"):
            assert option in proc.stdout, (args, option)
        assert "--wrt W,b" in proc.stdout and "--policy eager" in proc.stdout
        assert "thunkgrad dump examples/quickstart.py:loss" in proc.stdout


def test_version(tmp_path):
    proc = run("--version", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    expected = getattr(transform, "__version__", None)
    if expected is None:
        from importlib import metadata
        expected = metadata.version("thunkgrad")
    assert proc.stdout.strip() == f"thunkgrad {expected}"
