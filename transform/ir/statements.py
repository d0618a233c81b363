"""The typed three-address form (docs/ir.md): one class per statement kind, built from
the Prim-tagged gast after stage 4 (ir/typed.py) and lowered to gast at the end
(ir/lower_gast.py).

    t1 = np.sin(x)          RuleCall    target t1, rule np.sin, inputs {x: x}
    n1 = len(xs)            NonDiff
    h = layer(W, x)         Call        fn layer, args [W, x]
    y = g(x)                Custom      (a registered rrule)
    z = t1                  Copy        source t1
    p = (a, b)              Pack        args [a, b]
    b[i] = v                SetItem     base b, index i, value v
    acc.append(v)           Append      acc, value v, method "append" or "extend"
    n1 += 1                 Count       a loop's trip counter (control.py)
    for / while / if        For, While, If, with typed bodies
    break, continue, pass, return

Expressions stay gast (atoms: Names, Constants, an index's slices). Each statement keeps
the gast node it was built from (`node`: its location, comments and marks) and answers
`site`, the user's node for errors. The fields read through to the node, so a mode that
rewrites a loop's target or a statement's value rewrites what is lowered.
`Emitted` holds a statement forward mode generated (a tangent), gast until its generated
code is typed too; reverse mode's is typed (docs/ir.md): its tape traffic here, the rest
in ir/generated.py:

    tape.append(z)          Push        value z (`shape_only`: tape.append(shape_only(z))),
                                        pair_id (shared with the Pop reading it back)
    z = pop()               Pop         target z, pair_id
    dz = accum(dz, c)       Accumulate  target dz, value c, mode "accum" (analysis/accumulation.py)

Lowered, their gast nodes are marked with them (`typed_of`), and the optimiser's passes
match these classes instead of recognising the gast.
"""
import copy

import gast


class Statement:
    """One statement of the typed form; node: the gast statement it stands for."""

    def __init__(self, node):
        self.node = node

    @property
    def site(self):
        """The user's node behind the statement, for errors (the Prim's site, if any)."""
        return getattr(getattr(self, "prim", None), "site", None) or self.node

    def __repr__(self):
        return f"<{type(self).__name__} line {getattr(self.node, 'lineno', '?')}>"


class Emitted(Statement):
    """A gast statement a mode generated beside the user's (a tangent, a refusal)."""


class Push(Statement):
    """`tape.append(value)`, or `tape.append(shape_only(value))` when the backward sweep
    reads only its shape, and the end-of-line comment saying why (`comment`, a marker).
    `pair_id`: the id it shares with the one `Pop` that reads the entry back (read off
    the lowered gast through the typed mark: ir/recognize.pair_of)."""

    def __init__(self, node, comment=None, pair_id=None):
        super().__init__(node)
        self.comment, self.pair_id = comment, pair_id

    @property
    def saved(self):
        """What is appended: the name, or `shape_only(name)`."""
        return self.node.value.args[0]

    @property
    def shape_only(self):
        return isinstance(self.saved, gast.Call)

    @property
    def value(self):
        """The name saved."""
        return (self.saved.args[0] if self.shape_only else self.saved).id


class Pop(Statement):
    """`target = pop()`: the backward sweep restoring a saved name (last in, first out);
    `pair_id` its `Push`'s."""

    def __init__(self, node, pair_id=None):
        super().__init__(node)
        self.pair_id = pair_id

    @property
    def target(self):
        return self.node.targets[0].id


class Accumulate(Statement):
    """A contribution `value` added into the adjoint `target`, the way `mode` says
    (the loop pass picks it, analysis/accumulation.py): "set" `d = v` (d was zero),
    "own" `d = own(v)`, "in_place" `d += v`, "sum" `d = d + v`, "accumulate_unbroadcast"
    `d = accumulate_unbroadcast(d, c, x)` for v = `unbroadcast(c, x)`, else a runtime
    helper's role (accum, accum_flat, accum_nested, accum_eager, accumulate_into):
    `d = helper(d, v)`. No node until lowered: the lowering builds it."""

    def __init__(self, target, value, mode):
        super().__init__(None)
        self._target, self._value, self.mode = target, value, mode

    # Lowered, the fields read through to the node (a pass folding into the value is
    # seen): `d += v` | `d = v` | `d = own(v)` | `d = d + v` | `d = helper(d, v)`.
    @property
    def target(self):
        node = self.node
        if node is None:
            return self._target
        return (node.target if isinstance(node, gast.AugAssign) else node.targets[0]).id

    @property
    def value(self):
        node, mode = self.node, self.mode
        if node is None:
            return self._value
        if mode in ("in_place", "set"):
            return node.value
        if mode == "sum":
            return node.value.right
        if mode == "accumulate_unbroadcast":        # d = accumulate_unbroadcast(d, c, x)
            return gast.Call(func=self._value.func, args=node.value.args[1:], keywords=[])
        return node.value.args[-1]                   # own(v), helper(d, v)


def typed_of(node):
    """The typed statement a lowered gast statement stands for, else None: the gast
    lowering marks the nodes of the generated statements it lowers (`Push`, `Pop`,
    `Accumulate`: `node.typed`), which the optimiser matches instead of recognising gast.
    Marks are plain attributes, so a copy of a node keeps it: answered for the copy."""
    s = getattr(node, "typed", None)
    if s is not None and s.node is not node:
        s = copy.copy(s)
        mark_typed(node, s)
    return s


def mark_typed(node, s):
    """Mark `node` as the lowered form of the typed statement `s` (None: of none, for a
    pass that rewrote it into something else)."""
    node.typed = s
    if s is not None:
        s.node = node


class Pass(Statement):
    pass


class Break(Statement):
    pass


class Continue(Statement):
    pass


class Return(Statement):
    @property
    def value(self):
        return self.node.value


class Simple(Statement):
    """A statement doing one operation, described by its Prim (ir/primitives.py)."""

    def __init__(self, node, prim):
        super().__init__(node)
        self.prim = prim

    @property
    def bound(self):
        """The names the statement binds."""
        return {n.id for n in gast.walk(self.node)
                if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store)}


class NonDiff(Simple):
    """No derivative: a test, a counter's start, a check, `raise`, `assert`, `len(x)`."""


class Count(Simple):
    """`n1 += 1`: a loop's trip counter (lowering/control.py), an integer."""

    @property
    def target(self):
        return self.node.target.id


class Assignment(Simple):
    """`target = value`: one name bound to one operation's result."""

    @property
    def target(self):
        return self.node.targets[0].id

    @property
    def value(self):
        return self.node.value

    @value.setter
    def value(self, expr):
        self.node.value = expr


class RuleCall(Assignment):
    """A registered template rule: `rule`, `inputs` {parameter: atom}, defaults filled."""

    @property
    def rule(self):
        return self.prim.rule

    @property
    def inputs(self):
        return self.prim.inputs


class Call(Assignment):
    """A user function compiled to its own rule (`fn`), a user object's method
    (`method`) or a callable value (`method` "__call__", args[0] the callable)."""

    @property
    def fn(self):
        return self.prim.fn

    @property
    def args(self):
        return self.prim.args

    @property
    def method(self):
        return getattr(self.prim, "method", None)


class Custom(Assignment):
    """A registered rrule (a pullback, no templates): `rule`, `args` by position."""

    @property
    def rule(self):
        return self.prim.rule

    @property
    def args(self):
        return self.prim.args


class Copy(Assignment):
    """A second name for `source` (also `seq = iterable(xs)` before a loop)."""

    @property
    def source(self):
        return self.prim.args[0]


class Pack(Assignment):
    """A display of atoms: a tuple, list or dict (`args`; a dict's keys on the Prim;
    `label` "tuple", "list" or "dict")."""

    @property
    def args(self):
        return self.prim.args

    @property
    def label(self):
        return self.prim.label


class SetItem(Simple):
    """`base[index] = value`: an element store."""

    @property
    def base(self):
        return self.node.targets[0].value

    @property
    def index(self):
        return self.prim.inputs["index"]

    @property
    def value(self):
        return self.prim.args[1]


class Append(Simple):
    """`acc.append(value)` or `acc.extend(value)` (`method`): a list grown in place."""

    @property
    def acc(self):
        return self.prim.args[0]

    @property
    def value(self):
        return self.prim.args[1]

    @property
    def method(self):
        return self.prim.kind


class Control(Statement):
    """A loop or a branch: typed `body` and `orelse`, lowered with the node."""

    def __init__(self, node, body, orelse):
        super().__init__(node)
        self.body, self.orelse = body, orelse


class Loop(Control):
    """`for` or `while`: `count`, the trip counter control.py gave it (None: a whole
    range, walked again without one)."""

    @property
    def count(self):
        return getattr(self.node, "count", None)


class For(Loop):
    @property
    def iter_kind(self):
        """What the header walks (normalize_loops.py): "range", "seq", "enumerate",
        "items", "zip"; `seqs` the names it walks."""
        return self.node.iter_kind

    @property
    def seqs(self):
        return self.node.seqs

    @property
    def target(self):
        return self.node.target

    @target.setter
    def target(self, node):
        self.node.target = node

    @property
    def iter(self):
        return self.node.iter

    @iter.setter
    def iter(self, node):
        self.node.iter = node


class While(Loop):
    @property
    def test(self):
        return self.node.test


class If(Control):
    @property
    def test(self):
        return self.node.test


# a simple statement's class by its Prim's kind (Assign to a name, unless noted)
BY_KIND = {"rule": RuleCall, "nondiff": NonDiff, "call": Call, "custom": Custom,
           "copy": Copy, "pack": Pack}
