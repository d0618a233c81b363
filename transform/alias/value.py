"""What an expression may refer to (the alias analysis's Value, points_to.py)."""


class Value:
    """What an expression may refer to: objects, whether it is surely an ndarray, and
    whether `+=` on it surely changes it in place (an ndarray, list or dict)."""

    def __init__(self, objs=frozenset(), array=False, in_place=False, elements=None,
                 seq=False):
        self.objs, self.array = frozenset(objs), array
        self.seq = seq   # surely a list, tuple or dict (a display's, a comprehension's):
        #                  an entry read by an index is no view of it
        self.in_place = in_place or array
        self.elements = elements     # a display's entries' Values (`A, B = [], []`)


__all__ = ["Value"]
