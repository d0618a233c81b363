"""Stage 5, analyze (continued): no silent zero cotangents.

A position of a call without a derivative rule has a declared reason
(runtime/registry.py): ZERO (a predicate, an integer, a floor) and SHAPE (only
the shape is read) give a true zero cotangent; NONE does not. Where a value
being differentiated reaches a NONE position and the result is used, the
program is refused at that line, before any generated code runs:

    t = np.arange(0.0, x, 0.5)     x varied, np.arange: NONE  ->  TransformError
    k = np.floor(x)                np.floor: ZERO             ->  fine, dk/dx = 0

Method calls dispatched at run time and custom rules (rrules) get their cotangents
by position, so a differentiated keyword argument to one is refused too. So is an ndarray attribute
no derivative flows through (`x.flat`, `x.base`, `x.data`, ...) on a varied value.
"""
import gast

from runtime.registry import NONE

from .activity import defined, walk
from .kept_values import check_kept_values, varied_arguments
from ..ir.nodes import name_ids
from ..lowering.sequence_kinds import bindings
from ..lowering.records import record_hint
from ..frontend.constructor_reasons import why_not_built
from ..lowering.integer_results import self_class


def check_reasons(ctx, body):
    """Raise TransformError where a varied value meets a position with no derivative
    (`body`: typed, ir/statements.py)."""
    act = ctx.activity
    for st, _ in walk(body):
        prim, s = getattr(st, "prim", None), st.node
        if prim is None:
            continue
        if getattr(prim, "guarded", None) in act.varied:     # numpy_methods.py's guard
            s.value.args[3] = gast.Constant(value=True, kind=None)
        names = defined(st)[0]
        if not (set(names) & act.useful):            # the result is not used
            check_kept_values(ctx, s, prim, varied_arguments(prim, act))
        if names and not (set(names) & act.useful) and not getattr(prim, "opaque", False):
            continue     # the result never reaches the output (a library call may keep it)
        _check_attribute(ctx, s, prim)
        for position, atom, why in _positions_without_rule(prim):
            varied = sorted(n for n in read_ids(atom) if n in act.varied)
            if varied and why == NONE:
                raise _refusal(ctx, s, prim, position, varied[0])


def read_ids(node):
    """The names `node` reads: a lambda's own parameters are not the enclosing function's
    names (`odeint(lambda y, t, K: ..., y0, t, args=(K,))` reads no K of its own)."""
    if isinstance(node, gast.Name):
        return {node.id}
    if isinstance(node, gast.Lambda):
        args = node.args
        own = {a.id for a in args.posonlyargs + args.args + args.kwonlyargs +
               [args.vararg, args.kwarg] if isinstance(a, gast.Name)}
        defaults = args.defaults + [d for d in args.kw_defaults if d is not None]
        return (read_ids(node.body) - own).union(*map(read_ids, defaults))
    return set().union(*map(read_ids, gast.iter_child_nodes(node)))


# ndarray attributes without a derivative: an iterator, the array viewed, raw memory
# and metadata objects. (.real, .imag, .T, .mT have rules: runtime getattr_vjp.)
ARRAY_ONLY_ATTRIBUTES = {"flat", "base", "data", "ctypes", "flags", "device",
                         "__array_interface__", "__array_struct__", "__array_priority__"}


def _check_attribute(ctx, s, prim):
    """`x.flat` (and the others above) where x is being differentiated: refused."""
    if prim.kind != "rule" or prim.fn is not getattr:
        return
    name, obj = prim.inputs.get("name"), prim.inputs.get("obj")
    attr = getattr(name, "value", None)
    if attr in ARRAY_ONLY_ATTRIBUTES and set(name_ids(obj)) & ctx.activity.varied and \
            not _known_object(ctx, prim):      # `ds.data` of a record is its field
        hint = "index the array itself (`x.ravel()[k]`, `x[i, j]`)" if attr == "flat" else \
            "compute from the array itself, not from its memory or metadata"
        raise ctx.src.error(f"`.{attr}` of a value being differentiated has no derivative "
                            "(for an ndarray it is not an array of its values)",
                            _site(s, prim), hint=hint)


def _known_object(ctx, prim):
    """Whether the receiver is certainly a user object: a local bound only to
    instances of user classes (`ds = Dataset(...)`), whose `.data` is its own, or the
    `self` of a method of a user class (`def mean(self): ... self.data`)."""
    site = getattr(prim, "site", None)
    if not isinstance(site, gast.Attribute) or not isinstance(site.value, gast.Name):
        return False
    if _own_self(ctx.src, site.value.id):
        return True
    values = bindings(ctx.src).get(site.value.id) if site.value.id in ctx.src.locals \
        else None
    return bool(values) and all(isinstance(v, gast.Call) and _user_class(ctx.src, v.func)
                                for v in values)


def _own_self(src, name):
    """`name` is the first parameter, never rebound, of a function defined directly in
    the body of a module-level user class that is no ndarray subclass, as a method or a
    property's (or functools.cached_property's) getter (not a staticmethod or
    classmethod): the instance."""
    return self_class(src, name) is not None


def _user_class(src, func):
    try:
        cls = src.resolve(func)
    except Exception:                   # an unresolvable callee: not known
        return False
    module = getattr(cls, "__module__", "") or ""
    return isinstance(cls, type) and module.split(".")[0] not in ("builtins", "numpy",
                                                                  "scipy")


def _positions_without_rule(prim):
    """(position, atom, reason) for each argument of `prim` no derivative flows through."""
    if prim.kind == "nondiff" and prim.rule is not None:
        starred = False             # after `*xs` the positions are known only at run time
        for key, atom in prim.operands:
            starred = starred or isinstance(atom, gast.Starred)
            param = prim.rule.params[key] if isinstance(key, int) and \
                key < len(prim.rule.params) else key
            uniform = prim.rule.why if isinstance(prim.rule.why, str) else NONE
            yield key, atom, uniform if starred else prim.rule.reason(param)
    elif prim.kind == "rule":
        for param, atom in prim.inputs.items():
            if param in prim.rule.templates:
                continue
            if isinstance(atom, gast.Dict):        # **kwargs: name the keyword
                for key, value in zip(atom.keys, atom.values):
                    yield key.value, value, prim.rule.reason(param)
            else:
                yield param, atom, prim.rule.reason(param)
    elif prim.kind == "custom":
        # a registered rrule's pullback returns cotangents by position: none for keywords;
        # a derivative function that cannot be differentiated again (hessian(f)): none
        refused = list(enumerate(prim.args)) if getattr(prim.rule, "refused", False) else []
        for key, atom in refused + list(prim.operands):
            yield key, atom, NONE
    elif prim.kind == "call":
        # a method: keywords (the pullback returns positions only); a user function:
        # arguments its *args/**kwargs take (its pullback answers for named parameters)
        for key, atom in prim.operands:
            yield key, atom, NONE


def _refusal(ctx, s, prim, position, name):
    what = "a value being differentiated" if name in ctx.names.temporaries else \
        f"`{name}`, which is being differentiated,"
    if isinstance(position, int):
        position -= getattr(prim, "receiver_first", False)   # x.method(a): a is argument 1
        where = "the receiver" if position < 0 else f"argument {position + 1}"
    else:
        where = f"`{position}`"
    if getattr(prim.rule, "refused", False):              # public/checks.py
        return ctx.src.error(
            f"{what} reaches a derivative function made by hessian, hvp, jacfwd, jacrev, "
            "or grad of a bound method, which is not differentiated again",
            _site(s, prim), hint="use grad(f) or value_and_grad(f) of a function of your "
            "own here: those are differentiated again (grad of grad)")
    if getattr(prim.fn, "thunkgrad_block", None):        # frontend/try_blocks.py
        return ctx.src.error(
            f"{what} is read (or may be kept) by a try statement's body or handler: "
            "they run as written, in the forward sweep only, so no derivative flows "
            "through them",
            _site(s, prim), hint="compute differentiated values outside the try statement "
                                 "(in its `else` block, or test for the failing case with "
                                 "`if`)")
    if prim.fn in (set, frozenset):                       # frontend/scopes.py
        return ctx.src.error(
            "a set of values being differentiated is not supported: a set keeps its items "
            "in hash order and drops equal ones, so their cotangents cannot be matched",
            _site(s, prim), hint="use a list (or a dict keyed by what makes items equal)")
    if prim.kind == "call" and not getattr(prim, "method", None):
        return ctx.src.error(
            f"{what} is passed to {prim.label}() as {position}: a helper's `*args` and "
            "`**kwargs` parameters are not differentiated, the gradient would silently "
            "be zero", _site(s, prim), hint=f"name each parameter of {prim.label}()")
    if prim.kind == "call":
        callee = getattr(prim.receiver, "id", "the callable")
        call = f"{callee}()" if prim.method == "__call__" else f"the method call {prim.label}()"
        return ctx.src.error(
            f"{what} is passed by keyword ({where}) to {call}, which is dispatched at run "
            "time and whose cotangents are matched by position",
            _site(s, prim), hint="build the new record with its class, every field "
            "positionally: `Point(p.x, new_y)`" if prim.method == "_replace"
            else "pass it positionally")
    return ctx.src.error(
        f"{what} reaches {where} of {prim.label}, {_no_rule(prim.fn)}: the gradient "
        "would silently be zero", _site(s, prim),
        hint=record_hint(prim.fn) or getattr(prim.rule, "hint", None) or (
            _ZIP_HINT if prim.fn is zip else None) or
        "compute that value outside the differentiated function, or register a rule "
        "with transform.rrule (docs/adding_a_rule.md)")


# (zip in forward mode's code compiled again, hvp's reverse over forward: tests/msgs41)
_ZIP_HINT = "walk the positions: `for k in range(len(xs)): x, y = xs[k], ys[k]`; or " \
    "use hvp's route=\"forward_over_reverse\""


def _no_rule(fn):
    """What the callee lacks: a user class the compiler does not build (its construct
    in the hint), or a derivative rule."""
    if isinstance(fn, type) and why_not_built(fn):
        return "a class whose construction the compiler does not read"
    return "which has no derivative rule for it"


class _Line:
    """A stand-in node for a statement whose user node is not known: its line only."""

    def __init__(self, lineno):
        self.lineno, self.col_offset = lineno, 0


def _site(s, prim):
    return prim.site if getattr(prim.site, "lineno", None) else _Line(s.origin_line)
