"""Arithmetic forward mode's tangent code over reverse mode's flat gradient computes
twice (hvp forward over reverse): the backward sweep's derivative of tanh recomputes
what the tangent of the forward sweep's tanh computed.

    h_dot = t2_dot * (1 - h ** 2)         t15 = 1 - h ** 2
    ...                            ->     h_dot = t2_dot * t15
    t22 = h ** 2                          ...
    t23 = 1 - t22                         t23 = t15

A negation of a product with a number, read once, takes the number's sign instead
(`t23_dot = -t22_dot`, `t22_dot = 2 * h * h_dot`: `t23_dot = -2 * h * h_dot`).

Only the function's top-level statements are looked at (straight-line code), only
arithmetic operators (`+ - * / ** @`, unary minus) of constants and names bound once
(parameters and top-level assignments, never rebound), and only in a function where no
value can change in place: no item or attribute stores, no augmented assignments, no
method calls, and no calls but of the pure helpers (transform/forward/prune.py), NumPy's
ufuncs and a few of its reductions, none with `out=`. Every occurrence then reads the
same values, and the same operations on them give the same bits.
"""
import numpy as np

import gast

from .prune import PURE

_CALLS = frozenset(id(f) for f in (np.sum, np.max, np.min, np.mean, np.prod, len))

_OPS = (gast.Add, gast.Sub, gast.Mult, gast.Div, gast.Pow, gast.MatMult, gast.USub)


def share_common(function, names, resolve):
    """Compute each repeated subexpression once, in place; `names`: the Vocabulary,
    resolve(name): the object a free name denotes (transform/forward/prune.py)."""
    body = function.body
    stores = {}
    for node in gast.walk(function):
        if isinstance(node, gast.Name) and isinstance(node.ctx, (gast.Store, gast.Param,
                                                                  gast.Del)):
            stores[node.id] = stores.get(node.id, 0) + 1
    if not _unchanging(function, lambda n: None if n in stores else resolve(n)):
        return
    defs = {s.targets[0].id: s.value for s in body if _simple(s) and
            stores.get(s.targets[0].id) == 1}
    keys = _Keys(defs, stores)
    seen, inserts = {}, {}
    for k, s in enumerate(body):
        if _simple(s):
            s.value = _shared(s.value, k, s, seen, inserts, keys, names)
    function.body = [t for k, s in enumerate(body) for t in inserts.get(k, []) + [s]]


def fold_negations(function):
    """`b = -a` right after `a = 2 * h * h_dot` (only arithmetic of other names between,
    a read there only): `b = -2 * h * h_dot` (a goes with the dead code), in every block:
    one array operation less (tanh's second derivative, per step of the RNN's loop).
    Nothing between can change h or h_dot: only names are bound there, to arithmetic."""
    stores, reads = {}, {}
    for node in gast.walk(function):
        if isinstance(node, gast.Name):
            counts = reads if isinstance(node.ctx, gast.Load) else stores
            counts[node.id] = counts.get(node.id, 0) + 1
    for block in _blocks(function):
        for j, s in enumerate(block):
            if not (_simple(s) and isinstance(s.value, gast.UnaryOp) and
                    isinstance(s.value.op, gast.USub) and
                    isinstance(s.value.operand, gast.Name)):
                continue
            name = s.value.operand.id
            if reads.get(name) != 1 or stores.get(name) != 1:
                continue
            found = _defined_before(block, j, name)
            if found is not None:
                s.value = found


def _blocks(function):
    yield function.body
    for node in gast.walk(function):
        if node is not function:
            for field in ("body", "orelse", "finalbody"):
                block = getattr(node, field, None)
                if isinstance(block, list) and block and isinstance(block[0], gast.stmt):
                    yield block


def _defined_before(block, j, name):
    """`-c * x * y` for the product `a = c * x * y` bound earlier in block (only
    arithmetic bindings of names it does not read between), else None."""
    for i in range(j - 1, -1, -1):
        s = block[i]
        if not (_simple(s) and _plain_arithmetic(s.value)):
            return None
        if s.targets[0].id == name:
            leaves = {n.id for n in gast.walk(s.value) if isinstance(n, gast.Name)}
            between = {t.targets[0].id for t in block[i + 1:j]}
            return None if leaves & between else _negated_product(s.value)
    return None


def _plain_arithmetic(node):
    if isinstance(node, (gast.Name, gast.Constant)):
        return True
    if _arithmetic(node):
        return all(_plain_arithmetic(c) for c in gast.iter_child_nodes(node)
                   if isinstance(c, gast.expr))
    return False


def _negated_product(node):
    """A copy of the product `c * x * y` (c a number) as `-c * x * y`, else None."""
    if not (isinstance(node, gast.BinOp) and isinstance(node.op, gast.Mult)):
        return None
    if isinstance(node.left, gast.Constant):
        c = node.left.value
        if type(c) not in (int, float):
            return None
        return gast.BinOp(left=gast.Constant(value=-c, kind=None), op=gast.Mult(),
                          right=node.right)
    left = _negated_product(node.left)
    return None if left is None else gast.BinOp(left=left, op=gast.Mult(), right=node.right)


def _simple(s):
    return isinstance(s, gast.Assign) and len(s.targets) == 1 and \
        isinstance(s.targets[0], gast.Name)


class _Keys:
    """Canonical text of an arithmetic expression over names bound once, seen through
    top-level temporaries bound to arithmetic (None: not such an expression)."""

    def __init__(self, defs, stores):
        self.defs, self.stores, self.memo = defs, stores, {}

    def of(self, node):
        if isinstance(node, gast.Constant):
            return f"{type(node.value).__name__}:{node.value!r}"
        if isinstance(node, gast.Name):
            if self.stores.get(node.id, 0) > 1:
                return None                             # rebound
            value = self.defs.get(node.id)
            if value is not None and _arithmetic(value):
                if node.id not in self.memo:
                    self.memo[node.id] = None           # (a cycle cannot happen: bound once)
                    self.memo[node.id] = self.of(value)
                return self.memo[node.id]
            return f"name:{node.id}"
        if isinstance(node, gast.BinOp) and isinstance(node.op, _OPS):
            left, right = self.of(node.left), self.of(node.right)
            return None if left is None or right is None else \
                f"({left} {type(node.op).__name__} {right})"
        if isinstance(node, gast.UnaryOp) and isinstance(node.op, _OPS):
            operand = self.of(node.operand)
            return None if operand is None else f"({type(node.op).__name__} {operand})"
        return None


def _arithmetic(node):
    return isinstance(node, (gast.BinOp, gast.UnaryOp)) and isinstance(node.op, _OPS)


def _shared(node, k, s, seen, inserts, keys, names):
    """node with its repeated arithmetic replaced by the name holding the first value."""
    if _arithmetic(node):
        key = keys.of(node)
        found = seen.get(key) if key is not None else None
        if found is not None:
            return _reuse(found, inserts, names)
        if key is not None:
            seen[key] = [s.targets[0].id if node is s.value else None, k, s, node]
    for field in ("left", "right", "operand"):
        child = getattr(node, field, None)
        if isinstance(child, gast.expr):
            setattr(node, field, _shared(child, k, s, seen, inserts, keys, names))
    if isinstance(node, gast.Call):
        node.args = [_shared(a, k, s, seen, inserts, keys, names) for a in node.args]
    return node


def _reuse(found, inserts, names):
    """A Name for the first occurrence's value, hoisting it into a temporary of its own
    when it was part of a larger expression."""
    target, at, s, node = found
    if target is None:
        target = found[0] = names.new("t")
        inserts.setdefault(at, []).append(gast.Assign(
            targets=[gast.Name(id=target, ctx=gast.Store(), annotation=None,
                               type_comment=None)], value=node, type_comment=None))
        _replace(s, node, target)
    return gast.Name(id=target, ctx=gast.Load(), annotation=None, type_comment=None)


def _replace(s, old, name):
    for parent in gast.walk(s):
        for field, value in gast.iter_fields(parent):
            if value is old:
                setattr(parent, field, gast.Name(id=name, ctx=gast.Load(), annotation=None,
                                                 type_comment=None))
                return


def _unchanging(function, resolve):
    """Whether nothing in `function` can change a value in place (the module text)."""
    for node in gast.walk(function):
        if isinstance(node, (gast.AugAssign, gast.AnnAssign, gast.Global, gast.Nonlocal)):
            return False
        if isinstance(node, (gast.Subscript, gast.Attribute)) and \
                isinstance(node.ctx, gast.Store):
            return False
        if isinstance(node, gast.Call) and not _pure_call(node, resolve):
            return False
    return True


def _pure_call(call, resolve):
    if any(k.arg is None or k.arg == "out" for k in call.keywords):
        return False
    fn = _resolved(call.func, resolve)
    return id(fn) in PURE or id(fn) in _CALLS or isinstance(fn, np.ufunc)


def _resolved(node, resolve):
    """The object `f` or `np.linalg.f` denotes (None: another expression, or a name of
    the function's own)."""
    if isinstance(node, gast.Name):
        return resolve(node.id)
    if isinstance(node, gast.Attribute):
        base = _resolved(node.value, resolve)
        return getattr(base, node.attr, None) if base is np or \
            type(base) is type(np) and base.__name__.startswith("numpy.") else None
    return None
