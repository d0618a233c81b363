"""A checkpointed loop's body drawing random numbers from a generator it sees as a
global (np.random.normal, random.gauss, a module's rng.normal): the backward sweep runs
steps again and would draw other numbers than the forward sweep did, a wrong gradient.
Refused at the call, and so is a call of a helper whose code (or a helper's it names, and
so on) names such a generator among its globals; a generator passed in as a local is
refused by the driver when the loop runs (runtime/checkpoint_rule.py), and a step that
gives another value when run again by the backward sweep, there too."""
import random
import types

import gast
import numpy as np

GENERATORS = (np.random.Generator, np.random.RandomState, np.random.BitGenerator,
              random.Random)


def refuse_random_draws(src, loop):
    for call in gast.walk(gast.Module(body=loop.body, type_ignores=[])):
        if isinstance(call, gast.Call) and \
                isinstance(getattr(src.resolve(call.func), "__self__", None), GENERATORS):
            raise src.error("a checkpointed loop's body draws random numbers; the "
                            "backward sweep runs steps again and would draw other ones",
                            call, hint=_HINT)
        if isinstance(call, gast.Call) and _reads_generator(src.resolve(call.func), set()):
            raise src.error("a checkpointed loop's body calls a helper that reads a random "
                            "generator among its globals; the backward sweep runs steps "
                            "again and would draw other numbers", call, hint=_HINT)


_LIBRARIES = {"numpy", "scipy", "runtime", "transform"}   # (the driver checks their steps)
_HINT = "draw them before the loop (noise = rng.normal(size=(n, ...))) and index noise[t]"


def _names(code):
    yield from code.co_names
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _names(const)


def _reads_generator(fn, seen):
    """Whether fn, a Python function, or one its code names as a global, names a random
    generator among its globals."""
    if not isinstance(fn, types.FunctionType) or fn in seen or \
            (fn.__module__ or "").split(".")[0] in _LIBRARIES:
        return False
    seen.add(fn)
    for name in _names(fn.__code__):
        value = fn.__globals__.get(name)
        if isinstance(value, GENERATORS) or _reads_generator(value, seen):
            return True
    return False
