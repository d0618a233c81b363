"""SciPy is optional: without it thunkgrad imports and differentiates NumPy code (the
NumPy Cholesky rule falls back to a general solve), and with it the SciPy rules register
only once the user's code imports SciPy."""
import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]

BLOCK_SCIPY = '''
import sys
class NoScipy:
    def find_spec(self, name, path=None, target=None):
        if name == "scipy" or name.startswith("scipy."):
            raise ModuleNotFoundError("scipy is blocked for this test")  # as when missing
sys.meta_path.insert(0, NoScipy())
'''

WITHOUT_SCIPY = BLOCK_SCIPY + '''
import numpy as np
from transform import grad

def gp(K, y):
    L = np.linalg.cholesky(K)
    z = np.linalg.solve(L, y)
    return 0.5 * z @ z + np.sum(np.log(np.diag(L)))

def loss(x):
    return np.sum(np.tanh(x) ** 2)

M = np.array([[2.0, 0.3], [0.3, 1.0]])
g = grad(gp)(M, np.array([0.5, -1.0]))
assert np.all(np.isfinite(g)), g
print(grad(loss)(np.array([0.1, 0.2])))
assert not any(m == "scipy" or m.startswith("scipy.") for m in sys.modules)
print("ok")
'''

LAZY = '''
import sys
import numpy as np
from transform import grad
grad(lambda x: np.sum(x * x))
assert "scipy" not in sys.modules, "importing thunkgrad imported SciPy"
import scipy.signal
from runtime import lookup
assert lookup(scipy.signal.convolve) is not None
print("ok")
'''


def run(code, tmp_path):
    script = tmp_path / "program.py"          # a file: thunkgrad reads the source
    script.write_text(code)
    return subprocess.run([sys.executable, str(script)], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_thunkgrad_works_without_scipy(tmp_path):
    done = run(WITHOUT_SCIPY, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("ok")


def test_scipy_rules_register_only_when_scipy_is_imported(tmp_path):
    pytest.importorskip("scipy")
    done = run(LAZY, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("ok")


# 2026-12-02, session 31 (lead): test modules that imported SciPy at their top made the
# suite uncollectable without it (`make compat`'s no-SciPy row): every test module and the
# corpus must import as they would in a venv without SciPy (find_spec gives None too)
IMPORT_EVERY_TEST_MODULE = BLOCK_SCIPY + '''
import importlib, importlib.util, pathlib
_find_spec = importlib.util.find_spec
importlib.util.find_spec = lambda name, package=None: None if name.split(".")[0] == "scipy" \\
    else _find_spec(name, package)
root = pathlib.Path("tests")
failed = []
for path in sorted(root.rglob("test_*.py")) + [root / "corpus" / "modules.py"]:
    name = ".".join(path.with_suffix("").parts)
    try:
        importlib.import_module(name)
    except ImportError as exc:
        failed.append(f"{name}: {exc}")
    except BaseException as exc:            # pytest.importorskip: the module skips whole
        if type(exc).__name__ != "Skipped":
            raise
print("\\n".join(failed) or "ok")
'''


def test_every_test_module_imports_without_scipy(tmp_path):
    done = run(IMPORT_EVERY_TEST_MODULE, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("ok"), done.stdout
