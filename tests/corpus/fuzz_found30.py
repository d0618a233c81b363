"""Programs the session-30 fuzz productions (tests/fuzz/gen_operators.py: operators on user
objects, f(*xs) of a length the source does not fix, dict merges) found wrong or falsely
refused, minimised; each names the fuzz case it came from. Fixed ones stay as regression
tests (docs/testing.md, "2026-12-02, session 30 (fuzz30)")."""
import numpy as np

from .case import case, given, refused

A = np.array([0.3, -1.2, 0.5])


def _helper(p, q, r=0.5):
    return np.tanh(p * q) + r


# Fixed: `f(*xs)` where xs's length only shows when the code runs, into a helper with a
# default the spread leaves unfilled (`h(p, q, r=0.5)` given two entries), raised
# "spread_call: 3 cotangents for 2 spread arguments" in the backward sweep (17 of 40
# programs of the new production; idioms-class steps, seeds 0, 1, 3 of the prototype run).
# The helper's pullback gives one cotangent per parameter; the spread entries fill the
# first ones, defaults and keywords (never differentiated next to a star) the rest.
@case(given(0.7, A))
def spread_of_a_grown_list_into_a_helper_with_a_default(x, a):
    v = a * x
    xs = [v]
    for k in range(1, min(len(a), 3) - 1):
        xs.append(x + k)
    return np.sum(_helper(*xs)) + np.sum(_helper(*[x, v]))


@case(given(-0.4, A))
def spread_between_positionals_leaving_a_default(x, a):
    xs = [x * k for k in range(1, len(a) - 1)]           # one entry: r keeps its default
    ys = [x * 2.0]
    return np.sum(_helper(a, *xs)) + np.sum(_helper(*ys, a, r=0.25))


class _Layer:
    def __init__(self, w):
        self.w = w

    def forward(self, p, q, r=0.5):
        return _helper(p * self.w, q, r)


@case(given(0.3, A))
def spread_into_a_method_with_a_default(x, a):
    layer = _Layer(np.tanh(x))
    rows = np.stack([a * x, a, a * a])[:2]
    return np.sum(layer.forward(*rows))


# Fixed (a refusal of a README "works" row): `q = {**p, "k": v}` (or `ys = [*xs, y]`)
# was taken to hold p itself, so a later `p |= {...}` (or `xs.append(...)`) with q read
# afterwards was refused as "writing into `p`: `q` holds `p`" (8 of 40 programs of the
# dict-merge production). The new dict or list holds p's entries, as `p.copy()` does.
@case(given(0.7, A))
def dict_spread_then_the_source_merged_in_place(x, a):
    p = {"w": a * x, "b": np.tanh(x)}
    q = {"b": x * 0.5, "c": np.tanh(x), **p}
    for _ in range(2):
        p |= {"w": p["w"] * 0.5 + np.tanh(a), "b": p["b"] * 0.5 + x}
    return q["b"] + 0.1 * np.sum(q["w"]) + np.sum(q["c"]) + 0.3 * p["b"] + np.sum(p["w"])


@case(given(0.7, A))
def list_spread_then_the_source_appended_to(x, a):
    xs = [a * x, np.sin(a)]
    ys = [*xs, a]
    xs.append(a * 3.0)
    return np.sum(ys[0] * ys[1]) + np.sum(xs[2] * xs[0]) + np.sum(ys[2] * x)


@refused(given(0.7, A), "an entry of the spread list is written into: ys holds it")
def list_spread_then_an_entry_written_into(x, a):
    xs = [a * x, np.sin(a)]
    ys = [*xs, a]
    xs[0][1] = x * 3.0
    return np.sum(ys[0] * ys[1])


# New (the dict-merge production's `dict(p, k=v)`, a refusal of Python's other spelling
# of `{**p, "k": v}`): `dict(p)` and `dict(p, k=v)` where the source shows p is a dict
# were refused ("reaches argument 1 of dict, which has no derivative rule"); they are now
# written as the display (transform/frontend/dict_calls.py).
@case(given(0.7, A))
def dict_call_of_a_dict_with_keywords(x, a):
    p = {"w": a * x, "b": np.tanh(x)}
    q = dict(p, b=p["b"] * x, c=np.sin(x))
    r = dict(q)
    r["w"] = r["w"] * 2.0
    return q["b"] * p["b"] + np.sum(q["w"]) * q["c"] + np.sum(r["w"] * r["b"])


@case(given(-0.3, A))
def dict_call_of_a_dict_merged_in_place(x, a):
    p = {"w": a * x, "b": x}
    for _ in range(2):
        p |= {"b": p["b"] * 0.5 + np.tanh(x)}
    q = dict(p | {"c": x * x}, w=np.sin(a) * p["b"])
    return np.sum(q["w"]) + q["b"] * q["c"] + np.sum(p["w"])


@case(given(0.7, A))         # differentiated since py30b's dict(pairs) rule (session 30)
def dict_call_of_pairs(x, a):
    d = dict(zip(["u", "v"], [x, a * x]))
    return d["u"] * np.sum(d["v"])


def _dict_of(p):
    return dict(p, b=1.0)


@case(given(0.7, A), wrt=(0, 1))     # session 34: dict(p, k=v) is {**dict(p), "k": v}
def dict_call_of_a_parameter_with_a_keyword(x, a):
    return np.sum(_dict_of({"w": a * x, "b": x})["w"])
