"""Mutants of scipy_linalg.py's session-29 lines (mutF): solve_triangular conjugates only
for trans=2/'C' of a complex matrix, never for the plain or transposed solve of one
(`and -> or` in triangular_solve_vjp). Against central differences under every policy, in
the real and imaginary parts of each input."""
import pytest

pytest.importorskip("scipy.linalg")

from tests.gradcheck import POLICIES  # noqa: E402
from tests.rules.test_scipy_linalg_conjugate import (  # noqa: E402
    _triangular_solve, test_conjugating_solves_of_complex_matrices)

PLAIN = [_triangular_solve(0, False, False), _triangular_solve("T", True, False),
         _triangular_solve(1, True, True), _triangular_solve("N", True, False)]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("f", PLAIN, ids=lambda f: f.__name__)
def test_plain_and_transposed_triangular_solve_of_complex_matrix(f, policy):
    """T x = b and T^T x = b of a complex T read T itself, not its conjugate."""
    test_conjugating_solves_of_complex_matrices(f, policy)
