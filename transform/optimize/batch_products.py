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
"""
import gast

from runtime.traits import HELPER

from .name_counts import NameCounts
from .passes import Pass
from ..ir.nodes import blocks, count_names, load, name_ids, statements
from ..ir.generated import AddProduct, ProductSum
from ..ir.lower_gast import lowered, lowered_accumulation
from ..ir.recognize import called_role, is_call, is_comment
from ..ir.statements import Accumulate, typed_of



_IN_PLACE = HELPER["in_place"]     # declared beside each helper: @helper(in_place=True)


def batch_products(pullback, names, counts=None, shape_of=lambda name: None):
    """Rewrite the qualifying statements of the pullback's loops in place; `counts`:
    the rrule's NameCounts (kept exact), None to count names in use here;
    `shape_of(name)`: a name's shape when the rule is specialised to argument shapes,
    else None. True if a row update took the place of an indexing cotangent (a tape
    entry may have lost its last reader)."""
    loops = [n for n in statements(pullback) if type(n) is gast.For]
    if not loops:
        return False
    if counts is None:
        counts = NameCounts({}, count_names(pullback, {}))
    rows = [_batch_loop(pullback, loop, counts, shape_of, names) for loop in loops]
    return any(rows)


def _batch_loop(pullback, loop, counts, shape_of, names):
    candidates = [(k, s, _outer_product_update(s)) for k, s in enumerate(loop.body)]
    candidates = [c for c in candidates if c[2] is not None]
    if not candidates:
        return False                        # no scan of a loop with nothing to batch
    inside = count_names(loop, {})
    mutated = _mutated_in_place(loop)
    stored = name_ids(loop, gast.Store)
    rows = False
    for target, group in _by_target(candidates):
        # every mention of D in the loop is one of its updates (reverse over forward
        # code has two: `W @ h` and `W @ h_dot`), all products with the same a
        mentions = sum(1 if typed_of(s).mode == "in_place" else 2 for _, s, _ in group)
        a = group[0][2][2]
        if inside.get(target) != mentions or a.id in stored or \
                any(u[2].id != a.id or (name_ids(u[1]) | name_ids(u[3])) & mutated
                    for _, _, u in group):
            continue
        batch = _fresh(target + "_products", counts.pullback, names)
        for k, s, (_, g, _, b) in group:
            item = _item_update(g, b) or _item_defined(loop.body, k, g, b, counts, mutated)
            row = _row_update(item, a, shape_of)
            rows = rows or row is not None
            counts.remove(s, True)
            loop.body[k] = lowered(AddProduct(batch, "add_row", row) if row else
                                   AddProduct(batch, "add_item", item) if item else
                                   AddProduct(batch, "add", (g, b)))
            counts.add(loop.body[k], True)
        before = lowered(ProductSum(batch, a.id), names)
        after = lowered_accumulation(target, _method(batch, "total"), "accumulate_into",
                                     names)
        _around(pullback, loop, before, after)
        for added in (before, after):
            counts.add(added, True)
    return rows


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
    match typed_of(s):
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


def _item_defined(body, k, g, b, counts, mutated):
    """_item_update's item when g is a name set just for this update by an earlier
    `g = getitem_vjp(gi, t, i)` of the loop body (t neither stored nor changed in between):
    that statement becomes `g = gi`, and the item is (i, g, t, b)."""
    if not isinstance(g, gast.Name) or counts.pullback.get(g.id) != 2:
        return None
    for j in range(k - 1, -1, -1):
        s = body[j]
        if isinstance(s, gast.Assign) and len(s.targets) == 1 \
                and isinstance(s.targets[0], gast.Name) and s.targets[0].id == g.id:
            item = _item_update(s.value, b)
            between = name_ids(gast.Module(body=body[j + 1:k], type_ignores=[]), gast.Store)
            if item is None or item[2].id in between | mutated:
                return None
            counts.remove(s, True)
            s.value = item[1]
            counts.add(s, True)
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
    """Names the loop may change in place: augmented targets and owned buffers."""
    names = set()
    for n in statements(loop):
        if isinstance(n, gast.AugAssign):
            names |= name_ids(n.target)
    for n in _calls(loop):
        if called_role(n) in _IN_PLACE and n.args:
            names |= name_ids(n.args[0])
    return names


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


def _around(pullback, loop, before, after):
    """Insert `before` and `after` next to `loop` in whichever block holds it."""
    for block in blocks(pullback):
        for k, s in enumerate(block):
            if s is loop:
                block[k + 1:k + 1] = [after]
                if k and is_comment(block[k - 1]):
                    k -= 1                          # keep the loop's `# for ...` comment on it
                block[k:k] = [before]
                return
    raise AssertionError("loop not found in the pullback")



def _fresh(name, taken, names):
    """A name neither the pullback (`taken`: name -> mentions) nor the function
    (`names.used`) uses."""
    k, candidate = 1, name
    while taken.get(candidate) or candidate in names.used:
        k += 1
        candidate = f"{name}{k}"
    names.used.add(candidate)
    return candidate


def _method(obj, name, *args):
    return gast.Call(func=gast.Attribute(value=load(obj), attr=name, ctx=gast.Load()),
                     args=list(args), keywords=[])


class BatchProducts(Pass):
    """Batch a backward loop's outer products (the module docstring's example); provides
    whether a row update may have left a tape entry without a reader."""
    needs = ("counts", "shape_of")
    provides = ("lost_readers",)
    keeps = ("counts",)

    def run(self, facts):
        facts.lost_readers = batch_products(facts.pullback, facts.names, facts.counts,
                                            facts.shape_of)
