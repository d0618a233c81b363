"""What `make test` fuzzes (tests/test_fuzz.py): a fixed share, the same on every run, and
a bounded random share whose seed is printed (tests/conftest.py) so a failure replays.

    THUNKGRAD_FUZZ_FIXED      programs per class in the fixed share (default 16)
    THUNKGRAD_FUZZ_RANDOM     programs per class in the random share (default 2; 0: none)
    THUNKGRAD_FUZZ_SEED       the random share's seed (default: drawn, and printed)
    THUNKGRAD_FUZZ_CLASSES    enabled (default) | all | a,b
    THUNKGRAD_FUZZ_SHRINK_SECONDS   time to shrink a failing program (default 20)

Program k of class c in a share with seed S is the campaign's case c:S+k, so a failure
replays with `python -m tests.fuzz.campaign --replay c:S+k`. `make fuzz` explores widely.
"""
import os
import random

FIXED_SEED = 20261130
_env = os.environ.get
FIXED_PER_CLASS = int(_env("THUNKGRAD_FUZZ_FIXED", 16))
RANDOM_PER_CLASS = int(_env("THUNKGRAD_FUZZ_RANDOM", 2))
RANDOM_SEED = int(_env("THUNKGRAD_FUZZ_SEED", 0)) or random.SystemRandom().randrange(2 ** 31)
SHRINK_SECONDS = float(_env("THUNKGRAD_FUZZ_SHRINK_SECONDS", 20))
# classes whose programs cost several times another's run a share divided by this
# (rounded up): hvp_routes runs hvp three times per argument (`make fuzz` explores them)
COSTLY = {"hvp_routes": 3}


def shares(cls=None):
    """(name, first seed, programs per class) of each share (for class `cls`: fewer for a
    COSTLY one)."""
    scale = COSTLY.get(cls, 1)
    return [("fixed", FIXED_SEED, -(-FIXED_PER_CLASS // scale)),
            ("random", RANDOM_SEED, -(-RANDOM_PER_CLASS // scale))]


def header():
    return (f"fuzz: fixed share seed {FIXED_SEED} x {FIXED_PER_CLASS} per class, random share "
            f"seed {RANDOM_SEED} x {RANDOM_PER_CLASS} per class "
            f"(replay: THUNKGRAD_FUZZ_SEED={RANDOM_SEED})")
