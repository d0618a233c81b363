"""Session 32 red team (red): `print` in a checkpointed loop's body runs again whenever
the backward sweep runs a step again (every reversed step, plus the schedule's
recomputations): README's supported table says print runs once, in the forward sweep,
as in the primal. Not a wrong derivative; the lines printed differ from the unmarked
loop's. Run: .venv/bin/python repro/checkpointed_print_runs_again.py"""
import contextlib
import io

from transform import checkpointed, grad


def marked(x, n, s):
    for t in checkpointed(range(n), snapshots=s):
        x = x * 1.1
        print("step", t)
    return x


def plain(x, n):
    for t in range(n):
        x = x * 1.1
        print("step", t)
    return x


if __name__ == "__main__":
    for name, run in (("unmarked", lambda: grad(plain)(1.0, 4)),
                      ("marked s=2", lambda: grad(marked)(1.0, 4, 2))):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            run()
        print(f"{name}: {out.getvalue().split()[1::2]}")
