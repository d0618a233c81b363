"""Shrink a failing campaign case by deleting lines and terms while it fails the same way.

    python -m tests.fuzz.shrink vocabulary:70001

Tries, until nothing more goes: deleting one line (a statement, or a def's whole body
line), deleting one `+` term of the return line, and dropping unused parameters is left
to the reader. "The same way" is the verdict's kind and its exception's first word.
Prints the smallest source and its verdict. (tests/fuzz/minimise.py does the same for
grammar.py Programs, with their structure.)
"""
import dataclasses
import sys
import time

from .classes import make_case
from .oracle import judge


def signature(verdict):
    """What must stay the same: outcome, kind, and for a crash its exception's name (a
    wrong value or gradient's detail holds numbers, which shrinking changes)."""
    if verdict.kind.startswith(("wrong", "mutated")):
        return verdict.outcome, verdict.kind
    return verdict.outcome, verdict.kind, verdict.detail.split(":")[1:2]


def shrink(case, seconds=None):
    """The smallest variant found; with `seconds`, whatever is smallest when they run out
    (make test caps shrinking so; python -m tests.fuzz.shrink runs to the end)."""
    deadline = None if seconds is None else time.monotonic() + seconds
    target = signature(judge(case))
    if target[0] not in ("failed", "invalid"):
        raise ValueError(f"{case.label()} does not fail")
    source = case.source
    improved = True
    while improved:
        improved = False
        for candidate in _candidates(source):
            if deadline is not None and time.monotonic() > deadline:
                return dataclasses.replace(case, source=source, probe_source=None)
            try:
                compile(candidate, "<candidate>", "exec")
            except SyntaxError:
                continue
            trial = dataclasses.replace(case, source=candidate, probe_source=None)
            if signature(judge(trial)) == target:
                source, improved = candidate, True
                break
    return dataclasses.replace(case, source=source, probe_source=None)


def _candidates(source):
    lines = source.splitlines()
    for k, line in enumerate(lines):
        if line.strip() and not line.startswith(("import", "def f(")):
            yield "\n".join(lines[:k] + lines[k + 1:]) + "\n"
        if line.lstrip().startswith("return ") and " + " in line:
            head, expr = line.split("return ", 1)
            terms = expr.split(" + ")
            for j in range(len(terms)):
                rest = " + ".join(terms[:j] + terms[j + 1:])
                yield "\n".join(lines[:k] + [f"{head}return {rest}"] + lines[k + 1:]) + "\n"


def main(label):
    cls, seed = label.split(":")
    small = shrink(make_case(cls, int(seed)))
    verdict = judge(small)
    print(f"{small.describe()}\n\n{verdict.outcome}: {verdict.kind}\n{verdict.detail}")


if __name__ == "__main__":
    main(sys.argv[1])
