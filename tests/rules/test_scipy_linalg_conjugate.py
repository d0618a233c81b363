"""scipy.linalg on complex matrices where the solve reads the conjugate (session 29, found
judging the mutants of scipy_linalg_more.py's complex_ok lines): lu_solve(..., trans=2)
and solve_triangular(..., trans=2 or 'C') of a complex matrix solve A^H x = b, and
solve(..., assume_a='her'/'pos') reads one triangle of a Hermitian matrix (the other
its conjugate mirror, the diagonal real). All were differentiated as the plain
transpose / the symmetric mirror: wrong gradients (off by 0.1-0.9) with no error. Against central differences under every policy, in the
real and imaginary parts of each input."""
import numpy as np
import pytest

sl = pytest.importorskip("scipy.linalg")

from tests.fd import assert_close, numerical_grad  # noqa: E402
from tests.gradcheck import POLICIES, rng  # noqa: E402
from transform import grad  # noqa: E402


def _loss(z):
    return np.sum(np.real(z) + 3 * np.imag(z))


def conjugate_transposed_lu(x, y, b):
    lu, piv = sl.lu_factor(x + 1j * y)
    return _loss(sl.lu_solve((lu, piv), b * (1 - 0.5j), trans=2)) + \
        _loss(sl.lu_solve((lu, piv), b[:, 0], trans=2) * (2 + 1j))


def _structured_solve(kind, lower):
    def structured_solve(x, y, b):
        return _loss(sl.solve(x + 1j * y, b * (1 - 0.5j), assume_a=kind, lower=lower))
    structured_solve.__name__ = f"solve_{kind.replace(' ', '_')}_{'lower' if lower else 'upper'}"
    return structured_solve


# the Hermitian kinds (the fix), and beside them the kinds that read a plain part of a
SOLVES = [_structured_solve(kind, lower)
          for kind in ("her", "hermitian", "pos", "positive definite", "sym")
          for lower in (False, True)] + \
    [_structured_solve(kind, True) for kind in ("lower triangular", "tridiagonal", "gen")]


def _inputs(name):
    r = rng("scipy-linalg-conjugate", name)
    x = r.normal(size=(3, 3)) + 4 * np.eye(3)        # the diagonal dominates: definite
    return x, 0.4 * r.normal(size=(3, 3)), r.normal(size=(3, 2))


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("f", [conjugate_transposed_lu] + SOLVES, ids=lambda f: f.__name__)
def test_conjugating_solves_of_complex_matrices(f, policy):
    args = _inputs(f.__name__)
    for wrt in (0, 1, 2):
        assert_close(grad(f, wrt=wrt, policy=policy)(*args), numerical_grad(f, list(args), wrt),
                     rtol=1e-6, atol=1e-8)


def _triangular_solve(trans, lower, unit):
    def triangular_solve(x, y, b):
        t = x + 1j * y
        return _loss(sl.solve_triangular(t, b * (1 - 0.5j), trans=trans, lower=lower,
                                         unit_diagonal=unit)) + \
            _loss(sl.solve_triangular(t, b[:, 1], trans=trans, lower=lower) * (0.5 + 2j))
    triangular_solve.__name__ = f"solve_triangular_{trans}_{lower}_{unit}"
    return triangular_solve


TRIANGULAR = [_triangular_solve(2, False, False), _triangular_solve("C", True, False),
              _triangular_solve(2, True, True)]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("f", TRIANGULAR, ids=lambda f: f.__name__)
def test_conjugate_transposed_triangular_solve(f, policy):
    """solve_triangular(..., trans=2 or 'C') of a complex T solves T^H x = b."""
    test_conjugating_solves_of_complex_matrices(f, policy)
