"""Stage 4 (after control lowering): `np.linalg.solve` of a Cholesky factor as a
triangular solve (issue 19).

    L = np.linalg.cholesky(K)        L: lower triangular, exact zeros above the diagonal
    a = np.linalg.solve(L, y)   ->   a = solve_cholesky_factor(L, y, True)

NumPy's solve factorises L again (LU with pivoting: about n^3 / 1.5 operations where a
triangular solve takes n^2). The rewrite applies where the compiler can show the matrix
solved with is that factor, unchanged:

- the solve's matrix is a name bound, earlier in the same block, to np.linalg.cholesky's
  output (upper= left out or a literal False/True: lower or upper triangular);
- no statement between them names it (a rebinding, an element store, a second name, a
  call taking it: each ends the fact); a branch or loop may name it only as the matrix of
  solves (`for k in range(m): x = np.linalg.solve(L, B[k])`, one factorisation reused),
  and those are rewritten too;
- no lambda, nested def or generator expression of the function mentions the name (code
  elsewhere could change the array unnamed; writing a global is refused anyway).

`solve_cholesky_factor` takes the triangular path only with SciPy installed, one 2-D
matrix and a vector or matrix of its dtype; else it is np.linalg.solve. Its value can
differ from the LU solve's by rounding (a few units in the last place); its cotangents
solve with the same triangle (`solve_vjp(..., lower)`).
"""
import gast
import numpy as np

import runtime
from ..ir.primitives import from_rule, rule_for

_CLOSURES = (gast.Lambda, gast.FunctionDef, gast.AsyncFunctionDef, gast.GeneratorExp)


def triangular_solves(body, names, fn_node):
    """Rewrite, in place, every np.linalg.solve whose matrix is a Cholesky factor."""
    _scan(body, names, _unsafe_names(fn_node))


def _unsafe_names(fn_node):
    """Names that code other than the function's own statements may reach: those a
    closure mentions. (Writing a global or nonlocal name is refused by the check stage.)"""
    unsafe = set()
    for node in gast.walk(fn_node):
        if isinstance(node, _CLOSURES) and node is not fn_node:
            unsafe.update(_mentioned(node))
    return unsafe


def _scan(block, names, unsafe, factors=None):
    factors = dict(factors or {})   # name -> lower: a Cholesky factor not named since
    for s in block:
        if isinstance(s, (gast.If, gast.For, gast.While)):
            kept = {n: lower for n, lower in factors.items() if _only_solved_with(s, n)}
            for inner in (s.body, getattr(s, "orelse", [])):
                _scan(inner, names, unsafe, kept)
            _forget(factors, _mentioned(s) - set(kept))
            continue
        solved = _solved_factor(s, factors)
        if solved is not None:
            _rewrite(s, names, factors[solved])
        _forget(factors, _mentioned(s) - {solved} | set(_targets(s)))
        lower = _cholesky_lower(s)
        if lower is not None and _targets(s)[0] not in unsafe:
            factors[_targets(s)[0]] = lower


def _only_solved_with(compound, name):
    """Whether every mention of `name` in a branch or loop (its test, its target, its
    blocks) is the matrix of an np.linalg.solve statement in its blocks: the factor is
    then the same array, unchanged, all through it (`for k in ...: x = solve(L, b[k])`)."""
    solves = sum(1 for s in _statements([compound]) if _solves_with(s, name))
    return solves == sum(1 for n in gast.walk(compound)
                         if isinstance(n, gast.Name) and n.id == name)


def _statements(block):
    for s in block:
        yield s
        if isinstance(s, (gast.If, gast.For, gast.While)):
            yield from _statements(s.body)
            yield from _statements(s.orelse)


def _solves_with(s, name):
    prim = _prim_of(s, np.linalg.solve)
    matrix = None if prim is None else prim.inputs.get("a")
    return isinstance(matrix, gast.Name) and matrix.id == name


def _forget(factors, mentioned):
    for name in mentioned:
        factors.pop(name, None)


def _targets(s):
    if isinstance(s, gast.Assign):
        return [n.id for n in gast.walk(s.targets[0]) if isinstance(n, gast.Name)]
    return []


def _prim_of(s, fn):
    prim = getattr(s, "prim", None)
    if isinstance(s, gast.Assign) and len(s.targets) == 1 and prim is not None and \
            prim.kind == "rule" and prim.fn is fn:
        return prim
    return None


def _cholesky_lower(s):
    """True (lower) or False (upper) if `s` is `L = np.linalg.cholesky(K[, upper=...])`
    with a literal upper=, else None."""
    prim = _prim_of(s, np.linalg.cholesky)
    if prim is None or not isinstance(s.targets[0], gast.Name):
        return None
    upper = prim.inputs.get("upper")
    if not isinstance(upper, gast.Constant) or not isinstance(upper.value, bool):
        return None
    return not upper.value


def _solved_factor(s, factors):
    """The factor `s` solves with (`x = np.linalg.solve(L, b)`, L in factors), or None."""
    return next((name for name in factors if _solves_with(s, name)), None)


def _rewrite(s, names, lower):
    old = s.prim
    args = [old.inputs["a"], old.inputs["b"], gast.Constant(value=lower, kind=None)]
    helper = runtime.TEMPLATE_NAMESPACE["solve_cholesky_factor"]
    s.value = names.call("solve_cholesky_factor", *args)
    s.prim = from_rule(rule_for(helper), args, {}, old.label)
    s.prim.site = old.site


def _mentioned(node):
    return {n.id for n in gast.walk(node) if isinstance(n, gast.Name)}
