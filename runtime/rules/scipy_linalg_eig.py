"""scipy.linalg.eig and eigvals (registered only when SciPy imports), on np.linalg.eig's
rule (factorizations_helpers.py): a real matrix with real, distinct eigenvalues, not
stacked. SciPy returns the eigenvalues complex even then (their imaginary parts exactly
zero) and the eigenvectors real; a real matrix's eigenvalue moves along the real axis
only, so its cotangent is the real part of the complex one (docs/complex.md, the real ->
complex boundary). A complex spectrum, `b=` (the generalized problem), `left=True` and
homogeneous_eigvals=True are refused; right=False returns the eigenvalues alone. The
rules are complex_ok (their outputs and cotangents are complex) and refuse a complex
matrix themselves (ComplexRefused); tests/rules/test_complex_allow.py lists them as
program-checked, in tests/rules/test_scipy_linalg_eig.py.
"""
import numpy as np
import scipy.linalg as sl

from ..complex_safety import RuleRefused, refuse_complex
from ..registry import NONE, defvjp, template_helper
from .factorizations_helpers import eig_vjp, eigvals_vjp
from .forward_linalg_helpers import eig_jvp, eigvals_jvp


def _plain(a, b, left, homogeneous):
    refuse_complex("scipy.linalg._decomp.eig", a)      # a complex matrix: no rule yet
    if b is not None or left or homogeneous or np.ndim(a) != 2:
        raise RuleRefused("scipy.linalg.eig's rule takes one real matrix, without b=, "
                                  "left=True or homogeneous_eigvals=True")


def _real(w):
    w = np.asarray(w)
    if np.iscomplexobj(w) and np.any(w.imag != 0):
        raise RuleRefused("scipy.linalg.eig's rule needs a real matrix with a real "
                                  "spectrum; this one has complex eigenvalues")
    return w.real


@template_helper(pure=True)
def scipy_eig_vjp(g, ans, a, b, left, right, homogeneous):
    """Cotangent of a: np.linalg.eig's, at the real eigenvalues, with the real part of
    the eigenvalues' cotangent."""
    _plain(a, b, left, homogeneous)
    gw, gV = g if right else (g, None)
    gw = None if gw is None else np.real(gw)
    if not right:
        return eigvals_vjp(gw, a) if gw is not None else np.zeros(np.shape(a))
    w, V = ans
    return eig_vjp((gw, None if gV is None else np.real(gV)), (_real(w), np.real(V)), a)


@template_helper(pure=True)
def scipy_eig_jvp(t, ans, a, b, left, right, homogeneous):
    """Tangent of (w, V) (or w): np.linalg.eig's, w's as complex as SciPy's w."""
    _plain(a, b, left, homogeneous)
    if not right:
        return eigvals_jvp(t, a).astype(np.result_type(ans, 1j))
    w, V = ans
    dw, dV = eig_jvp(t, (_real(w), np.real(V)))
    return dw.astype(np.result_type(w, 1j)), dV


@template_helper(pure=True)
def scipy_eigvals_vjp(g, a, b, homogeneous):
    _plain(a, b, False, homogeneous)
    _real(np.linalg.eigvals(a))
    return eigvals_vjp(np.real(g), a)


@template_helper(pure=True)
def scipy_eigvals_jvp(t, a, b, homogeneous):
    _plain(a, b, False, homogeneous)
    _real(sl.eigvals(a))
    return eigvals_jvp(t, a).astype(complex)


defvjp(sl.eig, "a, b=None, left=False, right=True, overwrite_a=False, overwrite_b=False, "
       "check_finite=True, homogeneous_eigvals=False",
       "scipy_eig_vjp(g, ans, a, b, left, right, homogeneous_eigvals)", NONE, None, None,
       None, None, None, None, complex_ok=True,
       jvp="scipy_eig_jvp(t_a, ans, a, b, left, right, homogeneous_eigvals)")
defvjp(sl.eigvals, "a, b=None, overwrite_a=False, check_finite=True, homogeneous_eigvals=False",
       "scipy_eigvals_vjp(g, a, b, homogeneous_eigvals)", NONE, None, None, None,
       complex_ok=True, jvp="scipy_eigvals_jvp(t_a, a, b, homogeneous_eigvals)")

# the reverse rules of the scipy.linalg JVP helpers (hvp, grad of grad) register with this family
from . import scipy_linalg_second  # noqa: E402,F401
