"""Products, einsum and matrix structure against central differences."""
import numpy as np
import pytest

import runtime
from tests.rules.checks import case, check_float32, check_rule, newer, rand

S, V3, V4 = 1.3, rand(3), rand(4, seed=1)
M23, M34, M33 = rand(2, 3), rand(3, 4, seed=1), rand(3, 3, seed=2)
T234, T243, T432 = rand(2, 3, 4), rand(2, 4, 3, seed=1), rand(4, 3, 2, seed=2)
B233, B133 = rand(2, 3, 3, seed=3), rand(1, 3, 3, seed=4)

PRODUCTS = [
    case(np.dot, V3, V3), case(np.dot, M23, V3), case(np.dot, V3, M34), case(np.dot, M23, M34),
    case(np.dot, S, M23), case(np.dot, M23, S), case(np.dot, T234, V4),
    case(np.dot, T234, T243, id="dot-3d-3d"), case(np.dot, V4, T243, id="dot-1d-3d"),
    case(np.vdot, M23, rand(3, 2, seed=5)), case(np.vdot, V3, V3 + 1),
    case(np.inner, V3, V3 + 1), case(np.inner, M23, M23 + 1), case(np.inner, T234, V4),
    case(np.inner, S, M23),
    case(np.outer, V3, V4), case(np.outer, M23, V3), case(newer("linalg.outer"), V3, V4),
    case(np.matmul, M23, M34), case(np.matmul, V3, M34), case(np.matmul, M23, V3),
    case(np.matmul, B233, M33), case(np.matmul, B133, B233), case(np.matmul, T243, M34),
    case(newer("linalg.matmul"), B233, V3),
    case(np.tensordot, T234, rand(3, 4, 2, seed=7)), case(np.tensordot, T234, T243, axes=([1, 2], [2, 1])),
    case(np.tensordot, T234, M34, axes=([2, 1], [1, 0])), case(np.tensordot, M23, V4, axes=0),
    case(np.tensordot, T234, T432, axes=([0, -1], [2, 0])), case(np.tensordot, M34, T432, axes=1),
    case(newer("linalg.tensordot"), M34, M34 + 1, axes=2),
    case(np.kron, M23, rand(2, 2, seed=6)), case(np.kron, V3, M23), case(np.kron, V4, V3),
    case(np.kron, T234[:, :2, :2], V3),
    case(np.cross, V3, V3[::-1] + 1), case(np.cross, M23, V3),
    case(np.cross, rand(3, 2), rand(3, 2, seed=1), axis=0),
    case(np.cross, rand(3, 2), rand(2, 3, seed=1), axisa=0, axisc=0),
    case(newer("linalg.cross"), M23, M23[::-1]),
    case(newer("vecdot"), M23, V3), case(newer("vecdot"), M23, rand(2, 1, seed=8), axis=0),
    case(newer("linalg.vecdot"), M34, M34 + 1),
    case(newer("matvec"), B233, V3), case(newer("matvec"), M33, M23), case(newer("vecmat"), V3, B233),
    case(newer("vecmat"), M23, M33),
    case(np.triu, M34), case(np.triu, M34, 1), case(np.tril, M34), case(np.tril, B233, k=-1),
    case(np.diag, V3), case(np.diag, V3, 1), case(np.diag, V4, k=-2), case(np.diag, M34),
    case(np.diag, M34, 1), case(np.diag, M34, k=-1),
    case(np.diagonal, M34), case(np.diagonal, M34, 1), case(np.diagonal, T234, 0, 2, 1),
    case(np.diagonal, T234, offset=-1, axis1=2, axis2=0),
    case(newer("linalg.diagonal"), B233), case(newer("linalg.diagonal"), T234, offset=1),
    case(newer("matrix_transpose"), T234), case(newer("linalg.matrix_transpose"), M23),
]


def test_multi_dot_each_factor():
    for arrays in ([M23, M34, rand(4, 2, seed=9)], [V3, M34, V4], (M23, M34)):
        check_rule(np.linalg.multi_dot, [arrays])


@pytest.mark.parametrize("fn, args, kwargs", PRODUCTS)
def test_matches_finite_differences(fn, args, kwargs):
    check_rule(fn, args, kwargs)


@pytest.mark.parametrize("fn, args, kwargs", PRODUCTS)
def test_float32_stays_float32(fn, args, kwargs):
    check_float32(fn, args, kwargs)


EINSUMS = [
    ("ij,jk->ik", [M23, M34]), ("ij,jk", [M23, M34]), ("ij->ji", [M23]), ("ij->", [M23]),
    ("ij->i", [M23]), ("ii->i", [M33]), ("ii", [M33]), ("iji->j", [rand(3, 2, 3)]),
    ("i,i->", [V3, V3 + 1]), ("i,j->ij", [V3, V4]), ("bij,bjk->bik", [B233, B233 + 1]),
    ("...ij,...jk->...ik", [B233, M33]), ("...ij,jk", [B133, M34]), ("i...->...", [M23]),
    ("ij,jk,kl->il", [M23, M34, rand(4, 2, seed=4)]), ("i,i->i", [rand(1), V3]),
    ("ab,bc->ca", [M23, M34]), ("Ab,bC", [M23, M34]), (" ij , jk -> ik ", [M23, M34]),
    ("ij,ij,ij->i", [M23, M23 + 1, M23 - 1]), ("ii,i->i", [M33, V3]),
    ("...,...ij->...ij", [np.float64(2.0), M23]),
]


@pytest.mark.parametrize("subscripts, operands", EINSUMS, ids=[s for s, _ in EINSUMS])
def test_einsum(subscripts, operands):
    check_rule(np.einsum, [subscripts, *operands],
               argnums=[k + 1 for k, op in enumerate(operands) if np.ndim(op)])
    check_float32(np.einsum, [subscripts, *operands],
                  argnums=[k + 1 for k in range(len(operands))])


def test_einsum_subscripts_get_no_cotangent():
    out, pb = runtime.lookup(np.einsum).rrule("ij,jk", M23, M34)
    assert pb(np.ones((2, 4)))[0] is None
