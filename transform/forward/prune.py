"""Dead values in forward mode's tangent code over reverse mode's flat gradient (hvp
forward over reverse, transform/flat_gradient.py): the "tangent" variant returns the
gradient's tangent alone, so the gradient itself, and the primal output, are computed
for nothing; the statements computing them go.

    dW1 = matmul_rhs(t24, X, W1)        (dropped: dW1 is read by nothing kept)
    dW1_dot = matmul_rhs(t24_dot, X, W1)

A name is dead when every statement reading it is itself dropped; a statement is
dropped only when it binds one dead name to a call of a helper known to be pure (reverse
mode's cotangent helpers, NumPy's arithmetic on the cotangents) or to arithmetic of
names and constants; `del` of a dead name goes with it. Loops and branches are looked
into (a sum carried across iterations, `dW = accum_eager(dW, ...)`, is dead when only
its own update reads it)."""
import gast

PURE = frozenset({"matmul_lhs", "matmul_rhs", "unbroadcast", "unreduce", "accum_eager",
                  "added_at", "gradient_of", "gradient_seed", "unthunk", "own", "unviewed",
                  "getitem_vjp", "product_or_repeat_vjp", "transpose_vjp", "part",
                  "extremum_vjp", "reduction_size", "cotangent_zeros", "shape_only",
                  "lhs_products", "item_split"})


def drop_dead(function):
    """Remove the dead statements from gast FunctionDef `function`, in place."""
    candidates = _pure_targets(function)
    dead = set(candidates)
    while True:
        alive = {n for n in dead if _read_by_kept(function, n, dead)}
        if not alive:
            break
        dead -= alive
    if dead:
        function.body = _pruned(function.body, dead)


def _pure_targets(function):
    return {s.targets[0].id for s in gast.walk(function) if _pure_assign(s)}


def _pure_assign(s):
    return isinstance(s, gast.Assign) and len(s.targets) == 1 and \
        isinstance(s.targets[0], gast.Name) and _pure(s.value)


def _pure(node):
    if isinstance(node, (gast.Name, gast.Constant)):
        return True
    if isinstance(node, gast.BinOp):
        return _pure(node.left) and _pure(node.right)
    if isinstance(node, gast.UnaryOp):
        return _pure(node.operand)
    if isinstance(node, gast.Call):
        return isinstance(node.func, gast.Name) and node.func.id in PURE and \
            not node.keywords and all(_pure(a) for a in node.args)
    return False


def _read_by_kept(function, name, dead):
    """Whether a statement that stays reads `name`."""
    for s in _statements(function.body):
        if _pure_assign(s) and s.targets[0].id in dead or isinstance(s, gast.Delete):
            continue
        for node in _own_nodes(s):
            if isinstance(node, gast.Name) and node.id == name and \
                    not isinstance(node.ctx, gast.Del) and \
                    (isinstance(node.ctx, gast.Load) or _updated(s, node)):
                return True
    return False


def _updated(s, node):
    """Whether `node` is the target of augmented assignment s (`n += 1` reads n)."""
    return isinstance(s, gast.AugAssign) and s.target is node


def _statements(body):
    for s in body:
        yield s
        for field in ("body", "orelse", "finalbody"):
            yield from _statements(getattr(s, field, None) or [])
        for handler in getattr(s, "handlers", None) or []:
            yield from _statements(handler.body)


def _own_nodes(s):
    """The nodes of statement s outside its nested blocks (loop and branch headers
    included)."""
    nested = {id(x) for field in ("body", "orelse", "finalbody", "handlers")
              for x in getattr(s, field, None) or []}
    stack = [s]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(child for child in gast.iter_child_nodes(node) if id(child) not in nested)


def _pruned(body, dead):
    out = []
    for s in body:
        if _pure_assign(s) and s.targets[0].id in dead:
            continue
        if isinstance(s, gast.Delete):
            kept = [t for t in s.targets if not (isinstance(t, gast.Name) and t.id in dead)]
            if not kept:
                continue
            s.targets = kept
        for field in ("body", "orelse", "finalbody"):
            block = getattr(s, field, None)
            if block:
                setattr(s, field, _pruned(block, dead) or [gast.Pass()])
        for handler in getattr(s, "handlers", None) or []:
            handler.body = _pruned(handler.body, dead) or [gast.Pass()]
        out.append(s)
    return out
