"""Every rule not declared complex_ok refuses a complex value (runtime/complex_safety.py):
at compile time where the statements show the value is complex
(transform/analysis/complex_reach.py), else when the pullback runs, at the user's line;
through helpers, closures, globals and arguments not differentiated too. The rules below
gave wrong gradients for complex values with no error before the allow-list (none was on
the old deny-list; complex_in_a_loop's np.cov was, it shows the run-time path): checked against the branch's starting commit, each gave a gradient
that differs from central differences."""
import numpy as np
import pytest

from transform import TransformError, adjoint_source, grad
from tests.gradcheck import POLICIES, check_grad
from tests.rules.checks import rand
from tests.optional_scipy import if_scipy, scipy_module

ss, sc, stats = (scipy_module(name) for name in ("signal", "special", "stats"))


def svd_of_spectrum(x):
    z = np.fft.fft(x).reshape(2, 3)
    w = z * 2.0
    s = np.linalg.svd(w, compute_uv=False)
    return np.sum(s)


def test_a_certainly_complex_value_is_refused_at_compile_time():
    with pytest.raises(TransformError, match="np.linalg.svd's rule takes real values only: "
                                             "`w`, a complex value") as info:
        adjoint_source(svd_of_spectrum)           # compiling only: nothing runs
    assert info.value.filename == __file__
    assert info.value.source_line.strip() == "s = np.linalg.svd(w, compute_uv=False)"


def complex_vecdot(a, b):
    return np.real(np.sum(np.vecdot(a + 1j * b, b + 0.5j * a)))


def complex_pinv(a, b):
    weights = np.arange(1.0, 7.0).reshape(2, 3) * (1 + 2j)
    return np.real(np.sum(np.linalg.pinv((a + 1j * b)[:, :2]) * weights))


def complex_correlate(a, b):
    return np.sum(np.abs(ss.correlate(a[0] + 1j * b[0], a[1] - 2j * b[1])) ** 2)


def complex_nanvar(a, b):
    return np.nanvar(a + 1j * b)


def complex_vector_norm(a, b):
    return np.linalg.vector_norm(a + 1j * b)


def complex_norm_logpdf(a, b):
    return np.real(np.sum(stats.norm.logpdf(a + 1j * b)))


def complex_ive(a, b):
    return np.real(np.sum(sc.ive(1.0, a + 1j * b)))


def complex_in_a_loop(a, b):
    z = a * 1j
    for _ in range(2):
        z = z + b                               # not certain at compile time: run time
    return np.real(np.sum(np.cov(z)))


FORMERLY_SILENT = [complex_pinv, complex_nanvar, complex_in_a_loop] + if_scipy(
    complex_correlate, complex_norm_logpdf, complex_ive)
if hasattr(np, "vecdot"):
    FORMERLY_SILENT += [complex_vecdot, complex_vector_norm]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("f", FORMERLY_SILENT, ids=lambda f: f.__name__)
def test_rules_wrong_for_complex_values_refuse_them_at_the_users_line(f, policy):
    with pytest.raises(TransformError, match="real values only") as info:
        grad(f, wrt=(0, 1), policy=policy)(rand(3, 3, seed=1), rand(3, 3, seed=2))
    assert info.value.filename == __file__ and info.value.hint


# ---- complex values from outside the function's statements -----------------------------
KERNEL = np.fft.fft(np.array([1.0, 0.5, -0.25, 0.0]))


def global_kernel_into_nanvar(x):
    return np.nanvar(x * KERNEL)


def global_kernel_filter(x):
    return np.sum(np.abs(np.fft.ifft(np.fft.fft(x) * KERNEL)) ** 2)


def _spread(m):
    return np.nanvar(m)


def helper_given_a_complex_value(x):
    return _spread(x * (1 + 1j) + x[::-1])


def closure_given_a_complex_value(x):
    fs = {"spread": lambda m: np.nanvar(m)}
    return fs["spread"](x * (1 + 1j) + x[::-1])


def with_a_complex_parameter(x, kernel):
    return np.nanvar(x * kernel)


def filter_with_a_complex_parameter(x, kernel):
    return np.sum(np.abs(np.fft.ifft(np.fft.fft(x) * kernel)) ** 2)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("f", [global_kernel_into_nanvar, helper_given_a_complex_value,
                               closure_given_a_complex_value], ids=lambda f: f.__name__)
def test_complex_values_from_globals_helpers_and_closures_are_refused(f, policy):
    with pytest.raises(TransformError, match="real values only|assumes real"):
        grad(f, policy=policy)(rand(4, seed=3))


@pytest.mark.parametrize("policy", POLICIES)
def test_a_complex_argument_not_differentiated_is_refused_where_a_rule_needs_real(policy):
    with pytest.raises(TransformError, match="assumes real"):
        grad(with_a_complex_parameter, wrt=0, policy=policy)(rand(4, seed=3), KERNEL)


@pytest.mark.parametrize("policy", POLICIES)
def test_complex_values_from_outside_reaching_complex_ok_rules_differentiate(policy):
    check_grad(global_kernel_filter, [rand(4, seed=3)], policy=policy)
    check_grad(lambda x: filter_with_a_complex_parameter(x, KERNEL), [rand(4, seed=5)],
               policy=policy)
