"""The alias analysis's state at one point of the function (see aliasing.py)."""


class State:
    """names: name -> objects; holds: object -> objects it may contain;
    arrays: names known to hold ndarrays; lists: names known to hold a list, tuple or dict
    (made by a display or a list or dict comprehension: an entry read by an index is no
    view of it); origin: name -> the statement that made it;
    loop_vars: names a `for` header bound (and nothing since); in_place: names
    `+=` surely changes in place (arrays, lists, dicts, copies); multi: objects more than
    one container slot (or a container an unknown call made) may hold, which `xs[i] += v`
    on an array would change for every holder."""

    def __init__(self, names=None, holds=None, arrays=None, origin=None, loop_vars=None,
                 in_place=None, multi=None, lists=None):
        self.names, self.holds = dict(names or {}), dict(holds or {})
        self.arrays, self.origin = set(arrays or ()), dict(origin or {})
        self.loop_vars = set(loop_vars or ())   # names a `for` header bound last
        self.in_place = set(in_place or ())
        self.multi = set(multi or ())
        self.lists = set(lists or ())

    def copy(self):
        return State(self.names, self.holds, self.arrays, self.origin, self.loop_vars,
                     self.in_place, self.multi, self.lists)

    def join(self, other):
        out = self.copy()
        for table, theirs in ((out.names, other.names), (out.holds, other.holds)):
            for key, objs in theirs.items():
                table[key] = table.get(key, frozenset()) | objs
        out.arrays = self.arrays & other.arrays
        out.lists = self.lists & other.lists
        out.in_place = self.in_place & other.in_place
        out.loop_vars = self.loop_vars | other.loop_vars
        out.multi = self.multi | other.multi
        for name, node in other.origin.items():
            out.origin.setdefault(name, node)
        return out

    def same(self, other):
        return self.names == other.names and self.holds == other.holds \
            and self.arrays == other.arrays and self.loop_vars == other.loop_vars \
            and self.in_place == other.in_place and self.multi == other.multi \
            and self.lists == other.lists

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
        """Store objs into each container; an object the container already held is
        now held twice (`d["b"] = y` after `d["a"] = y`, `xs.append(y)` in a loop)."""
        objs = frozenset(objs)
        for c in container:
            self.multi |= objs & self.holds.get(c, frozenset())
            self.holds[c] = self.holds.get(c, frozenset()) | objs

    def held_twice(self, obj):
        """Whether two containers a name reaches may hold obj (`ys = list(xs)`); a
        temporary (the `[h]` of `xs + [h]`) or a rebound name's old list is no holder."""
        named = self.reach(frozenset().union(*self.names.values()))
        return sum(obj in self.holds.get(c, ()) for c in named) > 1

    def age(self, obj):
        """A new object is made at obj's site: earlier ones become obj* (recency)."""
        old = obj + "*"
        if obj in self.multi:                  # the new object is held by nothing yet
            self.multi.discard(obj)
            self.multi.add(old)
        renamed = lambda objs: frozenset(old if o == obj else o for o in objs)
        if not any(obj in objs for objs in self.names.values()) and obj not in self.holds \
                and not any(obj in objs for objs in self.holds.values()):
            return
        self.names = {k: renamed(v) for k, v in self.names.items()}
        held = {k: renamed(v) for k, v in self.holds.items()}
        if obj in held:
            held[old] = held.get(old, frozenset()) | held.pop(obj)
        self.holds = held


__all__ = ["State"]
