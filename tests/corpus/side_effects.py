"""Calls with no derivative to give run as they are: output, logging, clocks, constant
library calls. Calls that hide what they read or write, or a value being differentiated
reaching a library function without a rule, are refused."""
import copy
import heapq
import logging
import math
import time
import warnings

import numpy as np

from .case import case, floats, refused

LOG = logging.getLogger("thunkgrad.corpus")


@case(floats((4,), ()))
def print_progress_in_loop(x, k):
    for step in range(3):
        x = x - 0.1 * k * np.sin(x)
        print("step", step, "loss", np.sum(x ** 2))
    return np.sum(x ** 2)


@case(floats((3,)))
def warn_on_large_values(x):
    y = np.tanh(x) * 2.0
    if np.max(np.abs(y)) > 10.0:
        warnings.warn("large values")
    return np.sum(y * x)


@case(floats((3,), ()))
def logging_module_and_logger(x, s):
    loss = np.sum((x - s) ** 2)
    logging.debug("loss %f", loss)
    LOG.info("loss %f at scale %f", loss, s)
    return loss * s


@case(floats((3,)))
def timed_section(x):
    start = time.perf_counter()
    y = np.exp(x) * x
    elapsed = time.perf_counter() - start
    if elapsed < 0.0:
        y = -y
    return np.sum(y)


@case(floats(()))
def constant_library_call(x):
    return x * math.lgamma(2.4) + math.factorial(4) * x ** 2


@case(floats((5,)))
def reversed_range_loop(x):
    s = 0.0
    for i in reversed(range(len(x))):
        s = 0.5 * s + x[i] * x[i]
    return s


@case(floats((3,)))
def constant_deepcopy(x):
    weights = copy.deepcopy([1.0, 2.0, 3.0])
    return np.sum(x * np.array(weights))


@case(floats((3,)))     # refused until session 30 (py30b): copy.deepcopy has a rule now
def deepcopy_of_differentiated(x):
    y = copy.deepcopy(x)
    return np.sum(y)


@refused(floats((3,)), "heapq changes the list in place")
def heap_of_values(x):
    h = [1.0]
    heapq.heappush(h, x[0] * 2.0)
    return heapq.heappop(h) * x[1]


@refused(floats(()), "eval reads the function's names")
def eval_reads_a_local(x):
    y = x * 2.0
    return eval("y") * x


@case(floats(()))   # refused until session 30 (py30b): copy.copy has a rule now (python30b.py
def stored_in_library_object(x):       # keeps a library object without one refused)
    token = copy.copy(x * 2.0)
    return x
