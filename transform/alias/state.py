"""The alias analysis's state at one point of the function (see aliasing.py)."""


class State:
    """names: name -> objects; holds: object -> objects it may contain;
    arrays: names known to hold ndarrays; origin: name -> the statement that made it;
    loop_vars: names a `for` header bound (and nothing since); in_place: names
    `+=` surely changes in place (arrays, lists, dicts, copies)."""

    def __init__(self, names=None, holds=None, arrays=None, origin=None, loop_vars=None,
                 in_place=None):
        self.names, self.holds = dict(names or {}), dict(holds or {})
        self.arrays, self.origin = set(arrays or ()), dict(origin or {})
        self.loop_vars = set(loop_vars or ())   # names a `for` header bound last
        self.in_place = set(in_place or ())

    def copy(self):
        return State(self.names, self.holds, self.arrays, self.origin, self.loop_vars,
                     self.in_place)

    def join(self, other):
        out = self.copy()
        for table, theirs in ((out.names, other.names), (out.holds, other.holds)):
            for key, objs in theirs.items():
                table[key] = table.get(key, frozenset()) | objs
        out.arrays = self.arrays & other.arrays
        out.in_place = self.in_place & other.in_place
        out.loop_vars = self.loop_vars | other.loop_vars
        for name, node in other.origin.items():
            out.origin.setdefault(name, node)
        return out

    def same(self, other):
        return self.names == other.names and self.holds == other.holds \
            and self.arrays == other.arrays and self.loop_vars == other.loop_vars \
            and self.in_place == other.in_place

    def reach(self, objs):
        """objs and everything they may hold, transitively."""
        seen, todo = set(objs), list(objs)
        while todo:
            for o in self.holds.get(todo.pop(), ()):
                if o not in seen:
                    seen.add(o)
                    todo.append(o)
        return seen

    def contents(self, objs):
        holds = self.holds
        if not holds:
            return frozenset()
        return frozenset().union(*[holds[o] for o in objs if o in holds])

    def put(self, container, objs):
        for c in container:
            self.holds[c] = self.holds.get(c, frozenset()) | frozenset(objs)

    def age(self, obj):
        """A new object is made at obj's site: earlier ones become obj* (recency)."""
        old = obj + "*"
        renamed = lambda objs: frozenset(old if o == obj else o for o in objs)
        if not any(obj in objs for objs in self.names.values()) and obj not in self.holds:
            return
        self.names = {k: renamed(v) for k, v in self.names.items()}
        held = {k: renamed(v) for k, v in self.holds.items()}
        if obj in held:
            held[old] = held.get(old, frozenset()) | held.pop(obj)
        self.holds = held


__all__ = ["State"]
