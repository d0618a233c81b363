"""Run the test suite on every supported Python x NumPy combination (`make compat`).

One venv per combination under .compat/ (gitignored, reused between runs: the
pins are rechecked, the project is installed in editable mode, so the suite tests this
checkout). Combinations run one after another.

    python tools/compat.py                       # the whole matrix
    THUNKGRAD_COMPAT=py3.10,np2.2 python tools/compat.py   # those whose label has any part
    THUNKGRAD_COMPAT_PYTEST="tests/rules -x" python tools/compat.py   # a smaller suite

Pythons are found under pyenv (`$PYENV_ROOT/versions/X.Y.*`) or as `pythonX.Y` on PATH; a
combination whose Python is missing is reported as skipped, and the run fails.
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CACHE = os.path.join(ROOT, ".compat")

# (python, numpy pin, gast pin): every Python we support, and across them NumPy 1.26,
# 2.0, 2.2 and the latest, gast at its floor, at 0.6 and at its latest (make test adds
# Python 3.11 with the latest NumPy and gast). NumPy 1.26 and 2.0 have no wheels for
# Python 3.13; NumPy 2.3+ needs Python 3.11+.
NO_SCIPY = "noscipy"
MATRIX = [
    ("3.10", "numpy==1.26.*", "gast==0.5.4"),
    ("3.11", "numpy==2.0.*", "gast"),
    ("3.12", "numpy==2.2.*", "gast==0.6.0"),
    ("3.13", "numpy", "gast"),
    # session 30 (lib30): NumPy 2.3, which the README calls supported but no row ran
    # (issue 17: grad(np.sin) failed on 2.2 and 2.3 before the rule's signature was read)
    ("3.12", "numpy==2.3.*", "gast"),
    # 2026-12-02, session 31 (lead): SciPy is an optional extra, so one row runs without it
    # (its rules must not register, the tests that need it must skip, not fail to collect)
    ("3.11", "numpy", "gast", NO_SCIPY),
]
# Every other row installs SciPy (pip picks a release that fits the row's NumPy), so the
# SciPy rules are tested across the NumPy versions too.
TEST_TOOLS = ["pytest>=7", "hypothesis>=6"]


def label(python, numpy, gast, scipy=None):
    """A venv name such as py3.10-np1.26-gast0.5.4 (`latest` for an unpinned package),
    with `-noscipy` for the row without SciPy."""
    def short(pin):
        return pin.split("==")[1].rstrip(".*") if "==" in pin else "latest"
    return f"py{python}-np{short(numpy)}-gast{short(gast)}" + (f"-{scipy}" if scipy else "")


def pins(combo):
    """What pip installs for a row: NumPy, gast, the test tools and (but for the
    no-SciPy row) SciPy."""
    python, numpy, gast, *rest = combo
    return [numpy, gast] + TEST_TOOLS + ([] if rest == [NO_SCIPY] else ["scipy"])


def find_python(version):
    """An interpreter for `version` (e.g. "3.10"): under pyenv, else a working one on PATH."""
    pyenv_root = os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv"))
    found = sorted(glob.glob(os.path.join(pyenv_root, "versions", f"{version}.*", "bin",
                                          "python")))
    candidates = found[-1:] + [shutil.which(f"python{version}")]
    for python in filter(None, candidates):     # a pyenv shim may name an inactive version
        if subprocess.run([python, "--version"], capture_output=True).returncode == 0:
            return python
    return None


def run(cmd, log):
    """Run `cmd`, appending its output to the open file `log`; return the exit code."""
    log.write(f"$ {' '.join(cmd)}\n")
    log.flush()
    return subprocess.call(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)


def prepare(python, venv, packages, log):
    """Create the venv if needed, install the pins and the project; True when it worked."""
    venv_python = os.path.join(venv, "bin", "python")
    if not os.path.exists(venv_python) and run([python, "-m", "venv", venv], log):
        return False
    pip = [venv_python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    return (run(pip + list(packages), log) == 0
            and run(pip + ["--no-deps", "--editable", "."], log) == 0)


def versions(venv):
    """The Python, NumPy and gast versions the venv really has, as one line."""
    probe = ("import sys, numpy, importlib.metadata as m; "
             "print(sys.version.split()[0], numpy.__version__, m.version('gast'))")
    out = subprocess.run([os.path.join(venv, "bin", "python"), "-c", probe],
                         capture_output=True, text=True)
    return out.stdout.strip() or "?"


def check(combo, pytest_args):
    """Prepare and test one combination; returns (label, verdict, versions, seconds)."""
    name = label(*combo)
    python = find_python(combo[0])
    if python is None:
        return name, "skipped (no python)", "-", 0
    venv = os.path.join(CACHE, name)
    start = time.time()
    with open(os.path.join(CACHE, name + ".log"), "w") as log:
        if not prepare(python, venv, pins(combo), log):
            return name, "install failed", "-", time.time() - start
        code = run([os.path.join(venv, "bin", "python"), "-m", "pytest", "-p",
                    "no:cacheprovider", *pytest_args], log)
    verdict = "passed" if code == 0 else f"failed (pytest exit {code})"
    return name, f"{verdict}: {summary(name)}", versions(venv), time.time() - start


def summary(name):
    """pytest's last summary line in the combination's log ("1234 passed, 5 skipped")."""
    with open(os.path.join(CACHE, name + ".log")) as log:
        found = [line.strip(" =\n") for line in log if re.search(r"\d+ (passed|failed)", line)]
    return found[-1] if found else "no summary"


def selected(matrix, wanted):
    """The combinations whose label contains any comma-separated part of `wanted`."""
    parts = [p for p in wanted.split(",") if p]
    return [c for c in matrix if not parts or any(p in label(*c) for p in parts)]


def main():
    os.makedirs(CACHE, exist_ok=True)
    combos = selected(MATRIX, os.environ.get("THUNKGRAD_COMPAT", ""))
    pytest_args = os.environ.get("THUNKGRAD_COMPAT_PYTEST", "tests").split()
    results = []
    for combo in combos:
        print(f"{label(*combo)} ...", flush=True)
        results.append(check(combo, pytest_args))
        name, verdict, found, seconds = results[-1]
        print(f"  {verdict}  [python numpy gast: {found}]  {seconds:.0f}s  "
              f"(log: .compat/{name}.log)", flush=True)
    failed = [r for r in results if not r[1].startswith("passed")]
    print(f"\n{len(results) - len(failed)} of {len(results)} combinations passed")
    return 1 if failed or not results else 0


if __name__ == "__main__":
    sys.exit(main())
