"""Stage 4 (after control lowering): np.logaddexp with a number literal as whole-array
ufuncs (issue 19).

    t = np.logaddexp(0, z)   ->   t = logaddexp_number(0, z)

NumPy's logaddexp loop calls libm's exp and log1p once per element (1.6 ms for 100,000
float32 values, where np.exp takes 0.04 ms). With one argument a number c,
`logaddexp_number` (runtime/rules/elementwise_helpers.py) computes NumPy's own formula,
max(a, c) + log1p(exp(-|a - c|)), as whole-array ufuncs when the other argument is a
float32/float64 array of 256 elements or more, and calls np.logaddexp otherwise. Its rule
is np.logaddexp's. The rewrite applies to a statement `name = np.logaddexp(p, q)` (two
positional arguments, no keywords) where p or q is an int or float literal whose value
is finite in float32 (so it never rounds to an infinity), in any block (branches, loops,
inlined helpers, lambdas and comprehensions); a bool, a name bound to a number, an
expression (`-2` is named by normalisation before this stage) or any keyword (out=,
where=, dtype=) keeps np.logaddexp. The function's value can differ from NumPy's by
rounding (up to 3 units in the last place).
"""
import math

import gast
import numpy as np

import runtime
from ..ir.primitives import from_rule, rule_for

FLOAT32_MAX = float(np.finfo(np.float32).max)


def logaddexp_numbers(body, names):
    """Rewrite, in place, every np.logaddexp statement with a number literal argument."""
    for s in body:
        for node in gast.walk(s):
            if _applies(node):
                _rewrite(node, names)


def _applies(s):
    prim = getattr(s, "prim", None)
    if not isinstance(s, gast.Assign) or prim is None or prim.kind != "rule" or \
            prim.fn is not np.logaddexp:
        return False
    call = s.value
    return isinstance(call, gast.Call) and len(call.args) == 2 and not call.keywords and \
        any(_finite_number(arg) for arg in call.args)


def _finite_number(node):
    """Whether `node` is an int or float literal (not a bool) finite in float32."""
    if not isinstance(node, gast.Constant) or type(node.value) not in (int, float):
        return False
    try:
        value = float(node.value)
    except OverflowError:               # an int too large for a float
        return False
    return math.isfinite(value) and abs(value) <= FLOAT32_MAX


def _rewrite(s, names):
    old = s.prim
    args = list(s.value.args)
    helper = runtime.TEMPLATE_NAMESPACE["logaddexp_number"]
    s.value = names.call("logaddexp_number", *args)
    s.prim = from_rule(rule_for(helper), args, {}, old.label)
    s.prim.site = old.site
