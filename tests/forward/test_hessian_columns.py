"""hessian and jacfwd set up once per call (transform/hessians.py `_single`,
transform/forward_api.py `prepared_jvp`): the checks, the route's choice and the
compiled code are shared by every column. Each Hessian and Jacobian here against
central differences of grad (tests/fd.py), on benchmarks/hessian.py's functions at
small sizes; the setup counted, never timed."""
import sys

import numpy as np
import pytest

from tests.fd import assert_close, numerical_jvp
from transform import TransformError, grad, hessian, hvp, jacfwd, jacrev
import transform.hessians as hessians
import transform.jacobians as jacobians

sys.path.insert(0, __file__.rsplit("/tests/", 1)[0] + "/benchmarks")
import hessian_workloads as hw  # noqa: E402

CASES = {"logreg": (hw.logreg_loss, lambda: hw.logreg_data(5, 12)),
         "energy": (hw.energy, lambda: hw.energy_data(3))}


def differenced(fn, args):
    """The Hessian from central differences of grad along each basis vector."""
    x = args[0]
    columns = [np.ravel(numerical_jvp(grad(fn), args, 0, e.reshape(x.shape)))
               for e in np.eye(x.size)]
    return np.stack(columns, axis=-1).reshape(x.shape + x.shape)


@pytest.mark.parametrize("route", [None, "forward_over_reverse", "reverse_over_forward"])
@pytest.mark.parametrize("key", sorted(CASES))
def test_hessian_is_the_difference_of_grad(key, route):
    fn, data = CASES[key]
    args = data()
    assert_close(hessian(fn, route=route)(*args), differenced(fn, args))


@pytest.mark.parametrize("key", sorted(CASES))
def test_jacobians_of_grad_are_the_hessian(key):
    fn, data = CASES[key]
    args = data()
    expected = differenced(fn, args)
    assert_close(jacfwd(grad(fn))(*args), expected)
    assert_close(jacrev(grad(fn))(*args), expected)


def test_packed_mlp_hessian_along_a_direction():
    theta, X, Y = hw.mlp_data(batch=4)
    v = np.random.default_rng(3).normal(size=theta.shape)
    H = hessian(hw.mlp_loss)(theta, X, Y)
    assert_close(H @ v, numerical_jvp(grad(hw.mlp_loss), (theta, X, Y), 0, v))
    assert_close(H, H.T, rtol=1e-10, atol=1e-12)


def counted(monkeypatch, module, name):
    calls = []
    original = getattr(module, name)

    def wrapper(*args, **kwargs):
        calls.append(args)
        return original(*args, **kwargs)
    monkeypatch.setattr(module, name, wrapper)
    return calls


def test_one_route_choice_per_hessian_and_the_default_route_is_auto(monkeypatch):
    """The default route (None) is "auto", which takes forward over reverse here: its
    code runs once per column, chosen and compiled once per call."""
    args = hw.logreg_data(4, 10)
    chosen = counted(monkeypatch, hessians, "_forward_code")
    runs = counted(monkeypatch, hessians, "run")
    hessian(hw.logreg_loss)(*args)
    assert [c[-1] for c in chosen] == ["auto"] and len(runs) == 4


def stacked_energy(x):
    return np.sum(np.vstack([x, x ** 2]) ** 3)


def test_auto_still_falls_back_for_every_column():
    """A function forward over reverse refuses before anything runs (np.vstack's VJP
    helper; np.gradient's JVP function was this test's case until session 39, secorder2
    gave it a rule) gets reverse over forward's Hessian, for every column."""
    x = np.full(3, 0.7)
    other = hessian(stacked_energy, route="reverse_over_forward")(x)
    auto = hessian(stacked_energy)(x)
    assert_close(auto, other, rtol=0, atol=0)
    assert_close(auto, np.diag(6 * x + 30 * x ** 4))        # sum(x^3 + x^6)''
    for _ in range(2):                                       # twice: the sites kept
        with pytest.raises(TransformError, match="derivative code of `vstack`"):
            hvp(stacked_energy, (x,), (x,), route="forward_over_reverse")


def test_jacfwd_prepares_one_jvp_per_call(monkeypatch):
    prepared = counted(monkeypatch, jacobians, "prepared_jvp")
    args = hw.logreg_data(4, 10)
    J = jacfwd(grad(hw.logreg_loss))(*args)
    assert len(prepared) == 1
    assert_close(J, hw.logreg_hand_hessian(*args))


def test_hessian_checks_the_direction_before_compiling():
    """hvp's order of checks is kept: a wrong direction is a ValueError, whatever the
    route would say of the function."""
    x = np.full(3, 0.7)
    with pytest.raises(ValueError):
        hvp(stacked_energy, (x,), (np.ones(4),))


def mixed(x, y, c=2.0):
    return np.sum(np.tanh(c * x) * y ** 2) + np.sum(x * x * y[0])


def test_jacrev_of_grad_computes_the_cotangents_it_reads():
    """jacrev(grad(f, 0), wrt=1) reads y's cotangents alone (api._forward narrows the
    derivative rule's pullback): the mixed block, and wrt=0 the Hessian, against
    differences; vjp of grad wrt both still gives both."""
    x, y = np.array([0.3, -0.2, 0.5]), np.array([0.7, 1.1, -0.4])
    g = grad(mixed, 0)
    block = np.stack([numerical_jvp(g, (x, y), 1, e) for e in np.eye(3)], axis=-1)
    assert_close(jacrev(g, wrt=1)(x, y), block)
    assert_close(jacrev(g, wrt=0)(x, y), hessian(mixed)(x, y))
    from transform import vjp
    _, pullback = vjp(g, x, y, wrt=(0, 1))
    v = np.array([1.0, -0.5, 0.25])
    dx, dy = pullback(v)
    assert_close(dx, numerical_jvp(g, (x, y), 0, v))      # H symmetric: H v
    assert_close(dy, block.T @ v)


def test_a_default_changed_after_a_call_is_seen():
    """The signatures the public wrappers keep (public/parameters._signature) follow
    a function's defaults and keyword defaults, in place too."""
    def local(x, c=2.0, *, k=1.0):
        return np.sum(np.tanh(c * x) ** 2) * k
    x = np.array([0.3, -0.2])
    first = jacfwd(grad(local))(x)
    local.__defaults__ = (0.5,)
    local.__kwdefaults__["k"] = 3.0
    expected = np.stack([numerical_jvp(grad(lambda x: local(x)), (x,), 0, e)
                         for e in np.eye(2)], axis=-1)
    assert_close(jacfwd(grad(local))(x), expected)
    assert_close(hessian(local)(x), expected)
    assert not np.allclose(first, expected)


@pytest.mark.parametrize("route", [None, "reverse_over_forward"])
def test_blocks_of_a_tuple_wrt_chosen_once(monkeypatch, route):
    """hessian(f, wrt=(0, 1)): blocks H[i][j] against differences of grad, the route
    chosen once for all of them (hessians._mixed)."""
    x, y = np.array([0.3, -0.2, 0.5]), np.array([0.7, 1.1, -0.4])
    chosen = counted(monkeypatch, hessians, "_forward_code")
    H = hessian(mixed, wrt=(0, 1), route=route)(x, y)
    assert len(chosen) == 1
    for i in range(2):
        g = grad(mixed, i)
        for j, arg in enumerate((x, y)):
            block = np.stack([numerical_jvp(g, (x, y), j, e) for e in np.eye(arg.size)], -1)
            assert_close(H[i][j], block)


def test_a_run_time_site_check_passed_is_redone_when_a_name_is_rebound():
    """hvp_forward.refuse_run_time_sites keeps a pass per flat gradient for the same
    objects only: a name rebound to thunkgrad's grad afterwards is refused."""
    from transform.hvp_forward import refuse_run_time_sites
    source = "def fake_grad(x):\n    return helper(x)\n"
    namespace = {"helper": abs}
    exec(compile(source, "<fake flat gradient>", "exec"), namespace)
    fake = namespace["fake_grad"]
    fake.thunkgrad_flat_source = source
    refuse_run_time_sites(fake)
    refuse_run_time_sites(fake)                     # passed, kept
    namespace["helper"] = grad
    with pytest.raises(TransformError, match="thunkgrad's `grad`"):
        refuse_run_time_sites(fake)


def squared_modulus(z):
    return np.sum(np.abs(z) ** 2)


def test_the_narrowed_rule_still_refuses_complex_arguments():
    """The narrowed rule of grad(f) (api._forward) is a Rule like the registered one:
    a complex argument is refused as before, not differentiated."""
    from transform import vjp
    z = np.array([1 + 2j, 0.5 - 1j])
    for call in (lambda: vjp(grad(squared_modulus), z), lambda: jacrev(grad(squared_modulus))(z)):
        with pytest.raises(TransformError, match="takes real values only"):
            call()
