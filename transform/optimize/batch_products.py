"""Optimization: a backward loop's outer products into a loop-invariant matrix's
cotangent become one matrix product per batch of iterations.

    for x in reversed_prefix(seq1, n1):                 dW_products = MatmulLhsSum(W)
        ...                                             for x in reversed_prefix(seq1, n1):
        dW = accumulate_into(dW,               ->           ...
                             matmul_lhs(dz, W, x))          dW_products.add(dz, x)
                                                        dW = accumulate_into(dW,
                                                                 dW_products.total())

`W @ x` in a loop gives dW a rank-one update per iteration: for small vectors the
allocation and the add cost far more than the arithmetic. Stacking the vectors
turns n updates into one BLAS call (the runtime flushes a batch once it holds as
many elements as W, so memory stays bounded).

Typed: it runs on the typed pullback body before it is lowered, matching `Accumulate`
(ir/statements.py) in a typed `For` and asking the typed statements the names they
mention, bind and change in place; the contribution (`matmul_lhs(g, W, x)`) is a gast
operand, recognised by its marked helper. It adds `ProductSum`, `AddProduct` and an
`Accumulate` (ir/generated.py), typed.
"""
import gast

from runtime.traits import HELPER

from .passes import Pass
from ..ir.nodes import load, name_ids
from ..ir.generated import AddProduct, Bind, Comment, Generated, ProductSum, Scale, SliceAdd, Spread
from ..ir.recognize import called_role, is_call
from ..ir.statements import Accumulate, Control, For
from ..ir.typed_names import bound, header_names, mentioned, typed_statements

_IN_PLACE = HELPER["in_place"]     # declared beside each helper: @helper(in_place=True)


def batch_products(backward, names, shape_of=lambda name: None):
    """Rewrite the qualifying statements of the typed pullback body's loops in place;
    `shape_of(name)`: a name's shape when the rule is specialised to argument shapes,
    else None. True if a row update took the place of an indexing cotangent (a tape
    entry may have lost its last reader)."""
    loops = [s for s in typed_statements(backward) if isinstance(s, For)]
    rows = [_batch_loop(backward, loop, shape_of, names) for loop in loops]
    return any(rows)


def _batch_loop(backward, loop, shape_of, names):
    candidates = [(k, s, _outer_product_update(s)) for k, s in enumerate(loop.body)]
    candidates = [c for c in candidates if c[2] is not None]
    if not candidates:
        return False                        # no scan of a loop with nothing to batch
    mutated, stored = _aliased(loop, _mutated_in_place(loop)), _stored(loop)
    rows = False
    for target, group in _by_target(candidates):
        # every mention of D in the loop is one of its updates (reverse over forward
        # code has two: `W @ h` and `W @ h_dot`), all products with the same a
        a = group[0][2][2]
        if _mentioned_elsewhere(loop, target, [s for _, s, _ in group]) or a.id in stored or \
                any(u[2].id != a.id or (name_ids(u[1]) | name_ids(u[3])) & mutated
                    for _, _, u in group):
            continue
        batch = _fresh(target + "_products", mentioned_in(backward), names)
        for k, s, (_, g, _, b) in group:
            item = _item_update(g, b) or _item_defined(backward, loop.body, k, g, b, mutated)
            row = _row_update(item, a, shape_of)
            rows = rows or row is not None
            loop.body[k] = (AddProduct(batch, "add_row", row) if row else
                            AddProduct(batch, "add_item", item) if item else
                            AddProduct(batch, "add", (g, b)))
        _around(backward, loop, ProductSum(batch, a.id),
                Accumulate(target, _method(batch, "total"), "accumulate_into"))
    return rows


def _mentioned_elsewhere(loop, target, group):
    """Whether the loop mentions `target` other than as the target of its `group` of
    updates (its header, another statement, an update's value)."""
    found = header_names(loop, set())
    for s in typed_statements(loop.body):
        if isinstance(s, Control):
            header_names(s, found)
        elif any(s is u for u in group):
            name_ids(s.value, None, found)
        else:
            mentioned(s, found)
    return target in found


def _own_names(s):
    """The names a statement mentions itself (a loop's or branch's: its header's)."""
    return header_names(s, set()) if isinstance(s, Control) else mentioned(s)


def mentioned_in(block):
    found = set()
    for s in block:
        mentioned(s, found)
    return found


def _by_target(candidates):
    """The candidate updates grouped by the cotangent they update, in body order."""
    groups = {}
    for candidate in candidates:
        groups.setdefault(candidate[2][0], []).append(candidate)
    return groups.items()


def _outer_product_update(s):
    """(D, g, a, b) for the accumulation (an `Accumulate`, ir/statements.py)
    `D = accumulate_into(D, matmul_lhs(g, a, b))` or `D += matmul_lhs(g, a, b)`, with
    a a Name."""
    match s:
        case Accumulate(mode="accumulate_into" | "in_place", target=target,
                        value=contribution):
            pass
        case _:
            return None
    if not (is_call(contribution, "matmul_lhs") and len(contribution.args) == 3
            and isinstance(contribution.args[1], gast.Name)):
        return None
    g, a, b = contribution.args
    return target, g, a, b


def _item_update(g, b):
    """(i, gi, t, b) when g is `getitem_vjp(gi, t, i)` with t and b names and i an int:
    the cotangent of `(a @ b)[i]`; whether it is a row update the runtime decides
    (MatmulLhsSum.add_item) unless the shapes are known here."""
    if not (is_call(g, "getitem_vjp") and len(g.args) == 3
            and isinstance(g.args[1], gast.Name) and isinstance(g.args[2], gast.Constant)
            and type(g.args[2].value) is int and isinstance(b, gast.Name)):
        return None
    return g.args[2], g.args[0], g.args[1], b


def _item_defined(backward, body, k, g, b, mutated):
    """_item_update's item when g is a name set just for this update by an earlier
    `g = getitem_vjp(gi, t, i)` of the loop body (an `Accumulate` "set" or a `Bind`; t
    neither stored nor changed in between, g mentioned by these two statements only):
    that statement becomes `g = gi`, and the item is (i, g, t, b)."""
    if not isinstance(g, gast.Name):
        return None
    for j in range(k - 1, -1, -1):
        s = body[j]
        if isinstance(s, (Accumulate, Bind)) and s.target == g.id and \
                getattr(s, "mode", "set") == "set":
            item = _item_update(s.value, b)
            if item is None or item[2].id in _stored(body[j + 1:k]) | mutated or \
                    g.id in name_ids(s.value) or \
                    sum(g.id in _own_names(t) for t in typed_statements(backward)) != 2:
                return None
            if isinstance(s, Accumulate):
                s._value = item[1]
            else:
                s.value = item[1]
            return item[0], load(g.id), item[2], b
    return None


def _row_update(item, a, shape_of):
    """(i, gi, b) when item's t = a @ b has a a matrix, b a vector (shapes known): the
    update touches row i only (`(W @ x)[0]` in a loop)."""
    if item is None:
        return None
    i, gi, t, b = item
    shapes = [shape_of(t.id), shape_of(a.id), shape_of(b.id)]
    if any(s is None for s in shapes) or [len(s) for s in shapes] != [1, 2, 1]:
        return None
    return i, gi, b


def _mutated_in_place(loop):
    """Names the loop may change in place: augmented targets (`d += v`, `d[i] += v`,
    `d *= f`), the first argument of an in-place helper, lowered or in an expression."""
    names = set()
    for s in typed_statements([loop]):
        for e in _expressions(s):
            for n in _calls(e):
                if called_role(n) in _IN_PLACE and n.args:
                    names |= name_ids(n.args[0])
        names |= _changed_in_place(s)
    return names


def _aliased(loop, mutated):
    """`mutated` with the names the loop binds to one of them or binds one of them to
    (`a = b`, `a = own(b)`: one array under two names; the gast phase's copy
    propagation may later put the one for the other in a batched update)."""
    pairs = [p for s in typed_statements([loop]) for p in [_copy_of(s)] if p]
    found, grown = set(mutated), True
    while grown:
        grown = False
        for a, b in pairs:
            if (a in found) != (b in found):
                found |= {a, b}
                grown = True
    return found


def _copy_of(s):
    """(a, b) for a statement binding name a to name b's value, else None."""
    value = getattr(s, "value", None) if isinstance(s, (Accumulate, Bind)) else \
        getattr(s.node, "value", None) if bound(s) is not None else None
    if isinstance(value, gast.Call) and is_call(value, "own") and len(value.args) == 1:
        value = value.args[0]
    if isinstance(value, gast.Name) and bound(s) is not None:
        return bound(s), value.id
    return None


def _changed_in_place(s):
    """The names statement `s` itself augments (its expressions' helpers aside)."""
    match s:
        case Accumulate(mode=mode, target=d):
            return {d} if mode == "in_place" or mode in _IN_PLACE else set()
        case SliceAdd(target=d) | Scale(target=d):
            return {d}
        case Spread(helper=helper, buffer=buffer):
            return name_ids(buffer) if helper in _IN_PLACE else set()
        case Generated() | Comment() | Control():
            return set()
    return {n for a in gast.walk(s.node) if isinstance(a, gast.AugAssign)
            for n in name_ids(a.target)}


def _expressions(s):
    """The gast expressions a typed statement holds (a loop's or branch's header)."""
    if isinstance(s, Control):
        return [getattr(s, f) for f in ("target", "iter", "test") if hasattr(s.node, f)]
    if isinstance(s, Accumulate):
        return [s.value]
    if isinstance(s, Generated):
        values = [getattr(s, k.lstrip("_")) for k in vars(s) if k != "node"]
        flat = [x for v in values for x in (v if isinstance(v, (list, tuple)) else [v])]
        return [v for v in flat if isinstance(v, gast.AST)]
    return [s.node]


def _stored(block):
    """The names a block (a loop: its header too) may bind: over-approximated."""
    found = set()
    for s in typed_statements(block if isinstance(block, list) else [block]):
        if isinstance(s, For):
            name_ids(s.target, None, found)
        elif isinstance(s, Accumulate):
            found.add(s.target)
        elif isinstance(s, Generated):
            for field in ("target", "targets", "part", "pullback", "batch"):
                value = getattr(s, field, None)
                for v in value if isinstance(value, list) else [value]:
                    if isinstance(v, str):
                        found.add(v)
        elif not isinstance(s, (Control, Comment)):
            name_ids(s.node, gast.Store, found)
    return found


def _calls(node):
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, gast.Call):
            yield n
        for field in n._fields:
            value = getattr(n, field, None)
            if isinstance(value, list):
                stack.extend(v for v in value if isinstance(v, gast.AST))
            elif isinstance(value, gast.AST):
                stack.append(value)


def _around(backward, loop, before, after):
    """Insert `before` and `after` next to `loop` in whichever typed block holds it."""
    for block in _blocks(backward):
        for k, s in enumerate(block):
            if s is loop:
                block[k + 1:k + 1] = [after]
                if k and isinstance(block[k - 1], Comment):
                    k -= 1                          # keep the loop's `# for ...` comment on it
                block[k:k] = [before]
                return
    raise AssertionError("loop not found in the pullback")


def _blocks(backward):
    yield backward
    for s in typed_statements(backward):
        if isinstance(s, Control):
            yield s.body
            yield s.orelse


def _fresh(name, taken, names):
    """A name neither the pullback (`taken`: the names it mentions) nor the function
    (`names.used`) uses."""
    k, candidate = 1, name
    while candidate in taken or candidate in names.used:
        k += 1
        candidate = f"{name}{k}"
    names.used.add(candidate)
    return candidate


def _method(obj, name, *args):
    return gast.Call(func=gast.Attribute(value=load(obj), attr=name, ctx=gast.Load()),
                     args=list(args), keywords=[])


class BatchProducts(Pass):
    """Batch a backward loop's outer products (the module docstring's example). Typed:
    it runs on the typed pullback body, before it is lowered (DropDeadSaves, after it,
    drops a save a row update took the last reader of)."""
    phase = "typed"
    needs = ("names", "shape_of")

    def run(self, facts):
        batch_products(facts.backward, facts.names, facts.shape_of)
