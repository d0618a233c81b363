"""Which operands of `a * b` may be a list or tuple (so `*` may repeat, not scale).

`[x, y] * 2` is certainly a repetition (normalize rewrites it to `repeat_sequence`), and
`W @ x * 2` certainly a product. Between the two are operands whose kind the source does
not show: a parameter with no argument shapes (a helper), a name bound to what a user
function returned, an element of a container, a loop variable. For those the product
gets a rule that decides at run time (`product_or_repeat`), so `xs * 2` on a list is
never differentiated as a scale by 2.
"""
import gast

from runtime.traits import PRIMITIVE

from ..ir.nodes import statements, walk
from ..ir.primitives import rule_for

# builtins that return a list or tuple (or iterate over one)
SEQUENCE_BUILTINS = (list, tuple, sorted, reversed)
# the `math` functions whose value may be an int (the rest return floats; declared
# beside their rules: int_result=True)
INT_VALUED_MATH = PRIMITIVE["int_result"]


def may_repeat(src, left, right):
    """Whether `left * right` may repeat a sequence: one side may be a sequence and the
    other may be an integer count (`h * h` cannot: a list times a list is an error)."""
    if isinstance(left, gast.Name) and isinstance(right, gast.Name) and left.id == right.id:
        return False
    return ((may_be_sequence(src, left) and may_be_count(src, right)) or
            (may_be_sequence(src, right) and may_be_count(src, left)))


def may_be_sequence(src, node, seen=None):
    if isinstance(node, (gast.List, gast.Tuple, gast.ListComp, gast.Subscript, gast.Attribute)):
        return True                       # `pairs[0]`, `self.layers` may be lists
    if isinstance(node, gast.Call):
        fn = src.resolve(node.func)
        if fn is None or fn in SEQUENCE_BUILTINS:
            return True
        return rule_for(fn) is None and returns_sequence(fn)
    if isinstance(node, gast.Name):
        return _name_may_be(src, node, seen, may_be_sequence, ("list", None))
    if isinstance(node, gast.BinOp) and isinstance(node.op, gast.Add):   # `ys + [x]`
        return may_be_sequence(src, node.left, seen) and may_be_sequence(src, node.right, seen)
    if isinstance(node, gast.BinOp) and isinstance(node.op, gast.Mult):  # `ys * 2`
        return (may_be_sequence(src, node.left, seen) and may_be_count(src, node.right, seen)) \
            or (may_be_sequence(src, node.right, seen) and may_be_count(src, node.left, seen))
    if isinstance(node, gast.IfExp):
        return may_be_sequence(src, node.body, seen) or may_be_sequence(src, node.orelse, seen)
    if isinstance(node, gast.BoolOp):
        return any(may_be_sequence(src, v, seen) for v in node.values)   # `ys or [x]`
    return False


def may_be_count(src, node, seen=None):
    """Whether `node` may be an int (a 0-d array, a float or a list never repeats)."""
    if isinstance(node, gast.Constant):
        return isinstance(node.value, int)
    if isinstance(node, gast.BinOp):
        return not isinstance(node.op, (gast.MatMult, gast.Div)) and \
            may_be_count(src, node.left, seen) and may_be_count(src, node.right, seen)
    if isinstance(node, gast.Call):
        fn = src.resolve(node.func)
        if getattr(fn, "__module__", None) == "math":
            return fn in INT_VALUED_MATH
        types = getattr(fn, "types", None)                           # a ufunc's loops
        return types is None or any(t[-1] in "?bBhHiIlLqQnN" for t in types)
    if isinstance(node, gast.Name):
        return _name_may_be(src, node, seen, may_be_count, (None,))
    return True


def _name_may_be(src, node, seen, test, param_kinds):
    """`test` over every value bound to the name (a parameter: its known kind).

    `seen` holds the names on the current path: meeting one again is a cycle
    (`n = n + 1`), which adds nothing the bindings outside it do not. Answers found
    without cutting a cycle are kept for the compilation (a chain `t2 = t1 + t1`
    would otherwise be explored exponentially often)."""
    memo = _memo(src)
    key = (test.__name__, node.id)
    if key in memo:
        return memo[key]
    seen = _Path() if seen is None else seen
    if node.id in seen.names:
        seen.cut = True
        return False
    seen.names.add(node.id)
    cut_before, seen.cut = seen.cut, False
    try:
        result = _binding_may_be(src, node, seen, test, param_kinds)
    finally:
        seen.names.discard(node.id)
    if not seen.cut:
        memo[key] = result
    seen.cut = seen.cut or cut_before
    return result


class _Path:
    """The names being explored, and whether a cycle was cut below the current one."""

    def __init__(self):
        self.names, self.cut = set(), False


def _memo(src):
    """This compilation's answers (argument kinds differ between compilations)."""
    kinds = tuple(sorted(getattr(src, "param_kinds", {}).items()))
    memo = getattr(src, "kind_memo", None)
    if memo is None or memo[0] != kinds:
        memo = src.kind_memo = (kinds, {})
    return memo[1]


def _binding_may_be(src, node, seen, test, param_kinds):
    if node.id in src.params:
        return getattr(src, "param_kinds", {}).get(node.id) in param_kinds
    values = bindings(src).get(node.id)
    if values is None:                    # a global, or a comprehension's variable
        obj = src.resolve(node)
        return obj is None or test is may_be_count and isinstance(obj, int) or \
            test is may_be_sequence and isinstance(obj, (list, tuple))
    return any(value is None or test(src, value, seen) for value in values)


def returns_sequence(fn):
    """Whether a user function may return a list or tuple (True when unreadable)."""
    from ..frontend.parse import parse_function            # parse imports this module's users
    try:
        src = parse_function(fn)
    except Exception:                            # no source: assume the worst
        return True
    return any(node.value is not None and may_be_sequence(src, node.value)
               for node in walk(src.node) if isinstance(node, gast.Return))


def bindings(src):
    """Local name -> the expressions bound to it (None where the binding hides its
    value: a loop target, an unpacking, a `with` or `except` name, an import)."""
    if not hasattr(src, "sequence_bindings"):
        found = {}
        for node in statements(src.node):
            for name, value in _bound(node):
                found.setdefault(name, []).append(value)
        src.sequence_bindings = found
    return src.sequence_bindings


def _bound(node):
    if isinstance(node, gast.Assign):
        for target in node.targets:
            if isinstance(target, gast.Name):
                yield target.id, node.value
            else:
                yield from ((n.id, None) for n in _names(target))
    elif isinstance(node, (gast.AugAssign, gast.AnnAssign)) and isinstance(node.target, gast.Name):
        yield node.target.id, getattr(node, "value", None)
    elif isinstance(node, gast.For) and isinstance(node.target, gast.Name) and \
            isinstance(node.iter, gast.Call) and getattr(node.iter.func, "id", None) == "range":
        yield node.target.id, gast.Constant(value=0, kind=None)      # an int
    elif isinstance(node, (gast.For, gast.With)):
        targets = [node.target] if isinstance(node, gast.For) else \
            [item.optional_vars for item in node.items if item.optional_vars is not None]
        for target in targets:
            yield from ((n.id, None) for n in _names(target))


def _names(target):
    return [n for n in walk(target) if isinstance(n, gast.Name)]


def sequence_names(src):
    """Local names every binding of which is a list or tuple display or comprehension
    (statements only: a comprehension's own variables are not the function's)."""
    if not hasattr(src, "sequence_names"):
        kinds = {}
        for node in statements(src.node):
            if isinstance(node, gast.Assign):
                is_seq = isinstance(node.value, (gast.List, gast.Tuple, gast.ListComp))
                for t in node.targets:
                    for n in walk(t):
                        if isinstance(n, gast.Name):
                            kinds[n.id] = kinds.get(n.id, True) and is_seq and t is n
            elif isinstance(node, gast.For):          # (`xs *= 2` keeps a list)
                for n in walk(node.target):
                    if isinstance(n, gast.Name):
                        kinds[n.id] = False
        src.sequence_names = {k for k, v in kinds.items() if v and k not in src.params}
    return src.sequence_names
