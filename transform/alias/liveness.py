"""Which local names may still be read after each statement of the user's function.

Used by the alias check: a second name for written memory is harmless when it is never
read after the write. Over-approximates (a name is live if some path may read it):

    s = a[:1]        # after: {a, s}
    a[0] = w         # after: {s}
    return s[0]      # after: {}
"""
import gast

from ..ir.nodes import name_ids


def uses(node):
    """Names a statement part loads (comprehension variables included: harmless)."""
    if node is None:
        return set()
    return name_ids(node, gast.Load)


def stored(target):
    """Names a plain (not subscript) assignment target binds."""
    if isinstance(target, gast.Name):
        return {target.id}
    if isinstance(target, (gast.Tuple, gast.List)):
        return set().union(*(stored(e) for e in target.elts)) if target.elts else set()
    if isinstance(target, gast.Starred):
        return stored(target.value)
    return set()


def target_uses(target):
    """Names an assignment target reads (`a[i] = v` reads a and i)."""
    if isinstance(target, gast.Name):
        return set()
    if isinstance(target, (gast.Tuple, gast.List)):
        return set().union(*(target_uses(e) for e in target.elts)) if target.elts else set()
    return uses(target)


class Liveness:
    """live_after[id(stmt)]: the names that may be read after `stmt` runs. shape_read:
    a call -> the positions of the arguments it reads only for their shape (the flat
    gradient's `tape.append(shape_snapshot(t))`: a write into memory t shares changes no
    shape, and t's tangent is never read), such a read not counted; None: none does."""

    def __init__(self, body, shape_read=None):
        self.live_after, self.nested, self.shape_read = {}, {}, shape_read
        self.loops = []                         # (live after the loop, live at its head)
        self.block(body, set())
        # a nested def may read its enclosing function's names whenever it is called
        self.always = set().union(*(uses(n) for n in self.nested.values()))

    def after(self, stmt):
        return self.live_after.get(id(stmt), set()) | self.always

    def block(self, stmts, out):
        live = set(out)
        for s in reversed(stmts):
            self.live_after[id(s)] = live
            live = self.statement(s, live)
        return live

    def statement(self, s, out):
        if isinstance(s, gast.Expr):
            return out | self.reads(s.value)
        if isinstance(s, gast.Assign):
            killed = set().union(*(stored(t) for t in s.targets))
            read = self.reads(s.value).union(*(target_uses(t) for t in s.targets))
            return (out - killed) | read
        if isinstance(s, gast.AugAssign):
            return out | uses(s.value) | uses(s.target) | target_uses(s.target) \
                | ({s.target.id} if isinstance(s.target, gast.Name) else set())
        if isinstance(s, gast.If):
            return uses(s.test) | self.block(s.body, out) | self.block(s.orelse, out)
        if isinstance(s, (gast.For, gast.While)):
            return self.loop(s, out)
        if isinstance(s, gast.Return):
            return uses(s.value)
        if isinstance(s, gast.Break):
            return out | self.loops[-1][0]
        if isinstance(s, gast.Continue):
            return out | self.loops[-1][1]
        if isinstance(s, gast.FunctionDef):
            self.nested[id(s)] = s
            return out - {s.name}
        return out | uses(s)

    def reads(self, node):
        """uses(node), less the names read only as a shape_read call's arguments."""
        if self.shape_read is None:
            return uses(node)
        skipped = {id(a) for c in gast.walk(node) if isinstance(c, gast.Call)
                   for k, a in enumerate(c.args)
                   if isinstance(a, gast.Name) and k in self.shape_read(c)}
        return {n.id for n in gast.walk(node) if isinstance(n, gast.Name) and
                type(n.ctx) is gast.Load and id(n) not in skipped}

    def loop(self, s, out):
        """Iterate to a fixpoint: the body's end flows back to the loop head."""
        head = set(out)
        while True:
            self.loops.append((out, head))
            body_in = self.block(s.body, head)
            self.loops.pop()
            if isinstance(s, gast.For):
                new = out | (body_in - stored(s.target)) | target_uses(s.target)
            else:
                new = out | body_in | uses(s.test)
            if new <= head:
                break
            head |= new
        return head | (uses(s.iter) if isinstance(s, gast.For) else set())
