"""Optimization: literal arithmetic a rule template left in the backward sweep is folded.

    dh = g * 2 * h ** (2 - 1)      ->   dh = g * 2 * h
    dx = g * 1 * x ** (1 - 1)      ->   dx = g * x ** 0

A template such as `g * y * x ** (y - 1)` met a literal (`h ** 2`), so the adjoint
carries arithmetic on literals a person would have done in their head. Folding keeps
every value and type exact:

- two int or float literals fold to what Python computes for them at run time (it would
  compute the same thing: the expression is Python arithmetic on Python numbers), when
  the result is a finite, non-negative number that reads no longer than a few digits;
- `e ** 1`, `e * 1` and `1 * e` (the int 1, never `1.0`, which turns ints into floats)
  become `e` only as an operand of arithmetic (`+ - * / ** @`, unary minus), whose result
  is a new value either way: a bare `e` never replaces an expression the generated code
  may store, accumulate into in place or return. `e` there is a cotangent or the
  differentiated primal (a template's literal sits next to them), never a bool, for which
  `e ** 1` would be an int.
"""
import math

import gast

from .passes import Pass
from .typed_expressions import assigned_name, rewrite_expressions
from .typed_views import expressions
from ..ir.statements import Control
from ..ir.typed_names import typed_statements
from ..ir.nodes import statements

# operators whose result is a fresh value, whatever their operands alias
_ARITHMETIC = (gast.Add, gast.Sub, gast.Mult, gast.Div, gast.Pow, gast.MatMult)
_FOLDED = {gast.Add: lambda a, b: a + b, gast.Sub: lambda a, b: a - b,
           gast.Mult: lambda a, b: a * b, gast.Div: lambda a, b: a / b,
           gast.Pow: lambda a, b: a ** b}
_LONGEST = 8            # characters: a longer folded literal reads worse than its sum
_NUMBER = (int, float)


def fold_constants(pullback, terms=None):
    """Fold the literal arithmetic in `terms` (expressions in the pullback: the template
    terms the reverse stage expanded with a literal argument), in place; in every
    statement of the pullback when terms is None."""
    if terms is None:
        terms = [s for s in statements(pullback) if s is not pullback]
    for term in terms:
        _fold_below(term, _is_arithmetic(term))


def _is_arithmetic(node):
    kind = type(node)
    return kind is gast.BinOp and isinstance(node.op, _ARITHMETIC) \
        or kind is gast.UnaryOp and isinstance(node.op, gast.USub)


def _fold_below(node, arithmetic):
    """Fold below `node`; `arithmetic`: node is an arithmetic operation (its operands'
    values are read, never kept)."""
    for field in node._fields:
        if field in ("body", "orelse", "finalbody", "handlers"):
            continue                               # statements: visited on their own
        value = getattr(node, field, None)
        if type(value) is list:
            for k, v in enumerate(value):
                if isinstance(v, gast.expr):
                    value[k] = _folded(v, False)
        elif isinstance(value, gast.expr):
            setattr(node, field, _folded(value, arithmetic))


def _folded(node, operand):
    """`node` with its literal arithmetic folded; `operand`: node is read by arithmetic."""
    kind = type(node)
    if kind is gast.Name or kind is gast.Constant:
        return node                                # most nodes: nothing below them
    _fold_below(node, _is_arithmetic(node))
    if kind is not gast.BinOp:
        return node
    literal = _literal_result(node)
    if literal is not None:
        return gast.Constant(value=literal, kind=None)
    node = _negation_into_literal(node)
    return _identity_operand(node) if operand else node


def _literal_result(node):
    """What Python computes for `2 - 1` and the like, if it reads as a short literal."""
    left, right = node.left, node.right
    if not (type(left) is gast.Constant and type(right) is gast.Constant
            and type(left.value) in _NUMBER and type(right.value) in _NUMBER):
        return None
    fold = _FOLDED.get(type(node.op))
    if fold is None or type(node.op) is gast.Pow and not _small_power(left.value, right.value):
        return None
    try:
        value = fold(left.value, right.value)
    except ArithmeticError:
        return None                                # 1 / 0 stays, and raises where it did
    if type(value) not in _NUMBER or not math.isfinite(value) \
            or math.copysign(1.0, value) < 0 or len(repr(value)) > _LONGEST:
        return None                                # -1 and -0.0 would need a unary minus
    return value


def _negation_into_literal(node):
    """`-e * 2` -> `e * -2`, `2 * -e` -> `-2 * e`: one array operation instead of two.
    Exact: negation is exact, and IEEE products are symmetric in sign (a zero's sign
    aside); a positive int or float literal only, so `-2` is a Python number."""
    if type(node.op) is not gast.Mult:
        return node
    for neg, lit in ((node.left, node.right), (node.right, node.left)):
        if type(neg) is gast.UnaryOp and type(neg.op) is gast.USub and \
                type(lit) is gast.Constant and type(lit.value) in _NUMBER and \
                math.isfinite(lit.value) and lit.value > 0:
            minus = gast.UnaryOp(op=gast.USub(), operand=lit)
            if neg is node.left:
                node.left, node.right = neg.operand, minus
            else:
                node.left, node.right = minus, neg.operand
            return node
    return node


def _small_power(base, exponent):
    return type(exponent) is int and 0 <= exponent <= 8 and abs(base) < 1e6


def _identity_operand(node):
    """`e ** 1`, `e * 1`, `1 * e` -> e (int 1 only: `* 1.0` may change the type)."""
    op, left, right = type(node.op), node.left, node.right
    if op in (gast.Pow, gast.Mult) and _is_int_one(right):
        return left
    if op is gast.Mult and _is_int_one(left):
        return right
    return node


def _is_int_one(node):
    return type(node) is gast.Constant and type(node.value) is int and node.value == 1


class FoldConstants(Pass):
    """Fold a template's literal arithmetic, as the module docstring shows
    (`h ** (2 - 1)` -> `h`): in the terms the reverse stage expanded with a literal
    (run alone: in every expression of the typed pullback body). A term is folded below
    its root (whose parent it does not know). Names are neither added nor removed.

    Typed: it runs on the typed pullback body before it is lowered; the terms are the
    gast operands of its statements (an `Accumulate`'s value: statements typed,
    expressions gast)."""
    phase = "typed"
    needs = ("literal_terms",)

    def applies(self, facts):
        return facts.literal_terms != []

    def run(self, facts):
        if facts.literal_terms is None:
            rewrite_expressions(facts.backward, _Fold())
        else:
            fold_constants(None, facts.literal_terms)


class _Fold:
    """fold_constants for typed_expressions.rewrite_expressions: an expression's root
    is no operand (it is stored, accumulated or returned)."""

    @staticmethod
    def visit(node):
        return _folded(node, False)


class FoldNegations(Pass):
    """`dt2 = -dlap * 2` -> `dt2 = dlap * -2` in the pullback statements FusePullback
    rewrote (run alone: every typed pullback statement) that lower to an assignment of
    an adjoint: the negation a rule's `-g` left next to another rule's literal factor,
    once the folds put them together. An adjoint's value is a cotangent computation
    (floats), never the primal arithmetic a checkpointing policy replays. Names are
    neither added nor removed.

    Typed (session 39): on the typed statements before they are lowered, their gast
    operands rewritten in place (the lowering shares them)."""
    phase = "typed"
    needs = ("fused",)

    def run(self, facts):
        fused = facts.fused
        if fused is None:
            fused = [s for s in typed_statements(facts.backward) if not isinstance(s, Control)]
        for s in fused:
            if assigned_name(s) in facts.adjoints:
                for tree in expressions(s):
                    for node in gast.walk(tree):
                        if type(node) is gast.BinOp:
                            _negation_into_literal(node)
