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

from .activity import assignment_counts, needed_names, target_names, walk
from ..ir import statements as ir
from .shapes import SCALAR, SETITEM, shape_of


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


def unchanging(body, shapes, values, shape_only):
    """(values, shape_only) without the names whose overwrites need no save. A name a
    statement adds to in place (a trip counter's `n1 += 1`) is not constant."""
    counters = {s.target for s, _ in walk(body) if isinstance(s, ir.Count)}
    constant = {n for n in values | shape_only
                if n not in counters and literal_constant(shapes, n)}
    return (values - constant,
            {n for n in shape_only - constant if not fixed_shape(shapes, n)})


def read_after_loop(body, ctx, saved):
    """`saved` without the names whose overwrites all lie in one top-level loop and whose
    value only statements after that loop read (inside it and before it, at most their
    known shape): the backward sweep reads them before it replays the loop, when they
    hold their last value, so no overwrite needs a save.

        for _ in range(steps):
            u = np.concatenate([...])      u read by value only by `u ** 2` after the loop
        return np.sum(u ** 2)
    """
    drop = set()
    stores = set(getattr(ctx.src, "swapped", ())) | set(getattr(ctx, "aliased_stores", ()))
    for k, loop in enumerate(body):
        if not isinstance(loop, ir.Loop):
            continue
        inside = assignment_counts([loop])
        value_in, shape_in = needed_names([loop], ctx.activity, ctx.shapes)
        value_before, shape_before = needed_names(body[:k], ctx.activity, ctx.shapes)
        targets = {n for s, _ in walk([loop]) if isinstance(s, ir.For)
                   for n in target_names(s.target)}
        for name in saved - value_in - value_before - targets - stores:
            if inside.get(name) == ctx.counts.get(name) and \
                    SETITEM not in ctx.shapes.defs.get(name, ()) and \
                    (name not in shape_in | shape_before or fixed_shape(ctx.shapes, name)):
                drop.add(name)
    return saved - drop
