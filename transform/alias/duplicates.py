"""Objects one container may hold twice, for the alias check of `xs[i] += v`
(State.multi): an array in two slots changes for both when `+=` updates it in place.

    xs = [y, y]                  # y twice: a display's entries
    xs = [y] * 2                 # repetition (in points_to.value_BinOp)
    xs = ys + [y]                # concatenation, when ys holds y
    d = {k: y for k in ks}       # a comprehension's element not made on each trip

Two objects held by two containers a name reaches are found when the write is checked
(State.held_twice); these are the duplicates inside one new container.
"""
import gast

from ..ir.nodes import walk


def stored_twice(state, entries):
    """Objects two entries of one display hold (`[y, y]`, `dict(a=y, b=y)`)."""
    seen = set()
    for entry in entries:
        state.multi |= seen & entry.objs
        seen |= entry.objs


def comprehended_twice(exprs, parts, elt):
    """A comprehension's element objects not made by its own expressions on each trip
    (`[y for _ in r]` holds y on every trip). exprs: the ExprAliases (its sites)."""
    made_each_trip = {exprs.sites.get(id(n)) for part in parts for n in walk(part)}
    exprs.state.multi |= elt.objs - made_each_trip


def concatenated_twice(exprs, e):
    """Objects two operands of `a + b + c` hold; two slices of one list (the
    desugared `xs[:k] + xs[k + 1:]`) hold different items."""
    state, parts = exprs.state, []
    for part in _added_parts(e):
        held = state.contents(_seen_objects(exprs, part))
        for other_held, other_base in parts:
            if other_base is None or other_base != _sliced_list(part):
                state.multi |= held & other_held
        parts.append((held, _sliced_list(part)))


def _seen_objects(exprs, part):
    """The objects an already evaluated operand refers to (no new sites)."""
    if isinstance(part, gast.Name):
        return exprs.state.names.get(part.id, frozenset())
    site = exprs.sites.get(id(part))
    return frozenset({site}) if site else frozenset()


def _added_parts(e):
    """The operands of `a + b + c`, left to right."""
    if isinstance(e, gast.BinOp) and isinstance(e.op, gast.Add):
        return _added_parts(e.left) + _added_parts(e.right)
    return [e]


def _sliced_list(part):
    """The list name a desugared slice `xs[i:j]` reads, or None."""
    if getattr(part, "fresh_list", False) and isinstance(part.value, gast.Name):
        return part.value.id
    return None
