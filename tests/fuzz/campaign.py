"""Run many fuzz programs in parallel processes and tally the verdicts per class.

    python -m tests.fuzz.campaign [--examples N] [--seed S] [--classes all|enabled|a,b]
                                  [--jobs J] [--failures FILE]
    python -m tests.fuzz.campaign --replay alias_write:1234     # one case, printed
    python -m tests.fuzz.campaign --seed S --only calls         # run S's calls programs

Defaults come from THUNKGRAD_FUZZ_EXAMPLES (5000), THUNKGRAD_FUZZ_SEED (random),
THUNKGRAD_FUZZ_CLASSES (all) and THUNKGRAD_FUZZ_JOBS (the CPU count). Program k of a run
is class pick_class(S + k, classes) with seed S + k, so a run is reproducible from S and
its class list, and each case from its label; --only keeps the programs of some classes
from such a run (to run them again after their generator changed). Prints a table of
passed / refused / skipped / failed / invalid per class, then each failure kind with its
first few labels; --failures writes every failing case's source and verdict. Exits 1 if
any case failed.
"""
import argparse
import collections
import multiprocessing
import os
import random
import re
import signal
import sys
import time

from .classes import TWINS, make_case, parse_classes, pick_class
from .oracle import Verdict, judge

OUTCOMES = ("passed", "refused", "skipped", "failed", "invalid")


def run_one(label):
    """(label, Verdict, source) for one 'class:seed' label; never raises."""
    cls, seed = label.split(":")
    try:
        case = make_case(cls, int(seed))
    except Exception as exc:  # noqa: BLE001  (a generator bug)
        return label, Verdict("invalid", "generator raises", repr(exc)), ""
    verdict = _judged(case)
    if verdict.outcome == "failed" and cls in TWINS:
        twin = _judged(make_case(cls, int(seed), twin=True))
        if twin.outcome == "failed":
            verdict.kind = f"{verdict.kind} (its twin with fresh names: {twin.kind})"
    return label, verdict, case.describe()


def _judged(case):
    try:
        return judge(case)
    except Exception as exc:  # noqa: BLE001  (an oracle bug: report, keep going)
        return Verdict("invalid", "oracle raises", f"{type(exc).__name__}: {exc}")


def labels(examples, seed, classes, only=None):
    drawn = [f"{pick_class(seed + k, classes)}:{seed + k}" for k in range(examples)]
    return [label for label in drawn if only is None or label.split(":")[0] in only]


def run(label_list, jobs, progress=None):
    """{label: (Verdict, description)} for every label, over `jobs` processes."""
    results = {}
    if jobs <= 1:
        outcomes = map(run_one, label_list)
    else:
        pool = multiprocessing.get_context("spawn").Pool(jobs, maxtasksperchild=200)
        outcomes = pool.imap_unordered(run_one, label_list, chunksize=4)
    try:
        for label, verdict, description in outcomes:
            results[label] = (verdict, description)
            if progress:
                progress(results)
    except KeyboardInterrupt:       # Ctrl-C (or kill -INT): report what ran so far
        print(f"\ninterrupted after {len(results)} programs", flush=True)
        if jobs > 1:
            pool.terminate()
        return results
    if jobs > 1:
        pool.close()
        pool.join()
    return results


def table(results, classes):
    """The per-class tally, as text."""
    counts = collections.defaultdict(collections.Counter)
    for label, (verdict, _) in results.items():
        counts[label.split(":")[0]][verdict.outcome] += 1
    rows = [f"{'class':<15}" + "".join(f"{o:>9}" for o in OUTCOMES) + f"{'total':>9}"]
    for cls in classes:
        row = counts[cls]
        rows.append(f"{cls:<15}" + "".join(f"{row[o]:>9}" for o in OUTCOMES)
                    + f"{sum(row.values()):>9}")
    total = sum(counts.values(), collections.Counter())
    rows.append(f"{'all':<15}" + "".join(f"{total[o]:>9}" for o in OUTCOMES)
                + f"{sum(total.values()):>9}")
    return "\n".join(rows)


def notes(results):
    """Kinds of passed verdicts per class (forward_mode: whether hvp was judged)."""
    counts = collections.Counter((label.split(":")[0], v.kind) for label, (v, _) in
                                 results.items() if v.outcome == "passed" and v.kind)
    return "\n".join(f"{n:>5}  {cls:<14} passed, {kind}" for (cls, kind), n in
                     sorted(counts.items()))


def failure_kinds(results, show=4):
    """Failures (and invalid cases) grouped by (class, kind), with example labels."""
    groups = collections.defaultdict(list)
    for label, (verdict, _) in sorted(results.items()):
        if verdict.outcome in ("failed", "invalid"):
            groups[(label.split(":")[0], verdict.outcome, verdict.kind)].append(label)
    lines = []
    for (cls, outcome, kind), found in sorted(groups.items(), key=lambda g: -len(g[1])):
        lines.append(f"{len(found):>5}  {cls:<14} {outcome:<8} {kind}: {' '.join(found[:show])}")
    return "\n".join(lines)


def refusals(results, show=8):
    """The most common refusal messages (names and places blanked), with counts."""
    messages = collections.Counter()
    for verdict, _ in results.values():
        if verdict.outcome == "refused":
            text = re.sub(r"^\w+: (\S+:\d+(:\d+)?: )?", "", verdict.detail)
            messages[re.sub(r"`[^`]*`", "`_`", text)[:150]] += 1
    return "\n".join(f"{n:>5}  {m}" for m, n in messages.most_common(show))


def write_failures(results, path):
    with open(path, "w") as fh:
        for label, (verdict, description) in sorted(results.items()):
            if verdict.outcome in ("failed", "invalid"):
                fh.write(f"### {label}: {verdict.outcome}: {verdict.kind}\n{verdict.detail}\n"
                         f"{description}\n\n")


def _progress(results):
    """Every 500 programs: how many ran, and the failures so far with a label each (a
    long run stopped early still says what it found)."""
    if len(results) % 500:
        return
    failed = [label for label, (v, _) in results.items() if v.outcome in ("failed", "invalid")]
    print(f"  {len(results)} done, {len(failed)} failed or invalid"
          + (f": {' '.join(sorted(failed)[:10])}" if failed else ""), flush=True)


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def main(argv=None):
    signal.signal(signal.SIGTERM, _interrupt)     # `kill PID` also reports what ran
    signal.signal(signal.SIGINT, _interrupt)      # (even where the shell ignores Ctrl-C)
    env = os.environ.get
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=int(env("THUNKGRAD_FUZZ_EXAMPLES", 5000)))
    parser.add_argument("--seed", type=int, default=int(env("THUNKGRAD_FUZZ_SEED", 0)) or
                        random.SystemRandom().randrange(2 ** 31))
    parser.add_argument("--classes", default=env("THUNKGRAD_FUZZ_CLASSES", "all"))
    parser.add_argument("--jobs", type=int, default=int(env("THUNKGRAD_FUZZ_JOBS", 0)) or
                        os.cpu_count())
    parser.add_argument("--only", help="keep only these classes' programs of the run")
    parser.add_argument("--failures", help="write failing cases here")
    parser.add_argument("--replay", help="run one case, e.g. alias_write:1234, and print it")
    options = parser.parse_args(argv)
    if options.replay:
        label, verdict, description = run_one(options.replay)
        print(f"{description}\n\n{verdict.outcome}: {verdict.kind}\n{verdict.detail}")
        return 1 if verdict.outcome == "failed" else 0
    classes = parse_classes(options.classes)
    print(f"fuzz: {options.examples} programs, seed {options.seed}, classes "
          f"{','.join(classes)}, {options.jobs} processes", flush=True)
    start = time.time()
    only = parse_classes(options.only) if options.only else None
    results = run(labels(options.examples, options.seed, classes, only), options.jobs,
                  progress=_progress)
    print(f"\n{table(results, classes)}\n{notes(results)}\n\nfailures:\n{failure_kinds(results) or '  none'}"
          f"\n\nmost common refusals:\n{refusals(results) or '  none'}")
    print(f"\n{len(results)} programs in {time.time() - start:.0f} s; replay one with "
          "python -m tests.fuzz.campaign --replay <class:seed>")
    if options.failures:
        write_failures(results, options.failures)
    return 1 if any(v.outcome == "failed" for v, _ in results.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
