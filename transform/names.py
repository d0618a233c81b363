"""Fresh, readable names that never collide with the user's."""
import gast


class NameGen:
    """Hands out names like t1, t2, cond1 that the function does not already use."""

    def __init__(self, used):
        self.used = set(used)
        self.counters = {}
        self.temporaries = set()       # names of the normalizer's `t` temporaries

    def new(self, base):
        k = self.counters.get(base, 0)
        while True:
            k += 1
            name = f"{base}{k}"
            if name not in self.used:
                break
        self.counters[base] = k
        self.used.add(name)
        if base == "t":
            self.temporaries.add(name)
        return name

    def reserve(self, name):
        """`name` itself if free, else a numbered variant."""
        if name not in self.used:
            self.used.add(name)
            return name
        return self.new(name + "_")


def load(name):
    return gast.Name(id=name, ctx=gast.Load(), annotation=None, type_comment=None)


def store(name):
    return gast.Name(id=name, ctx=gast.Store(), annotation=None, type_comment=None)


def const(value):
    return gast.Constant(value=value, kind=None)


def assign(name, value):
    return gast.Assign(targets=[store(name)], value=value, type_comment=None)


def names_in(node):
    """Every Name id loaded or stored anywhere below `node`."""
    return {n.id for n in gast.walk(node) if isinstance(n, gast.Name)}
