"""Dead values in forward mode's tangent code over reverse mode's flat gradient (hvp
forward over reverse, transform/flat_gradient.py): the "tangent" variant returns the
gradient's tangent alone, so the gradient itself, and the primal output, are computed
for nothing; the statements computing them go.

    dW1 = matmul_rhs(t24, X, W1)        (dropped: dW1 is read by nothing kept)
    dW1_dot = matmul_rhs(t24_dot, X, W1)

A statement is dropped only when it binds one name to a call of a helper known to be
pure (reverse mode's cotangent helpers, forward mode's zeros: by the object the name
denotes, never a function of the user's that happens to share a helper's name) or to
arithmetic of names and constants (`x = e` or `n += e`), and that name is dead there.
Two analyses take turns until neither drops anything:

- by name: a name every reader of which is itself dropped is dead everywhere (a sum
  carried across iterations, `dW = accum_eager(dW, ...)`, read by its own update only);
- by place (liveness, loops to their fixpoint): a value no later statement reads is
  dead, though the name's other values are read (`dW_dot = zero_tangent(dW)` reads the
  first dW, not the gradient `dW = accum_eager(dW, P)` that ends the sweep).

`del` of a name one of whose bindings went is dropped too (it might be unbound)."""
import builtins

import gast

import runtime
from runtime import flat

from ..ir.nodes import name_ids
from ..optimize.release import _closed_over, _last_reads

PURE_NAMES = ("matmul_lhs", "matmul_rhs", "unbroadcast", "unreduce", "accum_eager",
              "accumulated_at", "gradient_of", "gradient_seed", "unthunk", "own", "unviewed",
              "getitem_vjp", "product_or_repeat_vjp", "transpose_vjp", "part",
              "extremum_vjp", "reduction_size", "cotangent_zeros", "shape_only",
              "lhs_products", "item_split", "zero_tangent", "zero_addend", "plus_zero",
              "zero_plus", "broadcast_to_output", "extremum_share")
_NAMESPACE = {**runtime.generated_namespace(), **vars(flat)}
PURE = frozenset(id(_NAMESPACE[n]) for n in PURE_NAMES if n in _NAMESPACE)


def drop_dead(function, resolve=None):
    """Remove the dead statements from gast FunctionDef `function`, in place.
    resolve(name): the object a free name of the function denotes (None: helpers are
    known by name alone)."""
    pure = _Purity(function, resolve)
    while True:
        dropped = _by_name(function, pure)
        gone = _by_place(function, pure)
        if not (dropped or gone):
            break
        _drop(function, dropped | gone)


class _Purity:
    def __init__(self, function, resolve):
        self.resolve = resolve
        self.local = {n.id for n in gast.walk(function) if isinstance(n, gast.Name)
                      and isinstance(n.ctx, (gast.Store, gast.Param, gast.Del))}
        # names a lambda or nested def reads when it is called, not where it stands
        self.captured = {n.id for f in gast.walk(function)
                         if isinstance(f, (gast.Lambda, gast.FunctionDef)) and f is not function
                         for n in gast.walk(f) if isinstance(n, gast.Name)}

    def target(self, s):
        """The name statement s binds to a pure value (None: s is not such a binding)."""
        if isinstance(s, gast.Assign) and len(s.targets) == 1 and \
                isinstance(s.targets[0], gast.Name) and self.pure(s.value):
            return s.targets[0].id
        if isinstance(s, gast.AugAssign) and isinstance(s.target, gast.Name) and \
                self.pure(s.value):
            return s.target.id
        return None

    def pure(self, node):
        if isinstance(node, (gast.Name, gast.Constant)):
            return True
        if isinstance(node, gast.BinOp):
            return self.pure(node.left) and self.pure(node.right)
        if isinstance(node, gast.UnaryOp):
            return self.pure(node.operand)
        if isinstance(node, gast.Call):
            return isinstance(node.func, gast.Name) and self.helper(node.func.id) and \
                not node.keywords and all(self.pure(a) for a in node.args)
        return False

    def helper(self, name):
        if name in self.local:
            return False
        if self.resolve is None:
            return name in PURE_NAMES
        return id(self.resolve(name)) in PURE


def _by_name(function, pure):
    """ids of the bindings of names read by no statement that stays."""
    bindings = {}
    for s in _statements(function.body):
        name = pure.target(s)
        if name is not None:
            bindings.setdefault(name, []).append(s)
    readers = _readers(function, set(bindings))
    dead = set(bindings)
    while True:
        kept = {id(s) for n in dead for s in bindings[n]}
        alive = {n for n in dead if any(r not in kept for r in readers.get(n, ()))}
        if not alive:
            return {id(s) for n in dead for s in bindings[n]}
        dead -= alive


def _readers(function, names):
    """{name: ids of the statements (no `del`) reading it}, for the names asked: each
    statement's reads found once (a program's thousands of statements and hundreds of
    names made the search per name the tangent code's longest step)."""
    out = {}
    for s in _statements(function.body):
        if not isinstance(s, gast.Delete):
            for name in _reads(s) & names:
                out.setdefault(name, []).append(id(s))
    return out


def _by_place(function, pure):
    """ids of the pure bindings whose value no later statement reads."""
    found = {}
    _Liveness(pure, found).block(function.body, set(), None)
    return {k for k, dead in found.items() if dead}


class _Liveness:
    """Backward liveness over structured code; `found[id(s)]` says whether binding s
    is dead (rewritten at each pass over a loop: the last pass is at the fixpoint)."""

    def __init__(self, pure, found):
        self.pure, self.found = pure, found

    def block(self, body, live, loop):
        for s in reversed(body):
            live = self.statement(s, live, loop)
        return live

    def statement(self, s, live, loop):
        name = self.pure.target(s)
        if name is not None and name not in self.pure.captured:
            self.found[id(s)] = name not in live
            if name not in live:
                return live
            kept = live if isinstance(s, gast.AugAssign) else live - {name}
            return kept | _reads(s)
        if isinstance(s, (gast.For, gast.While)):
            return self.loop(s, live)
        if isinstance(s, gast.If):
            return _reads(s) | self.block(s.body, live, loop) | self.block(s.orelse, live, loop)
        if isinstance(s, gast.Break) and loop is not None:
            return set(loop[1])
        if isinstance(s, gast.Continue) and loop is not None:
            return set(loop[0])
        if isinstance(s, (gast.Return, gast.Raise)):
            return _reads(s)
        if isinstance(s, (gast.Assign, gast.AugAssign, gast.AnnAssign, gast.Expr,
                          gast.Delete, gast.Pass)):
            return (live - _killed(s)) | _reads(s)
        return live | {n.id for n in gast.walk(s) if isinstance(n, gast.Name)}   # try, with

    def loop(self, s, live):
        after = self.block(s.orelse, live, None)
        header, targets = set(after), set()
        if isinstance(s, gast.For):
            targets = {n.id for n in gast.walk(s.target) if isinstance(n, gast.Name)}
        while True:
            entry = self.block(s.body, header, (header, live)) - targets
            new = after | entry | (_reads(s) if isinstance(s, gast.While) else set())
            if new == header:
                break
            header = new
        return header | (_reads(s) if isinstance(s, gast.For) else set())


def _reads(s):
    """Names statement s reads outside its nested blocks (an augmented target too)."""
    out = set()
    for node in _own_nodes(s):
        if isinstance(node, gast.Name) and (isinstance(node.ctx, gast.Load) or
                                            isinstance(s, gast.AugAssign) and s.target is node):
            out.add(node.id)
    return out


def _killed(s):
    """Names plain assignment s rebinds whole (`x = ...`, `a, b = ...`)."""
    if not isinstance(s, gast.Assign):
        return set()
    out = set()
    for target in s.targets:
        stack = [target]
        while stack:
            t = stack.pop()
            if isinstance(t, gast.Name):
                out.add(t.id)
            elif isinstance(t, (gast.Tuple, gast.List)):
                stack.extend(t.elts)
    return out


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


def _drop(function, ids):
    names = {_bound(s) for s in _statements(function.body) if id(s) in ids}
    function.body = _pruned(function.body, ids, names)


def _bound(s):
    return s.targets[0].id if isinstance(s, gast.Assign) else s.target.id


def _pruned(body, ids, names):
    out = []
    for s in body:
        if id(s) in ids:
            continue
        if isinstance(s, gast.Delete):
            kept = [t for t in s.targets if not (isinstance(t, gast.Name) and t.id in names)]
            if not kept:
                continue
            s.targets = kept
        for field in ("body", "orelse", "finalbody"):
            block = getattr(s, field, None)
            if block:
                setattr(s, field, _pruned(block, ids, names) or [gast.Pass()])
        for handler in getattr(s, "handlers", None) or []:
            handler.body = _pruned(handler.body, ids, names) or [gast.Pass()]
        out.append(s)
    return out


def resolver(fn, bindings):
    """resolve(name) for forward mode's code over `fn`: the compiler's own roles
    (`bindings`), then fn's closure cells, globals and builtins (recording nothing)."""
    code = fn.__code__
    cells = dict(zip(code.co_freevars, fn.__closure__ or ()))

    def resolve(name):
        if name in bindings:
            return bindings[name]
        if name in cells:
            try:
                return cells[name].cell_contents
            except ValueError:
                return None
        if name in fn.__globals__:
            return fn.__globals__[name]
        return getattr(builtins, name, None)
    return resolve


def release_dead(function):
    """`del a, b` after the top-level statement that last reads them (reverse mode's
    ReleaseTemporaries, transform/optimize/release.py): the tangent code keeps no array
    longer than it needs, so the allocator reuses the memory (the MLP's 256x256
    temporaries: about 5% of an hvp). Parameters, the returned names, names a lambda
    reads and names the code deletes itself stay."""
    body, args = function.body, function.args
    keep = {a.id for a in args.posonlyargs + args.args + args.kwonlyargs}
    keep |= {a.id for a in (args.vararg, args.kwarg) if a is not None}
    keep |= name_ids(body[-1]) | _closed_over(body)
    keep |= {n.id for s in _statements(body) if isinstance(s, gast.Delete)
             for n in s.targets if isinstance(n, gast.Name)}
    frees = _last_reads(body, keep)
    out = []
    for k, s in enumerate(body):
        out.append(s)
        if k in frees and not isinstance(s, (gast.Return, gast.Raise)):
            out.append(gast.Delete(targets=[gast.Name(id=n, ctx=gast.Del(), annotation=None,
                                                      type_comment=None)
                                            for n in sorted(frees[k])]))
    function.body = out
