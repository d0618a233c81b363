"""Zeros forward mode adds for nothing in its code over reverse mode's flat gradient
(hvp forward over reverse, transform/flat_gradient.py).

    t4_dot = t2_dot + zero_addend(t3)     ->   t4_dot = plus_zero(t2_dot, t3)

`x + y` where y carries no tangent and its shape is not known to be the sum's (a name
bound in a loop and read back from the tape, the flat gradient's RNN state) gets the
zeros of y's kind added, which broadcast x's tangent to the sum's shape and dtype.
`plus_zero` (runtime/flat.py) returns the tangent itself when it is an array of y's
shape and dtype already (nothing to broadcast or promote), and adds the zeros otherwise:
the same value, without an allocation and an addition per statement (two per step of
the RNN's loop). Subtraction of such a zero is the same; `zero_addend(y) + e` is
`zero_plus(y, e)`, the zeros first (a list's concatenation is not commutative: `[0, 0]
+ [x_dot]` is not `[x_dot] + [0, 0]`, a wrong H v before)."""
import gast


def fold_zero_addends(function, names):
    """Rewrite `e + zero_addend(y)`, `e - zero_addend(y)` and `zero_addend(y) + e` in
    gast FunctionDef `function` (in place); `names`: the compilation's Vocabulary."""
    helper = names.roles.get("zero_addend")       # its name in this code, if called
    if helper is None:
        return

    def zero_of(node):
        if isinstance(node, gast.Call) and isinstance(node.func, gast.Name) and \
                node.func.id == helper and len(node.args) == 1 and not node.keywords:
            return node.args[0]
        return None

    for node in list(gast.walk(function)):
        for field, value in gast.iter_fields(node):
            if isinstance(value, gast.BinOp):
                setattr(node, field, _folded(value, zero_of, names))
            elif isinstance(value, list):
                value[:] = [_folded(v, zero_of, names) if isinstance(v, gast.BinOp) else v
                            for v in value]


def _folded(node, zero_of, names):
    if isinstance(node.op, (gast.Add, gast.Sub)) and zero_of(node.right) is not None:
        return names.call("plus_zero", node.left, zero_of(node.right))
    if isinstance(node.op, gast.Add) and zero_of(node.left) is not None:
        return names.call("zero_plus", zero_of(node.left), node.right)
    return node
