"""Print red37's table: `python -m tests.red37.table [NAME...]` (one line per check)."""
import sys
import warnings
from collections import Counter

from tests.red37.cases import all_cases
from tests.red37.check import classify


def main(names, cases=None, classify=classify):
    """One line per check of `cases` (red37's unless given), classified by `classify`."""
    counts = Counter()
    for name, case in (all_cases() if cases is None else cases).items():
        if names and name not in names:
            continue
        for check in case[3]:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                out = classify(name, case, check)
            counts[out.split(":")[0]] += 1
            print(f"{name:28s} {check:11s} {out}", flush=True)
    print(dict(counts))


if __name__ == "__main__":
    main(sys.argv[1:])
