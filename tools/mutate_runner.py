"""A pytest fork server for tools/mutate.py: one long-lived process per job that has
imported NumPy, SciPy and pytest once, and forks a child per test run.

A fresh `python -m pytest` spends most of a small run importing SciPy and pytest and
compiling the project (the environment may forbid .pyc files, and pytest rewrites the
asserts of every module of the package its plugin comes from); the fork skips the
imports, each copy keeps its .pyc files (tools/mutate.py gives every written version of
a file its own mtime, so a stale .pyc is never used), and `--assert=plain` skips the
rewriting, which only changes failure messages, never a verdict. The server never
imports the project (`transform`, `runtime`, `tests`), so each child imports the mutated
copy it is pointed at, from scratch, exactly as a fresh interpreter would.

Protocol: one JSON line in, {"cwd": copy, "args": [pytest args], "timeout": seconds};
one line out, "passed", "failed" or "timeout".
"""
import json
import os
import signal
import subprocess
import sys
import time

_PRELOAD = ("numpy", "scipy", "scipy.special", "scipy.linalg", "scipy.stats", "pytest",
            "hypothesis")


class Runner:
    """The parent's handle on one fork server."""

    def __init__(self):
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tools.mutate_runner"], stdin=subprocess.PIPE, env=env,
            stdout=subprocess.PIPE, text=True, bufsize=1,
            cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        assert self.process.stdout.readline().strip() == "ready"

    def pytest(self, cwd, args, timeout):
        request = {"cwd": cwd, "args": list(args), "timeout": timeout}
        self.process.stdin.write(json.dumps(request) + "\n")
        verdict = self.process.stdout.readline().strip()
        if not verdict:           # the server is gone: no verdict, never a survivor
            raise RuntimeError("the pytest server stopped before answering")
        return verdict

    def close(self):
        self.process.stdin.close()
        self.process.wait()


def _serve():
    for name in _PRELOAD:
        try:
            __import__(name)
        except ImportError:
            pass
    print("ready", flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        print(_fork_pytest(request["cwd"], request["args"], request["timeout"]), flush=True)


def _fork_pytest(cwd, args, timeout):
    pid = os.fork()
    if pid == 0:
        _child(cwd, args)
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return "passed" if os.waitstatus_to_exitcode(status) == 0 else "failed"
        if time.monotonic() > deadline:
            os.killpg(pid, signal.SIGKILL)   # the child's own group: it and its subprocesses
            os.waitpid(pid, 0)
            return "timeout"
        time.sleep(0.01)


def _child(cwd, args):
    """Run pytest on the copy at `cwd` and exit with its status (never returns)."""
    code = 3
    try:
        os.setpgrp()
        os.chdir(cwd)
        sys.path.insert(0, cwd)
        os.environ["PYTHONPATH"] = cwd          # for the tests that start subprocesses
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        sys.dont_write_bytecode = False         # each copy keeps its own .pyc files
        import pytest
        code = int(pytest.main(["-x", "-q", "-p", "no:cacheprovider", "-o", "addopts=",
                                "--assert=plain", *args]))
    finally:
        os._exit(code)


if __name__ == "__main__":
    _serve()
