"""The typed form (ir/statements.py) lowered to gast, the input of emit's renderer.

Each kind has its method (`lower_<class>`, found along the class's bases); a second
lowering (issue 20's numba backend: no closures, no `del`, tapes read by index) would
be another class with the same methods. A statement no method knows is refused at
its line, never dropped. `names` (the Vocabulary) makes the runtime helpers' marked
names for the statements built at lowering (`Accumulate`, ir/generated.py's).
"""
import gast

from .generated import Generated
from .lower_generated import GeneratedLowering, generated_out_of_step
from .nodes import assign, load, store
from .recognize import is_call
from .statements import Accumulate, Pop, Push, mark_typed, typed_of
from .vocabulary import role_of


class GastLowering(GeneratedLowering):
    """Typed statements -> gast statements; simple ones are their own node."""

    def __init__(self, src, names=None):
        self.src, self.names = src, names

    def block(self, stmts):
        out = []
        for s in stmts:
            out.extend(self.statement(s))
        return out

    def statement(self, s):
        for cls in type(s).__mro__:
            method = getattr(self, "lower_" + cls.__name__, None)
            if method is not None:
                return method(s)
        raise self.src.error(f"internal compiler error: a typed `{type(s).__name__}` "
                             "statement the gast lowering does not know", s.node,
                             hint="please report this with the function's source")

    def lower_Simple(self, s):
        return [s.node]

    def lower_Emitted(self, s):
        return [s.node]

    # The generated statements' nodes are marked with their typed statement
    # (`statements.typed_of`): the optimiser matches the classes, not the gast.

    def lower_Push(self, s):
        """`tape.append(v)` and its end-of-line comment, marked as the compiler makes them
        (the typed mark carries the pair's id: `recognize.pair_of`)."""
        mark_typed(s.node, s)
        return [s.node] + ([s.comment] if s.comment is not None else [])

    def lower_Pop(self, s):
        mark_typed(s.node, s)
        return [s.node]

    def lower_Accumulate(self, s):
        node = self.accumulation(s.target, s.value, s.mode)
        mark_typed(node, s)
        return [node]

    def accumulation(self, d, v, mode):
        """`d = v`, `d = own(v)`, `d += v`, `d = d + v` or `d = helper(d, v)` by the mode."""
        if mode == "in_place":
            return gast.AugAssign(target=store(d), op=gast.Add(), value=v)
        if mode == "set":
            return assign(d, v)
        if mode == "own":
            return assign(d, self.names.call("own", v))
        if mode == "sum":
            return assign(d, gast.BinOp(left=load(d), op=gast.Add(), right=v))
        args = v.args if mode == "accumulate_unbroadcast" else [v]
        return assign(d, self.names.call(mode, load(d), *args))

    def lower_Return(self, s):
        return [s.node]

    def lower_Pass(self, s):
        return [s.node]

    def lower_Break(self, s):
        return [s.node]

    def lower_Continue(self, s):
        return [s.node]

    def lower_Control(self, s):
        """A loop or branch: its node with the bodies lowered."""
        s.node.body, s.node.orelse = self.block(s.body), self.block(s.orelse)
        return [s.node]


def to_gast(src, stmts, names=None):
    """The gast statements of a typed block."""
    return GastLowering(src, names).block(stmts)


def out_of_step(node, names):
    """Whether a marked node is no longer what its typed statement stands for (a pass
    changed its shape and did not re-mark it: `statements.mark_typed`); the pass
    manager checks every pass so when the tests ask it to. A generated statement's
    (ir/generated.py) shape, targets and helper are checked, not its expressions."""
    s = typed_of(node)
    if isinstance(s, Accumulate):
        built = GastLowering(None, names).accumulation(s.target, s.value, s.mode)
        return gast.dump(built) != gast.dump(node)
    if isinstance(s, Pop):
        return not (isinstance(node, gast.Assign) and is_call(node.value, "pop"))
    if isinstance(s, Push):
        return not (isinstance(node, gast.Expr) and isinstance(node.value.func, gast.Attribute)
                    and role_of(node.value.func.value) == "tape")
    if isinstance(s, Generated):
        return generated_out_of_step(node, s)
    return False


def lowered(s, names=None):
    """The marked gast of one simple typed statement (a node, for a pass that adds a
    generated statement to the lowered sweeps: ir/generated.py's `Scale`, ...)."""
    [node] = GastLowering(None, names).statement(s)
    return node


def lowered_accumulation(target, value, mode, names):
    """The marked gast of `Accumulate(target, value, mode)`, for a pass that adds one."""
    return lowered(Accumulate(target, value, mode), names)
