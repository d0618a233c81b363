"""python -m tests.red34.survey: every case and check, classified."""
import collections
import sys
import warnings

from tests.red34.cases import cases
from tests.red34.check import classify

warnings.simplefilter("ignore")
counts = collections.Counter()
only = sys.argv[1:]
for name, case in cases().items():
    if only and name not in only:
        continue
    for check in case[3]:
        verdict = classify(name, case, check)
        counts[verdict.split(":")[0]] += 1
        print(f"{name:20s} {check:12s} {verdict}", flush=True)
print(dict(counts))
