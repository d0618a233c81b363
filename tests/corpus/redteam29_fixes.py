"""Round 29 red team: programs that were wrong (or refused) and are now right, compared
with finite differences under every policy."""
import numpy as np

from .case import case, floats


# ---- `p | q` of dicts was a silent zero gradient (operator.or_ was declared nondiff) ----

@case(floats((3,)))
def dict_union_of_differentiated_entries(x):
    p = {"a": x, "b": x ** 2}
    q = p | {"b": x * 2.0, "c": np.sin(x)}
    return np.sum(q["a"]) + np.sum(q["b"] ** 2) + np.sum(q["c"]) + np.sum(p["b"])


@case(floats((3,)))
def dict_union_in_place_in_a_loop(x):
    params = {"w": x, "step": 0.0}
    for k in range(3):
        params |= {"w": params["w"] * 0.5 + np.tanh(x), "step": params["step"] + 1.0}
    return np.sum(params["w"] ** 2) * params["step"]


@case(floats((3,), ()))
def dict_union_of_overrides_and_defaults(x, s):
    defaults = {"scale": 1.0, "shift": s}
    cfg = defaults | {"scale": s * 2.0}
    cfg = {"extra": x[0]} | cfg
    return np.sum(cfg["scale"] * x + cfg["shift"]) + cfg["extra"]


@case(floats((4,)))
def boolean_masks_joined_with_or(x):
    mask = (x > 0.5) | (x < -0.5)
    return np.sum(np.where(mask, x ** 2, 3.0 * x))


# ---- a counter in a dict after a product of another slot (a false refusal) -------------

@case(floats((3,)))
def counter_in_a_dict_after_scaling_another_slot(x):
    # (refused: `0.9 * state["mean"]` was taken to hold the dict's items, like `[y] * 2`)
    state = {"mean": np.zeros(3), "steps": 0}
    for _ in range(3):
        state["mean"] = 0.9 * state["mean"] + 0.1 * np.sin(x)
        state["steps"] += 1
    return np.sum(state["mean"] ** 2) / state["steps"]


@case(floats((3,)))
def list_slot_added_to_after_an_array_product(x):
    acc = [np.zeros(3), 0.0]
    for _ in range(2):
        acc[0] = acc[0] * 0.5 + x
        acc[1] += 1.0
    return np.sum(acc[0] ** 2) * acc[1]


# ---- `{**params, "b": v}` was refused as "dict literals need constant keys" --------------

@case(floats((3,)))
def dict_display_spreading_params(x):
    p = {"W": np.outer(x, x), "b": x}
    q = {**p, "b": p["b"] * 2.0}
    return np.sum(q["W"]) + np.sum(q["b"] ** 2) + np.sum(p["b"])


@case(floats((3,)))
def dict_display_spreading_two_dicts_between_keys(x):
    base = {"s": x[0], "t": 1.0}
    over = {"t": x[1] * 3.0}
    cfg = {"u": x[2], **base, **over, "v": 2.0}
    return cfg["s"] * cfg["t"] + cfg["u"] ** 2 + cfg["v"] * len(cfg)


@case(floats((3,)))
def dict_display_spread_rebuilt_in_a_loop(x):
    p = {"w": x, "n": 0.0}
    for _ in range(3):
        p = {**p, "w": p["w"] * 0.5 + np.sin(x)}
    return np.sum(p["w"] ** 2) + p["n"]
