"""Session 32 (fix2): forward mode walks a loop unpacking several names (nested tuples
too) from a sequence, `for W, b in params["layers"]:`, beside its tangent (it was
refused, the caret at the def line); tangents against central finite differences
(tests/fd.py) for every argument. What is still refused points at the loop's line."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_jvp
from tests.forward import fix2_functions as F
from tests.forward import functions as FF
from tests.gradcheck import rng
from transform import TransformError, jvp


def _mlp_args(r):
    params = {"layers": [(r.normal(size=(3, 4)), r.normal(size=4)),
                         (r.normal(size=(4, 2)), r.normal(size=2))]}
    return params, r.normal(size=(5, 3))


def _tangent(value, r):
    if isinstance(value, dict):
        return {k: _tangent(v, r) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_tangent(v, r) for v in value)
    if isinstance(value, str):
        return None
    return r.normal(size=np.shape(value)) if np.ndim(value) else float(r.normal())


CASES = {
    "mlp": lambda r: _mlp_args(r),
    "rows": lambda r: (r.normal(size=(4, 2)), 0.7),
    "named": lambda r: ([("scale", 1.3), ("shift", -0.4), ("scale", 0.8)], r.normal(size=3)),
    "three": lambda r: ([(0.3, -0.2, 0.5), (0.1, 0.9, -0.3)], 0.4),
    "nested_target": lambda r: ([((0.5, 1.2), -0.7), ((1.1, -0.3), 0.4)], r.normal(size=2)),
    "enumerate_pairs": lambda r: ([(0.5, 1.2), (1.1, -0.3), (0.9, 0.2)], 0.6),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_unpacking_loop_tangents_match_differences(name):
    r = rng("fix2.unpack", name)
    f, args = getattr(F, name), CASES[name](r)
    for k in range(len(args)):
        if name == "named" and k == 0:
            continue                           # (names and numbers: checked below)
        t = _tangent(args[k], r)
        out, out_dot = jvp(f, args, (t,), wrt=k)
        assert_close(out, f(*args))
        assert_close(out_dot, numerical_jvp(f, args, k, t))


def test_string_items_carry_no_tangent():
    pairs, x = CASES["named"](rng("fix2.named"))
    t = [(None, 1.0), (None, 0.0), (None, 0.0)]
    _, out_dot = jvp(F.named, (pairs, x), (t,), wrt=0)
    plus = [("scale", 1.3 + 1e-6)] + pairs[1:]
    minus = [("scale", 1.3 - 1e-6)] + pairs[1:]
    assert_close(out_dot, (F.named(plus, x) - F.named(minus, x)) / 2e-6, rtol=1e-6)


def test_a_loop_still_refused_points_at_its_line():
    with pytest.raises(TransformError, match="unpacking several names") as info:
        jvp(F.zip_strict, ([1.0, 2.0], [3.0, 4.0], 0.5), ([1.0, 1.0],), wrt=0)
    assert "fix2_functions.py:45:9" in str(info.value)


def test_custom_rule_refusal_says_what_to_do():
    # the hint said to call the function "not through its rrule", which is no choice;
    # (session 33: np.einsum declares jvp=LINEAR, which forward mode now runs)
    with pytest.raises(TransformError, match=r"custom \(rrule\) rule declaring no JVP") \
            as info:
        jvp(FF.calls_custom, (np.ones((2, 2)),), (np.ones((2, 2)),), wrt=0)
    assert "use vjp/jacrev" in info.value.hint and "not through" not in info.value.hint
    assert "rrule(fn, jvp=LINEAR)" in info.value.hint


def test_einsum_runs_its_declared_jvp():
    r = rng("fix2.einsum")
    a, b, ta = r.normal(size=(2, 3)), r.normal(size=(3, 2)), r.normal(size=(2, 3))
    _, got = jvp(F.calls_einsum, (a, b), (ta,), wrt=0)
    assert_close(got, numerical_jvp(F.calls_einsum, [a, b], 0, ta), rtol=1e-6)
