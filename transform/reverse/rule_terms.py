"""A rule call's contributions in the backward sweep: one expanded cotangent template
per active input (`Rule.templates`, ir/templates.expand).

    z = np.sin(x) * y          dx: unbroadcast(g * y, x) ...   (one per input)
"""
import operator

import gast
import numpy as np

from ..analysis.shapes import NUMERIC, shape_of
from ..ir import templates
from ..ir.nodes import load
from ..ir.primitives import may_be_none


def rule_call_values(rev, prim, g, target, inputs):
    """(input, value, computed here?, may be a Thunk?, may be None?, numeric?) for each
    active input of the rule call `target = prim(...)` whose output cotangent is g."""
    values = []
    dropped = templates.dropped_params(prim.rule, prim.inputs, target, rev.ctx.shapes)
    literal = gast.Constant in map(type, prim.inputs.values())
    for param, name in inputs:
        expr = templates.expand(prim.rule, param, g, target, prim.inputs, dropped,
                                rev.ctx.names)
        if literal:                  # `h ** 2`: the optimiser folds `h ** (2 - 1)`
            rev.ctx.literal_terms.append(expr)
        # np.copy of an array (not of a list) gives the array's cotangent, an array
        numeric = prim.fn in NUMERIC or prim.fn is np.copy and \
            shape_of(rev.ctx.shapes.cls.get(name)) not in (None, ())
        if name in rev.sequences and prim.fn is not operator.getitem:
            # a NumPy function given a list returns an array's cotangent (checked
            # when it runs: a name bound to a list here may hold an array there)
            expr, numeric = rev.call("list_cotangent", expr, load(name)), False
        maybe_none = may_be_none(prim)
        values.append((name, expr, True, False, maybe_none, numeric))
        if prim.fn is operator.getitem and shape_of(rev.ctx.shapes.cls.get(name)) \
                is None:
            rev.entries.add(id(expr))   # b[0] of a b that may be a list
    return values
