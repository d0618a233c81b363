"""Stage 3, normalize: operators on user objects run the class's method, as in Python.

`a * b` where `a` is an instance of a user class defining `__mul__` is `a.__mul__(b)`:
a method call the compiler differentiates like any other (not NumPy's product rule,
which would be a wrong gradient). The source decides where it shows both operands'
types; where it shows only that one may be such an object, `operator_side`
(runtime/operators.py) decides when the code runs:

    v = Vec(x) * 2.0        ->  t1 = Vec(x); v = t1.__mul__(2.0)
    p = p - lr * g          ->  side = operator_side(p, t2, "sub", False, "loss.py:9")
    (p a Params, or not)        if side == 2: p = p.__sub__(t2)
                                elif side == 3: p = t2.__rsub__(p)
                                else: p = p - t2
    a += b                  ->  a = a.__iadd__(b) if type(a) defines it, else as `a + b`
    -a                      ->  a.__neg__()
"""
import builtins
import sys

import gast
import numpy as np

from runtime.operators import (AUGMENTED, FORWARD, PLAIN, REFLECTED, defines,
                               method_names, side_of_types, user_class)

from ..ir.nodes import assign, const, load
from ..ir.primitives import Prim
from ..frontend.source_check import filled
from .receiver_kinds import may_be_object
from .sequence_kinds import bindings

OPERATOR_NAMES = {
    gast.Add: "add", gast.Sub: "sub", gast.Mult: "mul", gast.Div: "truediv",
    gast.Pow: "pow", gast.MatMult: "matmul", gast.FloorDiv: "floordiv", gast.Mod: "mod",
    gast.BitAnd: "and", gast.BitOr: "or", gast.BitXor: "xor", gast.LShift: "lshift",
    gast.RShift: "rshift", gast.USub: "neg", gast.UAdd: "pos", gast.Invert: "invert",
}
_UNKNOWN = None


class OperatorMethods:
    """A Normalizer's part: `a op b`, `op a` and `a op= b` on user objects."""

    def __init__(self, normalizer):
        self.norm, self.src = normalizer, normalizer.src
        self.results = set()            # temporaries holding what a user method returned

    def binop(self, e, left, right, target, augmented, plain):
        """Emit `left op right` (atoms of e's operands); `plain()` emits the arithmetic
        rule. Returns the target, or None when no operand may be a user object."""
        op = OPERATOR_NAMES.get(type(e.op))
        if op is None or not any(self.may_be_user(node) or self.unknown(node) or
                                 self.returned(atom) for node, atom in
                                 ((e.left, left), (e.right, right))):
            return None
        lt, rt = self.type_of(e.left, left), self.type_of(e.right, right)
        if lt is not _UNKNOWN and rt is not _UNKNOWN:
            side = side_of_types(lt, rt, op, augmented)
            if side is None:
                raise self.src.error(
                    f"`{lt.__name__} {op} {rt.__name__}`: NumPy, not "
                    f"{rt.__name__}.{method_names(op)[REFLECTED]}, decides what this "
                    "computes (an array of objects), and the gradient cannot follow it", e,
                    hint=f"call the method: `b.{method_names(op)[REFLECTED]}(a)`")
            return self.call(e, side, op, (left, right), target) if side != PLAIN \
                else plain(target)
        return self.dispatch(e, op, (left, right), target, augmented, plain)

    def unary(self, e, operand, target, plain, op=None):
        """`-a` (or `abs(a)`, op "abs": e the call) where a may be a user object."""
        node = e.args[0] if op == "abs" else e.operand
        op = op or OPERATOR_NAMES.get(type(e.op))
        if op is None or not (self.may_be_user(node) or self.unknown(node) or
                              self.returned(operand)):
            return None
        known = self.type_of(node, operand)
        if known is not _UNKNOWN:
            side = side_of_types(known, None, op, False)
            return self.call(e, side, op, (operand, None), target) if side != PLAIN \
                else plain(target)
        return self.dispatch(e, op, (operand, None), target, False, plain)

    def call(self, e, side, op, operands, target):
        """`a.__op__(b)` (or `b.__rop__(a)`, `a.__iop__(b)`, `a.__neg__()`) into target."""
        name = method_names(op)[side]
        receiver, other = operands if side != REFLECTED else operands[::-1]
        call = gast.Call(func=gast.Attribute(value=receiver, attr=name, ctx=gast.Load()),
                         args=[] if other is None else [other], keywords=[])
        gast.copy_location(call, e)
        gast.copy_location(call.func, e)
        target = self.norm.expr(call, target)
        self.results.add(target)
        return target

    def dispatch(self, e, op, operands, target, augmented, plain):
        """Decide when the code runs: one branch per method Python may call."""
        target = target or self.norm.names.new("t")
        side = self.norm.names.new("side")
        b = operands[1] if operands[1] is not None else const(None)
        line = getattr(e, "lineno", None) or self.norm.line or 1   # (sum(...)'s own +)
        where = f"{self.src.filename}:{self.src.first_line + line - 1}"
        test = self.norm.names.call("operator_side", operands[0], b, const(op),
                                    const(augmented), const(where))
        self.norm.emit(assign(side, test), Prim("nondiff", "test"))
        sides = [FORWARD] + ([REFLECTED] if operands[1] is not None else []) + \
            ([AUGMENTED] if augmented else [])
        orelse = self.norm.block_of(lambda: plain(target))
        for k in reversed(sides):
            body = self.norm.block_of(lambda k=k: self.call(e, k, op, operands, target))
            orelse = self.norm.block_of(lambda k=k: self._branch(side, k, body, orelse))
        self.norm.out.extend(orelse)
        return target

    def _branch(self, side, k, body, orelse):
        """`cond = side == k; if cond: body else: orelse` (a test by name: the backward
        sweep replays the branch each iteration took, analysis/activity.py)."""
        cond = self.norm.names.new("cond")
        test = gast.Compare(left=load(side), ops=[gast.Eq()], comparators=[const(k)])
        self.norm.emit(assign(cond, test), Prim("nondiff", "test"))
        self.norm.emit(gast.If(test=load(cond), body=body, orelse=orelse))

    def builtin_call(self, e):
        """`pow(a, b)` and `sum(xs)` in a module with operator classes: `a ** b` and
        `sum(x for x in xs)`, whose operators dispatch (the builtins' rules are
        arithmetic: a user class's `__add__` would get NumPy's derivative); `abs(a)`:
        `a.__abs__()` where a may be such an object (emitted here: its atom returned)."""
        if not self.operator_module() or e.keywords or \
                any(isinstance(a, gast.Starred) for a in e.args):
            return None
        fn = self._resolved(e.func)
        if fn is builtins.abs and len(e.args) == 1:        # `__abs__`, or abs's rule
            operand = self.norm.atom(e.args[0])

            def rule(t):
                call = gast.Call(func=e.func, args=[operand], keywords=[])
                return self.norm.calls.expr_Call(gast.copy_location(call, e), t, False)
            return load(self.unary(e, operand, None, rule, "abs") or rule(None))
        if fn is builtins.pow and len(e.args) == 2:
            return gast.copy_location(gast.BinOp(left=e.args[0], op=gast.Pow(),
                                                 right=e.args[1]), e)
        if fn is builtins.sum and len(e.args) == 1 and \
                not isinstance(e.args[0], gast.GeneratorExp):
            item = self.norm.names.new("item")
            loop = gast.comprehension(target=gast.Name(id=item, ctx=gast.Store(),
                                                       annotation=None, type_comment=None),
                                      iter=e.args[0], ifs=[], is_async=0)
            items = gast.GeneratorExp(elt=load(item), generators=[loop])
            return gast.copy_location(gast.Call(func=e.func, args=[items], keywords=[]), e)
        return None

    def operator_module(self):
        """Whether the function's module (or closure) names a class with operator methods."""
        if not hasattr(self.src, "operator_classes"):
            self.src.operator_classes = _operator_classes(self.src.fn)
        return bool(self.src.operator_classes)

    # ---- what the source shows about an operand ---------------------------------
    def may_be_user(self, node, seen=None):
        """Whether the source shows `node` may hold an instance of a user class: built
        by a call to one, a module-level one, or a local name bound to such a value."""
        seen = set() if seen is None else seen
        if isinstance(node, gast.Call):
            return user_class(self._resolved(node.func))
        if isinstance(node, gast.Name) and node.id in self.src.params:
            return False                                   # what the caller passes
        if isinstance(node, gast.Name) and node.id in self.src.locals:
            if node.id in seen:
                return False
            seen.add(node.id)
            return any(v is not None and self.may_be_user(v, seen)
                       for v in bindings(self.src).get(node.id, ()))
        if isinstance(node, (gast.Name, gast.Attribute)):
            return user_class(type(self._resolved(node)))
        if isinstance(node, gast.BinOp):
            return self.may_be_user(node.left, seen) or self.may_be_user(node.right, seen)
        if isinstance(node, gast.UnaryOp):
            return self.may_be_user(node.operand, seen)
        return False

    def unknown(self, node):
        """Whether `node` may be an object the source does not show (an argument, a loop
        variable, an item) in a module that defines a class with operator methods."""
        return self.operator_module() and may_be_object(self.src, node)

    def returned(self, atom):
        """Whether the atom is a temporary a user method (an operator's) returned."""
        return isinstance(atom, gast.Name) and atom.id in self.results

    def type_of(self, node, atom):
        """The operand's type where the source fixes it, else _UNKNOWN."""
        if self.returned(atom):
            return _UNKNOWN
        kind = getattr(self.src, "param_kinds", {}).get(getattr(node, "id", None))
        if isinstance(node, gast.Name) and node.id in self.src.params and kind:
            return {"array": np.ndarray, "scalar": float, "list": list}[kind]
        if isinstance(node, gast.Constant):
            return type(node.value)
        if isinstance(node, gast.Call):
            cls = self._resolved(node.func)
            return cls if user_class(cls) else _UNKNOWN
        if isinstance(node, gast.Name) and node.id in self.src.locals:
            values = bindings(self.src).get(node.id, [None])
            if len(values) == 1 and isinstance(values[0], gast.Call):
                return self.type_of(values[0], None)
        elif isinstance(node, (gast.Name, gast.Attribute)) and \
                not (isinstance(node, gast.Name) and node.id in self.src.params):
            value = self._resolved(node)
            if value is not None:
                return type(value)
        return _UNKNOWN

    def _resolved(self, node):
        try:
            return self.src.resolve(node)
        except Exception:                     # an unhashable or raising attribute
            return None


def _operator_classes(fn):
    """The user classes with operator methods the function's module (or closure) names."""
    values = list(getattr(fn, "__globals__", {}).values())
    values += [c.cell_contents for c in getattr(fn, "__closure__", None) or ()
               if filled(c)]
    return [v for v in values if isinstance(v, type) and not _standard_library(v) and
            any(defines(v, name) for op in set(OPERATOR_NAMES.values())
                for name in method_names(op).values())]


def _standard_library(cls):
    """`pathlib.Path` (its `/`), `enum.Flag` (its `|`): never given values to differentiate."""
    module = (getattr(cls, "__module__", "") or "").split(".")[0]
    return module in sys.stdlib_module_names
