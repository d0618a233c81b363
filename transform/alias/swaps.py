"""Stage 2, check, swaps: `u, un = un, u` exchanges two buffers without merging them.

Double buffering in a simulation loop swaps two arrays each step:

    u, un = u0.copy(), np.zeros_like(u0)     # u -> {site1}, un -> {site2}
    for _ in range(n):
        un[1:-1] = u[1:-1] + ...             # writes site2 only
        u, un = un, u                        # u -> {site2}, un -> {site1} ...

Joined at the loop head that would give both names {site1, site2}, so the write into
`un` looks like a write into memory `u` may share. But a name that refers to exactly
one object (`site1`, the latest made at its site, not a summary `site1*`) names one
array; a permutation of such names only exchanges which label means which array. So
the swap relabels the objects instead (site1 <-> site2 everywhere in the state): the
names keep their labels, every other name and container follows its array, and the
sets stay disjoint:

    u, un = un, u                            # u -> {site1}, un -> {site2}; t -> {site2}
                                             # for a view t = u[1:] made before it
"""
import gast


def swap_labels(state, stmt):
    """The object relabelling `a, b = b, a` (any permutation of plain names) amounts
    to, or None when a name may refer to more than one object (then the assignment
    is an ordinary one)."""
    if len(stmt.targets) != 1:
        return None
    target, value = stmt.targets[0], stmt.value
    if not all(isinstance(n, (gast.Tuple, gast.List)) for n in (target, value)):
        return None
    lhs, rhs = _names(target.elts), _names(value.elts)
    if lhs is None or rhs is None or len(set(lhs)) != len(lhs) or sorted(lhs) != sorted(rhs) \
            or lhs == rhs:
        return None
    single = {}
    for name in lhs:
        objs = state.names.get(name, frozenset())
        if len(objs) != 1:
            return None
        (obj,) = objs
        if ":" in obj or obj.endswith("*"):     # an argument, global or summary object
            return None
        single[name] = obj
    if len(set(single.values())) != len(single):
        return None
    return {single[v]: single[t] for t, v in zip(lhs, rhs)}


def relabel(state, labels):
    """Rename objects by `labels` (a permutation) in every table of `state`."""
    swap = lambda objs: frozenset(labels.get(o, o) for o in objs)
    state.names = {k: swap(v) for k, v in state.names.items()}
    state.holds = {labels.get(k, k): swap(v) for k, v in state.holds.items()}
    state.multi = set(swap(state.multi))


def swapped_names(src):
    """The names a swap exchanged (src.swapped): a store into one of them writes into
    a copy when the backward sweep reads any of them (reverse.py), since the array it
    writes is the one another of them named before the swap."""
    if not hasattr(src, "swapped"):
        src.swapped = set()
    return src.swapped


def target_names_of(stmt):
    return [e.id for e in stmt.targets[0].elts]


def relabelled(value, labels):
    """A display's Value with its entries' objects renamed by `labels`."""
    entries = [type(e)({labels.get(o, o) for o in e.objs}, e.array, e.in_place)
               for e in value.elements]
    out = type(value)(value.objs, value.array, value.in_place)
    out.elements = entries
    return out


def _names(elts):
    if not all(isinstance(e, gast.Name) for e in elts):
        return None
    return [e.id for e in elts]


__all__ = ["swap_labels", "relabel", "relabelled", "swapped_names", "target_names_of"]
