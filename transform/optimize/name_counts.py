"""Name counts of an rrule, found by one scan and kept exact by the passes that edit it
(transform/passes.py): how often each name is mentioned, and what each assignment's
value reads.

    t1 = x * W            counts: {t1: 2, x: 1, W: 1, y: 2}   (pullback's separately)
    y = np.sum(t1)        value_loads: {t1 = x * W: {x, W}, y = np.sum(t1): {np, t1}}
"""
import gast

from ..ir.nodes import count_names, name_ids, names_below, statements

_VALUED = (gast.Assign, gast.AugAssign, gast.Return)
_BLOCKS = ("body", "orelse", "finalbody")


class NameCounts:
    """How many Name nodes mention each id: in the whole rrule (`total`) and in the
    pullback's body (`pullback`; its parameters not included). Passes that edit the tree
    and keep these exact report each edit with `add` / `remove`."""

    def __init__(self, total, pullback, value_loads=None):
        self.total, self.pullback = total, pullback
        # id(statement) -> (statement, names its value loads), for the assignments and
        # returns outside comprehension-like nests, found by the same scan; passes keep
        # it exact (forget what they change). (The gast fold pass read it; since session
        # 39 the folds are typed and no pass does: the checked run still compares it.)
        self.value_loads = value_loads

    @classmethod
    def of(cls, rrule, pullback):
        inner, outer, loads = {}, {}, {}
        _scan(pullback.body, inner, loads)
        body, pullback.body = pullback.body, []         # count the rest without it
        try:
            _scan([rrule], outer, loads)
        finally:
            pullback.body = body
        for name, n in inner.items():
            outer[name] = outer.get(name, 0) + n
        return cls(outer, inner, loads)

    def loads_of(self, s):
        """The names s's value loads, if known (the statement unchanged since the scan)."""
        entry = self.value_loads.get(id(s)) if self.value_loads is not None else None
        return entry[1] if entry is not None and entry[0] is s else None

    def changed(self, s):
        """s's value changed: forget what the scan found in it."""
        if self.value_loads is not None:
            self.value_loads.pop(id(s), None)

    def get(self, name):
        """Mentions of `name` in the whole rrule."""
        return self.total.get(name, 0)

    def shift(self, name, delta, in_pullback):
        self.total[name] = self.total.get(name, 0) + delta
        if in_pullback:
            self.pullback[name] = self.pullback.get(name, 0) + delta

    def add(self, node, in_pullback, sign=1):
        """Count the names below `node` (a subtree put into the rrule)."""
        for name, n in count_names(node, {}).items():
            self.shift(name, sign * n, in_pullback)

    def remove(self, node, in_pullback):
        """Uncount the names below `node` (a subtree taken out of the rrule)."""
        self.add(node, in_pullback, -1)

    def drift(self, other):
        """The names whose counts differ from `other`'s: (kept, recounted) pairs."""
        return {(where, k): (mine.get(k, 0), theirs.get(k, 0))
                for where, mine, theirs in (("total", self.total, other.total),
                                            ("pullback", self.pullback, other.pullback))
                for k in set(mine) | set(theirs) if mine.get(k, 0) != theirs.get(k, 0)}

    @classmethod
    def recount(cls, rrule, pullback):
        """The counts as a plain walk finds them (no scan shared with anything)."""
        inner = count_names(gast.Module(body=pullback.body, type_ignores=[]), {})
        return cls(count_names(rrule, {}), inner)

    def stale_loads(self, rrule):
        """The statements still in `rrule` whose recorded loads are not what they load."""
        if self.value_loads is None:
            return []
        present = {id(s) for s in statements(rrule)}
        return [s for key, (s, read) in self.value_loads.items()
                if key in present and read != name_ids(s.value, gast.Load)]

    def same_as(self, other):
        nonzero = lambda d: {k: v for k, v in d.items() if v}
        return nonzero(self.total) == nonzero(other.total) \
            and nonzero(self.pullback) == nonzero(other.pullback)


def _scan(block, counts, loads):
    """Count the names in the statements of `block` (nested blocks included) into
    `counts`, and record each valued statement's loads into `loads`."""
    for s in block:
        if type(s) in _VALUED and s.value is not None:
            read = set()
            for n in names_below(s.value):
                counts[n.id] = counts.get(n.id, 0) + 1
                if type(n.ctx) is gast.Load:
                    read.add(n.id)
            loads[id(s)] = (s, read)
            targets = s.targets if type(s) is gast.Assign else \
                [s.target] if type(s) is gast.AugAssign else []
            for t in targets:
                count_names(t, counts)
            continue
        for field in s._fields:
            value = getattr(s, field, None)
            if field in _BLOCKS and type(value) is list:
                _scan(value, counts, loads)
            elif type(value) is list:
                for v in value:
                    count_names(v, counts)
            elif isinstance(value, gast.AST):
                count_names(value, counts)
