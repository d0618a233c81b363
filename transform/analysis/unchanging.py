"""Stage 5, analyze: names the tape need not keep, as each overwrite leaves what the
backward sweep reads unchanged (part of `saved_names`).

    for _ in range(n):
        t6 = -1.5                 one literal definition: every value is -1.5
        inv3 = t5 ** t6           (t6 was pushed and popped every step)
        t27 = t25 * t26           read back only for its shape, 16x16x3 every step

A name whose one definition is a number literal (or its negation) holds that number
whenever it is bound; a name read back only for its shape, whose shape class is one
concrete array shape (every definition agrees, transform/analysis/shapes.py) with no
complex values in the function, has that shape whenever it is bound. The backward sweep
then reads the last value (the pullback's default) instead of a pushed one. (A dtype
can still differ between iterations, float32 then float64, which only the precision of
a shape-read cotangent buffer would see: `cot_dtype` takes the wider one anyway.)
"""
import operator

import gast

from .shapes import SCALAR, shape_of


def literal_constant(shapes, name):
    """Whether `name` has one definition, a number literal or its negation."""
    defs = shapes.defs.get(name)
    if name in shapes.params or not defs or len(defs) != 1:
        return False
    prim = defs[0]
    if prim == SCALAR:
        return True
    if getattr(prim, "kind", None) != "rule" or prim.fn is not operator.neg:
        return False
    atom = next(iter(prim.inputs.values()), None)
    return isinstance(atom, gast.Constant) and type(atom.value) in (int, float)


def fixed_shape(shapes, name):
    """Whether every value of `name` is an array of one known shape (no complex values)."""
    return not shapes.may_complex and bool(shape_of(shapes.cls.get(name)))


def unchanging(shapes, values, shape_only):
    """(values, shape_only) without the names whose overwrites need no save."""
    return ({n for n in values if not literal_constant(shapes, n)},
            {n for n in shape_only if not fixed_shape(shapes, n)
             and not literal_constant(shapes, n)})
