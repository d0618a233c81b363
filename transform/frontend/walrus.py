"""Assignment expressions anywhere in a statement's own expression: the expression is
evaluated step by step, in Python's order, with each `:=` a statement of its own.

    y = f(a) + (n := g(x))      ->   value = f(a)
                                     n = g(x)
                                     y = value + n

    if ok(x) and (m := h(x)) > 0:    value_1 = ok(x)
        ...                     ->   if value_1:
                                         m = h(x)
                                         value_1 = m > 0
                                     if value_1: ...

    while (err := step(x)) > tol:    while True:
        x = x - err            ->        err = step(x)
                                         if not err > tol: break      (not a loop-else break)
                                         x = x - err

Operands evaluated before a walrus are kept in temporaries first (a name only when the
walrus rebinds it), so each is read when Python reads it; `and`/`or`, `if`-expressions
and chained comparisons become `if` statements, so a walrus in a branch not taken is not
run. A walrus in a comprehension or lambda (its own scope) stays refused.
"""
import gast

from ..ir.nodes import assign as _assign, load as _load, located as _at, walk

# where a statement's own expression is, evaluated once before the statement acts
OWN_EXPRESSION = {gast.Assign: "value", gast.Expr: "value", gast.Return: "value",
                  gast.If: "test", gast.For: "iter", gast.AugAssign: "value"}
_SCOPES = (gast.Lambda, gast.ListComp, gast.SetComp, gast.DictComp, gast.GeneratorExp)


def has_walrus(expr):
    return expr is not None and any(isinstance(n, gast.NamedExpr) for n in walk(expr))


def linearized(s, new_name):
    """The statements replacing `s` with its walruses evaluated in order, or None when
    `s` has none this can move (then the check stage refuses what is left)."""
    if isinstance(s, gast.While) and has_walrus(s.test) and _movable(s.test):
        return [_while(s, new_name)]
    field = OWN_EXPRESSION.get(type(s))
    expr = getattr(s, field, None) if field else None
    if not has_walrus(expr) or not _movable(expr):
        return None
    before, value = _Linearize(new_name, s).expr(expr)
    setattr(s, field, value)
    return before + [s]


def _movable(expr):
    """No walrus inside a nested scope, and every target a plain name."""
    for node in walk(expr):
        if isinstance(node, _SCOPES) and has_walrus(node) or isinstance(node, gast.Starred):
            return False
        if isinstance(node, gast.Dict) and any(k is None for k in node.keys):
            return False                   # {**d, ...}: no key to pair its value with
        if isinstance(node, gast.NamedExpr) and not isinstance(node.target, gast.Name):
            return False
    return True


def _while(s, new_name):
    before, test = _Linearize(new_name, s).expr(s.test)
    leave = _at(gast.Break(), s)
    leave.loop_exit = True                 # the test failing: a loop `else` still runs
    check = _at(gast.If(test=gast.UnaryOp(op=gast.Not(), operand=test), body=[leave],
                        orelse=[]), s)
    s.test = _at(gast.Constant(value=True, kind=None), s)
    s.body = before + [check] + s.body
    return s


class _Linearize:
    def __init__(self, new_name, where):
        self.new_name, self.where = new_name, where

    def expr(self, e):
        """(statements, an expression to read after them) for `e`."""
        if not has_walrus(e):
            return [], e
        kind = type(e)
        if kind is gast.NamedExpr:
            before, value = self.expr(e.value)
            return before + [self.at(_assign(e.target.id, value))], _load(e.target.id)
        if kind is gast.BoolOp:
            return self.bool_op(e)
        if kind is gast.IfExp:
            return self.if_exp(e)
        if kind is gast.Compare:
            return self.compare(e)
        return self.in_order(e)

    def at(self, node):
        return _at(node, self.where)

    def temp(self, before, value):
        name = self.new_name("value")
        before.append(self.at(_assign(name, value)))
        return _load(name)

    def in_order(self, e):
        """Children left to right; each one before the last walrus kept in a
        temporary (a name only if a later walrus rebinds it)."""
        fields = _ordered_children(e)
        last = max((k for k, (_, child) in enumerate(fields) if has_walrus(child)))
        rebound = {n.target.id for n in walk(e) if isinstance(n, gast.NamedExpr)}
        before = []
        for k, (slot, child) in enumerate(fields):
            stmts, value = self.expr(child)
            before += stmts
            if k < last and _needs_temp(e, slot, value, rebound):
                value = self.temp(before, value)
            slot(value)
        return before, e

    def bool_op(self, e):
        result = self.new_name("value")
        before, first = self.expr(e.values[0])
        before.append(self.at(_assign(result, first)))
        block = before
        for operand in e.values[1:]:
            stmts, value = self.expr(operand)
            test = _load(result) if isinstance(e.op, gast.And) else \
                gast.UnaryOp(op=gast.Not(), operand=_load(result))
            inner = stmts + [self.at(_assign(result, value))]
            block.append(self.at(gast.If(test=test, body=inner, orelse=[])))
            block = inner
        return before, _load(result)

    def if_exp(self, e):
        result = self.new_name("value")
        before, test = self.expr(e.test)
        body, yes = self.expr(e.body)
        orelse, no = self.expr(e.orelse)
        branch = gast.If(test=test, body=body + [self.at(_assign(result, yes))],
                         orelse=orelse + [self.at(_assign(result, no))])
        return before + [self.at(branch)], _load(result)

    def compare(self, e):
        result = self.new_name("value")
        before, left = self.expr(e.left)
        left = self.temp(before, left)
        block = before
        for k, (op, operand) in enumerate(zip(e.ops, e.comparators)):
            stmts, right = self.expr(operand)
            right = self.temp(stmts, right)
            stmts.append(self.at(_assign(result, gast.Compare(left=left, ops=[op],
                                                             comparators=[right]))))
            if k == 0:
                block.extend(stmts)
            else:                          # a < b < c: c only when a < b
                block.append(self.at(gast.If(test=_load(result), body=stmts, orelse=[])))
                block = stmts
            left = right
        return before, _load(result)


def _ordered_children(e):
    """(setter, child) for each expression child of `e` in evaluation order."""
    out = []
    for field, value in gast.iter_fields(e):
        if isinstance(value, gast.expr):
            out.append((_setter(e, field), value))
        elif isinstance(value, list):
            for k, item in enumerate(value):
                if isinstance(item, gast.expr):
                    out.append((_item_setter(value, k), item))
                elif isinstance(item, gast.keyword):
                    out.append((_setter(item, "value"), item.value))
    if isinstance(e, gast.Dict):          # key, value, key, value...
        half = len(out) // 2
        out = [pair for kv in zip(out[:half], out[half:]) for pair in kv]
    return out


def _setter(node, field):
    def put(value):
        setattr(node, field, value)
    return put


def _item_setter(items, k):
    def put(value):
        items[k] = value
    return put


def _needs_temp(parent, slot, value, rebound):
    if isinstance(value, gast.Constant):
        return False
    if isinstance(value, gast.Name):
        return value.id in rebound
    if isinstance(parent, gast.Call) and value is parent.func:
        return _root(value) in rebound     # np.sum stays a call of np.sum
    return not isinstance(value, gast.Slice)       # (a slice is no value to keep)


def _root(node):
    while isinstance(node, gast.Attribute):
        node = node.value
    return node.id if isinstance(node, gast.Name) else None
