"""An analysis of the typed phase (a derived fact, `TypedFacts.lowered_reads`): the
pullback as the gast lowering will make it, built from the typed pullback body with the
statements' own gast operands in it (shared, not copied), so every read of a name is
seen with its parents, the lowering's own among them.

    Accumulate(dx, v, "sum")      ->  dx = dx + v     dx read under `+`, v's root under `+`
    Accumulate(dx, v, "accum")    ->  dx = accum(dx, v)       dx and v read by a call
    ZeroBuffer(d, "x")            ->  d = cotangent_zeros(x)  x read by a call
    def pullback(dout, *, t1=t1)      the seed and the snapshot (a store and a read each)

The typed statements answer what they mention (ir/typed_names.py) but not where a read
sits: `d = d + v` reads d under arithmetic, `d = accum(d, v)` under a call, and a
generated statement's name fields have no node at all. Here each statement without a
node (an `Accumulate`, a generated one) is lowered by the gast lowering itself
(ir/lower_gast.py, its statement left as it was: no node, no mark), a statement that
keeps its node is that node, a loop or branch a copy of its node with the bodies so
modelled; the `def`'s parameters are modelled as lower_sweeps makes them (the seed, and
every name the body binds that is no adjoint, an over-approximation of the snapshot).

The lowering asks the Vocabulary for the helpers' names (`own`, `accum`): those the
pullback's own lowering asks for first thing after the typed phase, in the same order,
so the names chosen do not change (the reverse, hvp and policy-loop dumps: session 40).

A pass (SpreadViews) judges reads by `root` and `parents` and rewrites through `put`:
inside an operand in place (the lowering shares it), an operand's root by setting the
statement's field; `writable(node)` says whether a replacement of node would reach the
typed statements (not inside what the lowering builds or clones, an index).
"""
import copy

import gast

from .expr_shapes import parents_of, replace_child
from ..ir.generated import Generated, ProductSum
from ..ir.lower_gast import GastLowering
from ..ir.nodes import names_below, walk
from ..ir.statements import Accumulate, Control
from ..ir.typed_names import typed_statements


class LoweredReads:
    """The modelled pullback `def` (`root`), its parents, and the way back to the typed
    statements (module docstring)."""

    def __init__(self, backward, params=frozenset(), adjoints=frozenset(), names=None):
        self.lowering = GastLowering(None, names)
        self.setters = {}          # id(an operand's root) -> put a new root in its place
        self.real = set()          # ids of the typed statements' own gast nodes
        body = self._block(backward)
        self.root = gast.FunctionDef(name="pullback", args=_arguments(
            sorted(params), _snapshot(body, backward, adjoints, names)), body=body,
            decorator_list=[], returns=None, type_comment=None, type_params=[])
        self.parents = parents_of(self.root)

    def reads(self, name):
        """The Name nodes reading `name` (their parents: `self.parents`)."""
        return [n for n in names_below(self.root) if n.id == name
                and type(n.ctx) is gast.Load]

    def writable(self, node):
        """Whether putting another node in node's place reaches the typed statements."""
        return id(node) in self.setters or id(self.parents.get(id(node))) in self.real

    def put(self, parent, old, new):
        """Put `new` in `old`'s place below `parent`, in the typed statements too."""
        setter = self.setters.get(id(old))
        if setter is None:
            assert id(parent) in self.real, "a node the lowering builds or clones"
        else:
            setter(new)
        replace_child(parent, old, new)            # (the model kept in step)

    def _block(self, block):
        out = []
        for s in block:
            out.extend(self._statement(s))
        return out

    def _statement(self, s):
        if isinstance(s, Control):
            node = copy.copy(s.node)                 # its header shared, its bodies modelled
            node.body, node.orelse = self._block(s.body), self._block(s.orelse)
            for field in ("target", "iter", "test"):
                if getattr(node, field, None) is not None:
                    self._real(getattr(node, field))
            return [node]
        if isinstance(s, (Accumulate, Generated)):
            if s.node is None:                       # (the typed phase's: none lowered)
                self._roots(s)
            kept = s.node
            nodes = self.lowering.statement(s)
            s.node = kept                            # (the lowering bound it: as it was)
            return nodes
        if isinstance(s.node, gast.AST):
            self._real(s.node)
        return [s.node]

    def _roots(self, s):
        """Setters for the gast operands of a statement without a node, as built."""
        if isinstance(s, Accumulate):
            value = s.value
            if s.mode == "accumulate_unbroadcast":   # `accumulate_unbroadcast(d, c, x)`
                self._list(value.args)
            else:
                self._root(value, lambda new: setattr(s, "_value", new))
            return
        for key, value in list(vars(s).items()):
            if key == "node":
                continue
            if isinstance(value, gast.expr):
                self._root(value, lambda new, key=key: s.__dict__.__setitem__(key, new))
            elif isinstance(value, list):
                self._list(value)

    def _list(self, values):
        for k, v in enumerate(values):
            if isinstance(v, gast.expr):
                self._root(v, lambda new, k=k: values.__setitem__(k, new))

    def _root(self, node, setter):
        self.setters[id(node)] = setter
        self._real(node)

    def _real(self, node):
        self.real.update(id(n) for n in walk(node))


def _snapshot(body, backward, adjoints, names):
    """The names `def pullback(..., *, t1=t1)` takes: what the body binds that is no
    adjoint, no batch (BatchProducts'), no tape reader nor throwaway target (more than
    lower_sweeps' snapshot, which leaves out the callees' cotangent tuples too)."""
    holder = gast.Module(body=body, type_ignores=[])
    stored = {n.id for n in names_below(holder) if type(n.ctx) is gast.Store}
    made = {s.target for s in typed_statements(backward) if isinstance(s, ProductSum)}
    roles = getattr(names, "roles", {})
    ignored = {roles.get("_"), roles.get("pop")}
    return sorted(stored - set(adjoints) - made - ignored)


def _param(name):
    return gast.Name(id=name, ctx=gast.Param(), annotation=None, type_comment=None)


def _arguments(params, snapshot):
    return gast.arguments(args=[_param(p) for p in params], posonlyargs=[], vararg=None,
                          kwonlyargs=[_param(n) for n in snapshot],
                          kw_defaults=[gast.Name(id=n, ctx=gast.Load(), annotation=None,
                                                 type_comment=None) for n in snapshot],
                          kwarg=None, defaults=[])
