"""Lambdas passed straight to the API, as users write them (errs40's API table)."""
import numpy as np

import transform as tg

cube = tg.grad(lambda a: np.sum(a ** 3))
both = (tg.grad(lambda a: np.sum(a ** 2)), tg.grad(lambda a: np.sum(a ** 3)))
table = {"sq": lambda a: np.sum(a ** 2), "cube": lambda a: np.sum(a ** 3)}
nested = {"g": lambda: tg.grad(lambda a: np.sum(np.sin(a)))}
table2 = {
    "sq": lambda a: np.sum(a ** 2),
    "cube": lambda a: np.sum(a ** 3),
}
calls = {
    "sq": lambda: tg.grad(lambda a: np.sum(a ** 2)),
    "cube": lambda: tg.grad(lambda a: np.sum(a ** 3)),
}
