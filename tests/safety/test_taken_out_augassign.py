"""`lr = cfg.lr; lr *= cfg.decay`: a value read out of an argument's attribute or
entry, then an augmented assignment. A number is rebound (as in Python), so the gradient
is the primal's; an array there would be updated in place (the argument with it), which
is refused when the code runs, naming the user's line. A value read out of a container
the function builds itself, another slot of which may share it, stays refused at compile
time (tests/corpus/slot_alias.py)."""
import dataclasses

import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad, numerical_jvp
from transform import grad, jvp


@dataclasses.dataclass
class Cfg:
    lr: object
    decay: float


def decayed(w, cfg):
    lr = cfg.lr
    lr *= cfg.decay
    return np.sum((w - lr * w ** 2) ** 2)


def decayed_in_a_loop(w, cfg):
    lr = cfg.lr
    for _ in range(3):
        w = w - lr * w ** 3
        lr *= cfg.decay
    return np.sum(w ** 2) + cfg.decay * lr


def from_a_dict(w, d):
    v = d["a"]
    v += w[0]
    v *= 2.0
    return v * w[1] + d["a"]


W = np.array([0.3, -1.2, 0.8])


@pytest.mark.parametrize("fn", [decayed, decayed_in_a_loop])
def test_a_number_read_from_an_attribute_is_rebound(fn):
    cfg = Cfg(0.1, 0.9)
    assert_close(grad(fn, wrt=0)(W, cfg), numerical_grad(fn, (W, cfg), 0))


def test_a_number_read_from_a_dict_argument_is_rebound():
    d = {"a": 0.5}
    assert_close(grad(from_a_dict, wrt=0)(W, d), numerical_grad(from_a_dict, (W, d), 0))
    assert d == {"a": 0.5}


def test_forward_mode_too():
    cfg, v = Cfg(0.1, 0.9), np.array([1.0, 0.5, -0.3])
    out, tangent = jvp(decayed, (W, cfg), (v,), wrt=0)
    assert_close(out, decayed(W, cfg))
    assert_close(tangent, numerical_jvp(decayed, (W, cfg), 0, v))


def test_an_array_there_is_refused_when_it_runs_at_the_users_line():
    cfg = Cfg(np.array([0.1, 0.2, 0.3]), 0.9)
    with pytest.raises(TypeError, match=r"test_taken_out_augassign.py:\d+: augmented"):
        grad(decayed, wrt=0)(W, cfg)
    assert_close(cfg.lr, np.array([0.1, 0.2, 0.3]))     # the argument is unchanged
