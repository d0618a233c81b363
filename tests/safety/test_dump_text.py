"""`thunkgrad dump` of functions whose names hold a newline, code and terminal control
characters: the dump and its one-line errors show them escaped, never as code."""
import ast
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

MODULE = textwrap.dedent('''
    import numpy as np

    def f(x):
        return np.sin(x) * x

    f.__qualname__ = "f\\nimport os; os.system('echo pwned')\\x1b[31m"

    exec("def g(x):\\n    return x * x\\n")      # no source file to read
    g.__qualname__ = "g\\nimport os; os.system('echo pwned')\\x1b[2J"
    ''')


def dump(tmp_path, name, text=MODULE):
    path = tmp_path / "named.py"
    path.write_text(text)
    return subprocess.run([sys.executable, "-m", "transform", "dump", f"{path}:{name}"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)


def test_dump_of_a_name_holding_code_prints_it_in_a_comment(tmp_path):
    proc = dump(tmp_path, "f")
    assert proc.returncode == 0, proc.stderr
    header = proc.stdout.splitlines()[0]
    assert header.startswith("# thunkgrad: adjoint of f\\nimport os; os.system('echo pwned')"
                             "\\x1b[31m (wrt=x;"), header
    assert "\x1b" not in proc.stdout
    tree = ast.parse(proc.stdout)
    assert not any(isinstance(n, (ast.Import, ast.ImportFrom)) for n in ast.walk(tree))
    assert [type(n) for n in tree.body] == [ast.FunctionDef]


def test_dump_errors_naming_such_a_function_keep_their_message_on_one_line(tmp_path):
    failing_import = 'raise ValueError("bad\\nimport os; os.system(1)\\x1b[2J")\n'
    for name, text in (("g", MODULE), ("f", failing_import)):
        proc = dump(tmp_path, name, text)
        assert proc.returncode == 2, (proc.stdout, proc.stderr)
        assert proc.stdout == ""
        # one line for the message; after it only the source line, the caret and
        # `Instead:` (issue 18), never a line the quoted text started
        lines = proc.stderr.splitlines()
        assert all(line.startswith(("    ", "Instead: ")) for line in lines[1:]), lines
        assert len(lines) <= 4 and not lines[-1].startswith("import"), proc.stderr
        assert "\x1b" not in proc.stderr and "\\nimport os" in proc.stderr, proc.stderr
