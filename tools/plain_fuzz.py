"""The fuzzer's programs through the plain lowering (docs/ir.md, "Second lowering"): the
oracle of tests/fuzz/oracle.py with `value_and_grad(..., lowering="plain")` under the
policies it takes (loop, eager); a program with a non-scalar output (judged through
`vjp`, which the plain lowering does not offer) counts as refused.

    .venv/bin/python tools/plain_fuzz.py CLASS[,CLASS...] N [FIRST_SEED]

Prints each failed program (class, seed, kind, detail) and a tally per class, refusals
also counted by the construct they name. Exit status 1 if any program failed. (The fuzz
campaign's class `plain_lowering`, tests/fuzz/oracle_plain.py, draws other classes'
programs through the same oracle for `make test`; this runs chosen classes whole.)
"""
import collections
import sys

import transform
from tests.fuzz import oracle
from tests.fuzz.classes import make_case
from transform import TransformError

_VALUE_AND_GRAD = transform.value_and_grad


def _plain(f, wrt=None, policy=None, **options):
    return _VALUE_AND_GRAD(f, wrt, policy=policy, lowering="plain", **options)


def _no_vjp(*args, **kwargs):
    raise TransformError("lowering='plain' does not support a non-scalar output (vjp)")


def run(cls, seeds):
    tally, failed = collections.Counter(), 0
    for seed in seeds:
        verdict = oracle.judge(make_case(cls, seed))
        tally[verdict.outcome] += 1
        if verdict.outcome == "failed":
            failed += 1
            print(f"FAILED {cls}:{seed} {verdict.kind}: {verdict.detail[:300]}", flush=True)
        if verdict.outcome == "refused" and "does not support " in verdict.detail:
            tally["refused: " + verdict.detail.split("does not support ", 1)[1][:50]] += 1
    print(cls, dict(tally), flush=True)
    return failed


def main(argv):
    transform.value_and_grad, transform.vjp = _plain, _no_vjp
    oracle.POLICIES = ("loop", "eager")
    first = int(argv[2]) if len(argv) > 2 else 0
    seeds = range(first, first + int(argv[1]))
    return 1 if sum(run(cls, seeds) for cls in argv[0].split(",")) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
