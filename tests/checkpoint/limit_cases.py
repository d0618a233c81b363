"""Functions for tests/checkpoint/test_limit_report.py (module-level: the compiler reads
their source; the line numbers below are part of what the tests check)."""
import numpy as np


def simulate(u, k, n):
    for t in range(n):
        u = u + k * (np.roll(u, 1) - 2 * u + np.roll(u, -1))
    total = 0.0
    for x in enumerate(u):
        total = total + x[1]
    i = 0
    while i < 2:
        u = u * 0.5
        i += 1
    last = 0.0
    for j in range(n):
        last = u[j % 3] * j
        if last > 10.0:
            break
    return np.sum(u ** 2) + total + last


def appended_into_an_entry(w, n):
    hist = {"loss": []}
    for k in range(n):
        hist["loss"].append(np.sum(w * k) + np.sum(np.sin(w)))
    return sum(hist["loss"]) + hist["loss"][-1]


def merged_in_place(x, n):
    params = {"w": x, "step": 0.0}
    for k in range(n):
        params |= {"w": params["w"] * 0.5 + np.tanh(x), "step": params["step"] + 1.0}
    return np.sum(params["w"] ** 2) * params["step"]
