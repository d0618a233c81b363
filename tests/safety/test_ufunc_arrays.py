"""A ufunc of an array is an array to the alias analysis (session 32): `np.tanh(u)` of
an ndarray `u` is a new ndarray, like `u * 2`, so a loop that rebinds `u = np.tanh(u)`
keeps `u` an array at the loop's join. Before, the flag was lost there, `w3[:2] = k`
(a float stored into slots: NumPy copies it) was taken to make `w3` hold `k`, and a
later `w5[:3] *= 0.5` of a copy was refused with "`k` may share memory"
(repro/refused_scalar_store_then_inplace.py). Real sharing is still refused."""
import numpy as np
import pytest

from tests.containers.check import line_of
from tests.gradcheck import POLICIES, check_grad
from transform import TransformError, grad

U = np.linspace(0.1, 0.9, 5)


def store_then_scale(u, k):
    for _ in range(2):
        w3 = u.copy()
        w3[:2] = k
        u = w3
        if k > 0:
            u = np.tanh(u)
        else:
            w5 = u.copy()
            w5[:3] *= 0.5
            u = w5
    return np.sum(u ** 2)


def store_then_scale_exp(u, k):
    for _ in range(3):
        w = u.copy()
        w[1:3] = k * k
        u = np.exp(-w) if k > 0.5 else np.sin(w)
        v = u.copy()
        v[::2] *= k
        u = v
    return np.sum(u * u) + k


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn, k", [(store_then_scale, -0.7), (store_then_scale, 0.4),
                                   (store_then_scale_exp, 0.3), (store_then_scale_exp, 0.8)])
def test_scalar_store_then_inplace_in_a_loop(fn, k, policy):
    check_grad(fn, (U, k), wrt=(0, 1), policy=policy)


def view_of_a_ufunc_result(u):
    for _ in range(2):
        w = np.tanh(u)
        v = w[:2]
        w[:3] *= 0.5
        u = w + np.sum(v)
    return np.sum(u)


def ufunc_result_kept_in_a_list(u):
    kept = []
    for _ in range(2):
        w = np.cos(u)
        kept.append(w)
        w[:1] = 0.0
        u = w + kept[0]
    return np.sum(u)


@pytest.mark.parametrize("fn, line", [(view_of_a_ufunc_result, "w[:3] *= 0.5"),
                                      (ufunc_result_kept_in_a_list, "w[:1] = 0.0")])
def test_sharing_a_ufunc_result_is_still_refused(fn, line):
    with pytest.raises(TransformError) as caught:
        grad(fn)(U)
    assert f":{line_of(fn, line)}:" in str(caught.value)
    assert "share" in str(caught.value)
