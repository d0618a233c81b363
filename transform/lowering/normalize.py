"""Stage 3, normalize: one operation per statement, each tagged with its Prim.

    h = np.tanh(W @ x + b)        t1 = W @ x
                           ->     t2 = t1 + b
                                  h = np.tanh(t2)

Augmented assignment, conditional expressions, tuple targets, comprehensions
and generator expressions become plain statements and loops. Tests of `if`
and `while` stay as written: their values never carry a derivative.
"""
import gast

import runtime

from ..ir.nodes import assign, const, load, walk
from .normalize_calls import CallNormalizer
from .normalize_loops import LoopNormalizer
from ..ir.primitives import BINOPS, NONDIFF_ATTRIBUTES, UNARYOPS, Prim, from_rule, rule_for
from .normalize_tricks import TrickNormalizer, as_choice, is_fill, picks_operand
from .receivers import index_rule, index_trick
from .displays import has_star, spread_dict, spread_display
from .receiver_kinds import _static_value, may_be_object
from .sequence_kinds import may_repeat, sequence_names
from .syntax_facts import negative_literal
from .unpack_displays import unpack_into
from .functions_as_values import ClosureRecords, free_locals
from .operator_methods import OperatorMethods
from .integer_results import integer_read
from .opaque_calls import hoisted, reads_local_def, while_with_local_test

OPAQUE = (gast.Compare, gast.BoolOp, gast.JoinedStr, gast.FormattedValue)

# what to write instead of an expression the normalizer has no lowering for
_EXPR_INSTEAD = {"Starred": "concatenate instead: `ys = xs + [x]` (`list(xs) + [x]` for a "
                            "tuple), or unpack first: `a, b = xs`, then `[a, b, x]`"}

SIMPLE_STATEMENTS = (gast.Assign, gast.AugAssign, gast.Expr, gast.Return)

ARRAY_ATTRIBUTES = NONDIFF_ATTRIBUTES | {"T"}   # read so only of a sure array or number


class Normalizer:
    """Rewrites a function body; `out` collects the statements being emitted."""

    def __init__(self, src, names):
        self.src = src
        self.names = names
        self.out = []
        self.line = None
        self.callees = []
        self.local_defs = {}
        self.inlining = set()
        self.loop_depth = 0                     # loops around the statement being normalized
        self.loops = LoopNormalizer(self)       # for loops, comprehensions
        self.calls = CallNormalizer(self)       # calls, nested defs
        self.tricks = TrickNormalizer(self)     # rewrites that give a call a rule
        self.closures = ClosureRecords(self)    # lambdas and nested defs as values
        self.operators = OperatorMethods(self)  # `a * b` on user objects: their methods

    def block(self, stmts):
        saved, self.out, line = self.out, [], self.line
        for stmt in stmts:
            self.line = getattr(stmt, "lineno", self.line)
            self.statement(stmt)
        block, self.out = self.out, saved
        self.line = line        # a compound statement emitted next is at its own line
        return block

    def emit(self, node, prim=None):
        node.prim = prim
        node.origin_line = self.line
        self.out.append(node)
        return node

    # ---- statements -------------------------------------------------------
    def statement(self, s):
        method = getattr(self, "stmt_" + type(s).__name__, None)
        if method is None:
            raise self.src.error(f"`{type(s).__name__}` statements are not supported", s,
                                 hint="write it with assignments, `if` and loops")
        returns = isinstance(s, gast.Return)
        if isinstance(s, SIMPLE_STATEMENTS) and not (returns and self.inlining):
            # closure arguments expire at its end (none after the function's return;
            # an inlined nested def's return expires them after their call)
            self.closures.within_statement(lambda: method(s), returns)
        else:
            method(s)

    # the parts' statements and expressions, for the dispatch above and in expr()
    def stmt_For(self, s):
        return self.loops.stmt_For(s)

    def stmt_FunctionDef(self, s):
        return self.calls.stmt_FunctionDef(s)

    def expr_Call(self, e, target, discard):
        made = self.operators.builtin_call(e)          # pow(a, b), sum(xs) of user objects
        return self.calls.expr_Call(e, target, discard) if made is None else \
            self.expr(made, target, discard)

    def stmt_Assign(self, s):
        if len(s.targets) == 1:
            return self.assign_to(s.targets[0], s.value)
        value = self.atom(s.value)
        for target in s.targets:
            self.assign_to(target, value)

    def assign_to(self, target, value):
        if isinstance(target, gast.Name):
            return self.expr(value, target.id)
        if isinstance(target, (gast.Tuple, gast.List)):
            return unpack_into(self, target, value)
        if isinstance(target, gast.Subscript):
            return self.write_item(target, self.atom(value))
        raise self.src.error("this assignment target is not supported", target,
                             hint="assign to a local name")

    def write_item(self, target, value):
        """`x[i] = v`: an in-place write the backward sweep can undo."""
        if not isinstance(target.value, gast.Name):
            raise self.src.error("writing into an element of an expression is not supported",
                                 target, hint="give the container a local name first")
        base = target.value.id           # check.py refused writes into shared data
        index = self.index(target.slice)
        node = gast.Assign(targets=[gast.Subscript(value=load(base), slice=index,
                                                   ctx=gast.Store())],
                           value=value, type_comment=None)
        self.emit(node, Prim("setitem", "setitem", args=[load(base), value],
                             inputs={"index": index}))
        return None

    def stmt_AugAssign(self, s):
        if isinstance(s.target, gast.Subscript):
            read = gast.Subscript(value=s.target.value, slice=s.target.slice, ctx=gast.Load())
            value = self.atom(gast.BinOp(left=read, op=s.op, right=s.value))
            return self.write_item(s.target, value)
        if id(s) in getattr(self.src, "shared_augassign", ()):
            # NumPy would update a shared array in place; refuse that at run time
            check = self.names.call("not_shared_array", load(s.target.id),
                                    const(self.where(s)))
            self.emit(gast.Expr(value=check), Prim("nondiff", "check"))
        value = gast.BinOp(left=load(s.target.id), op=s.op, right=s.value)
        value.augmented = True                  # `a += b` runs type(a).__iadd__ if any
        self.expr(gast.copy_location(value, s), s.target.id)

    def where(self, node):
        """`file:line` of a node in the user's source."""
        return f"{self.src.filename}:{self.src.first_line + node.lineno - 1}"

    def stmt_Expr(self, s):
        if isinstance(s.value, gast.Constant):
            return None                          # docstring or bare constant
        if is_fill(s.value, self.src):
            return self.tricks.fill(s.value)
        self.expr(s.value, None, discard=True)

    def stmt_Return(self, s):
        value = self.atom(s.value) if s.value is not None else const(None)
        self.emit(gast.Return(value=value))

    def stmt_If(self, s):
        cond = self.names.new("cond")
        self.emit(assign(cond, hoisted(self, s.test)), Prim("nondiff", "test"))
        node = gast.If(test=load(cond), body=self.block(s.body) or [gast.Pass()],
                       orelse=self.block(s.orelse))
        self.emit(node)

    def stmt_While(self, s):
        s = while_with_local_test(s) if reads_local_def(self, s.test) else s
        self.loop_depth += 1
        try:
            body = self.block(s.body) or [gast.Pass()]
        finally:
            self.loop_depth -= 1
        node = gast.While(test=s.test, body=body, orelse=[])
        self.emit(node)

    def stmt_Break(self, s):
        self.emit(gast.Break())

    def stmt_Continue(self, s):
        self.emit(gast.Continue())

    def stmt_Pass(self, s):
        return None

    def stmt_Raise(self, s):
        self.emit(s, Prim("nondiff", "raise"))

    def stmt_Assert(self, s):
        s.test = hoisted(self, s.test)
        self.emit(s, Prim("nondiff", "assert"))

    # ---- expressions ------------------------------------------------------
    def atom(self, e):
        """An atom (Name, Constant, or static reference) holding the value of `e`."""
        if isinstance(e, gast.Name) and e.id in self.local_defs:
            fdef = self.local_defs[e.id]          # a closure record, made where it is used
            return load(self.closures.record(fdef, fdef.args.defaults))
        if isinstance(e, (gast.Name, gast.Constant)):
            return e
        if isinstance(e, gast.Attribute) and self.src.resolve(e) is not None:
            return e                            # np.pi, math.e: a constant
        return load(self.expr(e, None))

    def expr(self, e, target, discard=False):
        """Emit statements computing `e` into `target` (a new temporary if None)."""
        method = getattr(self, "expr_" + type(e).__name__, None)
        if picks_operand(e):            # `xs or [x]` is xs or [x], not an opaque boolean
            return self.expr_IfExp(as_choice(e, self.atom(e.values[0])), target, discard)
        if isinstance(e, OPAQUE) or method is None and isinstance(e, gast.expr):
            if method is None and not isinstance(e, OPAQUE):
                kind = type(e).__name__
                raise self.src.error(f"`{kind}` expressions are not supported", e,
                                     hint=_EXPR_INSTEAD.get(kind, "compute it in plain "
                                                            "steps, one per line"))
            return self.finish(target, hoisted(self, e), Prim("nondiff", type(e).__name__))
        return method(e, target, discard) if method else None

    def finish(self, target, value, prim, discard=False):
        if discard and prim.kind in ("nondiff", "append", "extend"):
            self.emit(gast.Expr(value=value), prim)
            return None
        if target is not None and prim.kind not in ("nondiff", "copy") and \
                any(isinstance(n, gast.Name) and n.id == target for n in walk(value)):
            # `s = s * x` reads the old s in its adjoint: compute into a temporary first
            temp = self.names.new("t")
            self.emit(assign(temp, value), prim)
            return self.finish(target, load(temp), Prim("copy", "copy", args=[load(temp)]))
        target = target or self.names.new("t")
        self.emit(assign(target, value), prim)
        return target

    def expr_Name(self, e, target, discard):
        e = self.atom(e)        # `h = g`, g a nested def: its closure record (else e)
        return self.finish(target, e, Prim("copy", "copy", args=[e]))

    def expr_Constant(self, e, target, discard):
        return self.finish(target, e, Prim("nondiff", "constant"))

    def expr_Attribute(self, e, target, discard):
        if self.src.resolve(e) is not None:
            return self.finish(target, e, Prim("nondiff", "constant"))
        base = self.atom(e.value)
        node = gast.Attribute(value=base, attr=e.attr, ctx=gast.Load())
        # `d.shape`, `d.T` of a user object are its own attributes: getattr's rule
        array = e.attr in ARRAY_ATTRIBUTES and not may_be_object(self.src, e.value)
        checked = integer_read(self, e, node)     # a property `len(self.c) - 1`
        if e.attr in NONDIFF_ATTRIBUTES and array or checked is not None:
            return self.finish(target, checked or node, Prim("nondiff", e.attr))
        if e.attr == "T" and array:
            import numpy as np
            return self.finish(target, node, from_rule(rule_for(np.transpose), [base], {}, ".T"))
        prim = from_rule(rule_for(getattr), [base, const(e.attr)], {}, "getattr")
        prim.site = e
        if e.attr in NONDIFF_ATTRIBUTES and _static_value(self.src, e.value) is None:
            prim.metadata = e.attr      # an array's if a refusal says so (analysis/metadata.py)
        return self.finish(target, node, prim)

    def expr_BinOp(self, e, target, discard):
        left, right = self.atom(e.left), self.atom(e.right)
        return self.operators.binop(e, left, right, target, getattr(e, "augmented", False),
                                    lambda t: self.arithmetic(e, left, right, t)) or \
            self.arithmetic(e, left, right, target)

    def arithmetic(self, e, left, right, target):
        if isinstance(e.op, gast.Mult) and (self.is_sequence(e.left) or
                                            self.is_sequence(e.right)):
            return self.repeat(e, left, right, target)
        fn = BINOPS[type(e.op)]
        if isinstance(e.op, gast.Mult) and may_repeat(self.src, e.left, e.right):
            fn = runtime.TEMPLATE_NAMESPACE["product_or_repeat"]
        node = gast.BinOp(left=left, op=e.op, right=right)
        return self.finish(target, node, self.calls.rule_prim(fn, [left, right], {}, e))

    def repeat(self, e, left, right, target):
        """`[a, b] * n` repeats a list, it does not scale it: the copies' cotangents add.

            t = [x] * 3   ->   t = repeat_sequence([x], 3)
        """
        seq, n = (left, right) if self.is_sequence(e.left) else (right, left)
        node = self.names.call("repeat_sequence", seq, n)
        fn = runtime.TEMPLATE_NAMESPACE["repeat_sequence"]
        return self.finish(target, node, from_rule(rule_for(fn), [seq, n], {}, "*"))

    def is_sequence(self, node):
        """Whether `node` is certainly a list or tuple: a display, a comprehension, or a
        name the function binds only to those (a name bound to anything else is not)."""
        if isinstance(node, (gast.List, gast.Tuple, gast.ListComp)):
            return True
        if isinstance(node, gast.Name) and \
                getattr(self.src, "param_kinds", {}).get(node.id) == "list":
            return True                 # a list argument (grad knows the argument's shape)
        return isinstance(node, gast.Name) and node.id in sequence_names(self.src)

    def expr_UnaryOp(self, e, target, discard):
        operand = self.atom(e.operand)
        return self.operators.unary(e, operand, target,
                                    lambda t: self.negation(e, operand, t)) or \
            self.negation(e, operand, target)

    def negation(self, e, operand, target):
        node = gast.UnaryOp(op=e.op, operand=operand)
        prim = self.calls.rule_prim(UNARYOPS[type(e.op)], [operand], {}, e)
        return self.finish(target, node, prim)

    def expr_Subscript(self, e, target, discard):
        import operator
        fn = index_rule(self.src.resolve(e.value))
        if fn is index_trick:
            return self.tricks.index_trick(e, target)
        base = self.atom(e.value)
        index = self.index(e.slice)
        node = gast.Subscript(value=base, slice=index, ctx=gast.Load())
        prim = from_rule(rule_for(fn or operator.getitem), [base, index], {}, "[]")
        prim.site = e
        return self.finish(target, node, prim)

    def index(self, s):
        """An index of atoms; a negative literal stays a literal (`u[1:-1]`, not a
        temporary `t = -1` the tape would keep for every step)."""
        if isinstance(s, gast.Slice):
            parts = [None if p is None else self.index_atom(p)
                     for p in (s.lower, s.upper, s.step)]
            return gast.Slice(lower=parts[0], upper=parts[1], step=parts[2])
        if isinstance(s, gast.Tuple):
            return gast.Tuple(elts=[self.index(p) for p in s.elts], ctx=gast.Load())
        return self.index_atom(s)

    def index_atom(self, e):
        number = negative_literal(e)
        return self.atom(e) if number is None else const(number)

    def expr_IfExp(self, e, target, discard):
        target = target or self.names.new("t")
        cond = self.names.new("cond")
        self.emit(assign(cond, hoisted(self, e.test)), Prim("nondiff", "test"))
        body = self.block_of(lambda: self.expr(e.body, target))
        orelse = self.block_of(lambda: self.expr(e.orelse, target))
        self.emit(gast.If(test=load(cond), body=body, orelse=orelse))
        return target

    def block_of(self, build):
        saved, self.out = self.out, []
        build()
        block, self.out = self.out, saved
        return block

    def expr_Tuple(self, e, target, discard):
        if has_star(e):
            return self.expr(spread_display(e, "tuple"), target)
        elts = [self.atom(x) for x in e.elts]
        node = gast.Tuple(elts=elts, ctx=gast.Load())
        return self.finish(target, node, Prim("pack", "tuple", args=elts))

    def expr_List(self, e, target, discard):
        if has_star(e):
            return self.expr(spread_display(e, "list"), target)
        elts = [self.atom(x) for x in e.elts]
        node = gast.List(elts=elts, ctx=gast.Load())
        return self.finish(target, node, Prim("pack", "list", args=elts))

    def expr_Dict(self, e, target, discard):
        if any(k is None for k in e.keys):
            return self.expr(spread_dict(e), target)
        if any(not isinstance(k, gast.Constant) for k in e.keys):
            raise self.src.error("dict literals need constant keys", e,
                                 hint="build the dict with d[key] = value")
        values = [self.atom(v) for v in e.values]
        node = gast.Dict(keys=e.keys, values=values)
        prim = Prim("pack", "dict", args=values)
        prim.keys = [k.value for k in e.keys]
        return self.finish(target, node, prim)

    def expr_Lambda(self, e, target, discard):
        captured = free_locals(e, self.src.locals)
        if not captured:
            # reads only its parameters and globals: a constant function, compiled when
            # called (`acts = [np.tanh, lambda z: z * sigmoid(z)]`; functions_as_values.py)
            return self.finish(target, e, Prim("nondiff", "lambda"))
        return self.closures.record(e, e.args.defaults, target)

    def expr_ListComp(self, e, target, discard):
        return self.loops.comprehension(e, target, reduce_sum=False)

    def expr_DictComp(self, e, target, discard):
        return self.loops.comprehension(e, target, reduce_sum=False)

    def expr_GeneratorExp(self, e, target, discard):
        return self.loops.comprehension(e, target, reduce_sum=False)

def normalize_function(src, names):
    """The function body as normalized statements."""
    normalizer = Normalizer(src, names)
    body = normalizer.block(src.node.body)
    if not body or not isinstance(body[-1], gast.Return):
        end = gast.Return(value=const(None))
        end.prim, end.origin_line = None, None
        body.append(end)
    return body, normalizer.callees
