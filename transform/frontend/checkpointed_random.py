"""A checkpointed loop's body drawing random numbers from a generator it sees as a
global (np.random.normal, random.gauss, a module's rng.normal): the backward sweep runs
steps again and would draw other numbers than the forward sweep did, a wrong gradient.
Refused at the call; a generator passed in as a local is refused by the driver when the
loop runs (runtime/checkpoint_rule.py)."""
import random

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
                            call, hint="draw them before the loop (noise = "
                            "rng.normal(size=(n, ...))) and index noise[t]")
