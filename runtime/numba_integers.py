"""Where numba's integers would part from Python's: the scan of a compiled function's typed
IR that `Jitted.integer_growth` (runtime/numba_helpers.py) runs once per compilation.

numba's scalar ints are 64-bit and wrap; Python's grow. An argument or a frozen global is
admitted only below SMALL_INT (2 ** 21), so a value can outgrow 64 bits only through the
arithmetic the function does. The scan finds every integer operation that could:
- `**` and `<<` (N ** 40);
- a product unless both factors are small: a constant below SMALL_INT, an argument of the
  jitted function itself, a loop index, `len(...)`, an entry of `.shape` or a bool (two
  of them stay below 2 ** 52; `n * n * n * n`, a product in a loop `p = p * 10` do not);
- a sum or difference of two values neither of which is small (`s = s + s`, Fibonacci's
  `a + b`): with one small term a value grows by a bounded step per iteration, which
  cannot reach 2 ** 63 in any loop that ends;
- an int made of a float (`int(y)` with y = 1e20: numba gives garbage, Python the int).
Each found one is named (the generated line): that function runs in Python instead."""
import operator

from numba.core import ir
from numba.core import types

SMALL_INT = 2 ** 21
_GROWING = {operator.pow: "**", operator.ipow: "**=", operator.lshift: "<<",
            operator.ilshift: "<<="}
_PRODUCT = {operator.mul: "*", operator.imul: "*="}
_SUM = {operator.add: "+", operator.iadd: "+=", operator.sub: "-", operator.isub: "-="}


def integer_growth(annotation, top):
    """The first integer operation of `annotation` (a compiled function's type annotation)
    numba could compute differently from Python, as a phrase, or None. `top`: the jitted
    function's own arguments were checked small (a split callee's were not)."""
    small, whole = _small_names(annotation, top), _whole_constants(annotation)
    for statement in _assignments(annotation):
        why = _differs(statement, annotation.typemap, small, whole)
        if why and why.startswith("a float"):
            return f"{why} (generated line {statement.loc.line})"
        if why:
            return (f"an integer {why} (generated line {statement.loc.line}: numba computes "
                    "it in 64 bits, Python's int grows)")
    return None


def _whole_constants(annotation):
    """Variables holding a constant float with no fraction (`y ** 2.0`)."""
    defs = {}
    for statement in _assignments(annotation):
        defs.setdefault(statement.target.name, []).append(statement.value)
    return {name for name, values in defs.items() if all(
        isinstance(v, ir.Const) and isinstance(v.value, float) and v.value.is_integer()
        for v in values)}


def _assignments(annotation):
    for block in annotation.blocks.values():
        for statement in block.body:
            if isinstance(statement, ir.Assign):
                yield statement


def _differs(statement, typemap, small, whole):
    value = statement.value
    if not isinstance(value, ir.Expr):
        return None
    if value.op in ("binop", "inplace_binop") and value.fn in (operator.pow, operator.ipow) \
            and isinstance(typemap.get(statement.target.name), types.Float) \
            and isinstance(typemap.get(_name(value.rhs)), types.Float) \
            and _name(value.rhs) not in whole:
        return ("a float ** a float exponent (Python's is complex for a negative base, "
                "numba's nan)")
    if value.op in ("binop", "inplace_binop") and _is_int(typemap.get(statement.target.name)):
        operands = [_name(value.lhs) in small, _name(value.rhs) in small]
        if value.fn in _GROWING:
            return _GROWING[value.fn]
        if value.fn in _PRODUCT and not all(operands):
            return f"{_PRODUCT[value.fn]} of a value that may be large"
        if value.fn in _SUM and not any(operands):
            return f"{_SUM[value.fn]} of two values that may be large"
    if value.op == "call" and any(isinstance(typemap.get(_name(a)), types.Float)
                                  for a in value.args):
        if _is_int(typemap.get(statement.target.name)):
            return "made of a float (int(...), round(...))"
    return None


def _is_int(t):
    return isinstance(t, types.Integer)


def _name(var):
    return getattr(var, "name", None)


def _small_names(annotation, top):
    """The variables every definition of which is small (the least fixed point: a value
    carried around a loop is small only where each of its definitions is)."""
    defs = {}
    for statement in _assignments(annotation):
        defs.setdefault(statement.target.name, []).append(statement.value)
    typemap, small = annotation.typemap, set()
    changed = True
    while changed:
        changed = False
        for name, values in defs.items():
            if name not in small and (isinstance(typemap.get(name), types.Boolean) or all(_small_value(v, typemap, small, top, defs)
                                         for v in values)):
                small.add(name)
                changed = True
    return small


def _small_value(value, typemap, small, top, defs):
    if isinstance(value, ir.Var):
        return value.name in small
    if isinstance(value, ir.Arg):
        return top
    if isinstance(value, (ir.Const, ir.Global, ir.FreeVar)):
        v = value.value
        return isinstance(v, bool) or (isinstance(v, int) and abs(v) < SMALL_INT)
    if not isinstance(value, ir.Expr):
        return False
    if value.op == "pair_first":
        return True                     # a loop's index (or an array's entry, as NumPy's)
    if value.op == "unary":
        return _name(value.value) in small
    if value.op == "getattr":           # a range's start, stop or step
        return isinstance(typemap.get(_name(value.value)), types.RangeType)
    if value.op in ("static_getitem", "getitem"):   # a shape's entry, enumerate's index
        return any(isinstance(d, ir.Expr) and (d.op == "pair_first" or (
            d.op == "getattr" and d.attr == "shape")) for d in defs.get(_name(value.value), ()))
    if value.op == "binop" and value.fn in (operator.floordiv, operator.mod):
        return _name(value.lhs) in small
    if value.op == "call":
        return any(isinstance(d, ir.Global) and (d.value is len or (
            d.value is abs and all(_name(a) in small for a in value.args)))
            for d in defs.get(_name(value.func), ()))
    return False
