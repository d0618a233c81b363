"""The tangent statement of one lowered statement, by its Prim's kind:

    rule      y_dot = <the JVP terms of the active inputs>       (terms.py)
    copy      y_dot = x_dot (the statement with its atom swapped: `iterable(xs_dot)`)
    pack      p_dot = (s_dot, zero_tangent(k))
    setitem   w_dot = stored_tangent(w_dot, index, v_dot)
    append    acc_dot.append(v_dot)   (extend the same: the tangent list mirrors the
              list, which desugar copied on entry if it is an argument)
    nondiff   y_dot = zero_tangent(y)   (only where y is active: bound elsewhere too)

    call      y, y_dot = call_jvp(f, {param: tangent}, *args)   (calls.py)

    custom    y_dot = grad_f_tan(x_dot, x)    for y = grad(f)(x) (calls.py)
    custom    y_dot = the JVP another rrule declares (custom.py; refused without one)
"""
import gast

from ..ir import statements as ir
from ..ir.nodes import assign, load, located, name_ids
from ..ir.templates import as_value, clone
from ..ir.vocabulary import role_of
from .calls import call_statement, derivative_tangent, dispatched, listed_generator, \
    unspread
from .complex_terms import check_complex_terms
from .custom import custom_tangent
from .refusals import refuse
from .terms import _swap, tangent_of
from .tidy import folded


def statement_tangent(fwd, s):
    """[s, its tangent statement(s)] (just [s] when it binds no active name), for a
    typed simple statement (ir/statements.py); the tangents are `ir.Emitted`."""
    match s:
        case ir.SetItem():
            return [s] + _setitem(fwd, s)
        case ir.Append():
            return [s] + _append(fwd, s)
        case ir.Assignment() | ir.NonDiff(node=gast.Assign(targets=[gast.Name()])):
            return _assigned(fwd, s)
    bound = name_ids(s.node, gast.Store) & fwd.active
    if bound:
        refuse(fwd, s, f"a `{type(s.node).__name__}` statement binding {sorted(bound)[0]!r}",
               "bind one name per statement, or use vjp")
    return [s]


def _assigned(fwd, st):
    """`y = ...`: its tangent by the statement's kind, or the statement alone."""
    s, prim = st.node, st.prim
    _note_copy_test(fwd, s)
    target = s.targets[0].id
    if target not in fwd.active:
        _plain_snapshot(s, prim)
        before = s.value
        listed_generator(fwd, unspread(s, prim), prim)
        if s.value is before and fwd.dispatching and isinstance(st, ir.Call) and \
                st.fn is None and st.method is not None and \
                isinstance(s.value.func, gast.Attribute):
            s.value = dispatched(fwd, s, prim)[1]     # refused if the object has none
        return [st]
    if isinstance(st, ir.Call) and fwd.dispatching and st.fn is None:
        return [fwd.deferred(st)]         # `y = obj.copy()`, obj carrying a tangent
    if isinstance(st, ir.Call):
        return [ir.Emitted(a) for a in _lambdas_named(fwd, call_statement(fwd, s, prim,
                                                                           target))]
    tangent = folded(located(assign(fwd.dot(target), _value(fwd, st, target)), s))
    return [st, ir.Emitted(tangent)]


def _lambdas_named(fwd, s):
    """[`fn1 = lambda t: t ** 2`, ..., s]: a lambda reading no locals, passed to
    call_jvp, bound to a name first (reverse mode over this code, hvp, refuses a lambda
    given to a rule; a name holding one it compiles where it is called)."""
    named = []
    for k, arg in enumerate(s.value.args):
        if isinstance(arg, gast.Lambda):
            name = fwd.names.reserve("fn")
            named.append(located(assign(name, arg), s))
            s.value.args[k] = load(name)
    return named + [s]


def _plain_snapshot(s, prim):
    """`seq1 = iterable(xs)` for a sequence without a tangent: `seq1 = xs`. The tangent
    sweep walks it once, as the user's loop does (iterable's refusals concern a sequence
    whose tangent is walked beside it), and reverse mode over this code (hvp) keeps its
    own snapshot instead of differentiating a runtime helper."""
    if prim is not None and prim.kind == "copy" and prim.label == "iterable" and \
            isinstance(s.value, gast.Call) and len(s.value.args) == 1:
        s.value = s.value.args[0]
    return s


def _value(fwd, st, target):
    """The tangent expression of `target = ...` by the statement's kind."""
    s, prim = st.node, st.prim
    match st:
        case ir.NonDiff():
            return fwd.names.call("zero_tangent", load(target))
        case ir.Custom():
            return _custom(fwd, s, prim, target)
        case ir.Copy():
            return _copied(fwd, s, prim)
        case ir.Pack():
            swaps = {id(a): fwd.tangent_or_zero(a) for a in st.args}
            expr, found = _swap(s.value, swaps)
            if len(found) != len(swaps):
                refuse(fwd, prim, f"a `{prim.label}` display it cannot follow", "use vjp")
            return expr
        case ir.RuleCall():
            return _rule_tangent(fwd, s, prim, target)
    refuse(fwd, st, f"a `{prim.label}` statement", "use vjp")


def _custom(fwd, s, prim, target):
    if "thunkgrad_derivative" in getattr(prim.fn, "__dict__", {}):
        return derivative_tangent(fwd, s, prim)
    if getattr(prim.fn, "thunkgrad_derivative_of", None) is not None:
        refuse(fwd, prim, f"a call of `{prim.label}`, a derivative made by hessian, hvp, "
               "jacfwd, jacrev, or grad of a bound method", "only what grad and value_and_grad "
               "return is differentiated again: write it with grad(f) of your own function")
    tangent = custom_tangent(fwd, s, prim)
    return tangent if tangent is not None else fwd.names.call("zero_tangent", load(target))


def _copied(fwd, s, prim):
    atom = prim.args[0]
    if not fwd.is_active(atom):
        return fwd.names.call("zero_tangent", load(s.targets[0].id))
    if isinstance(s.value, gast.Name):
        return load(fwd.dot(s.value.id))
    reads = [n for n in gast.walk(s.value) if isinstance(n, gast.Name) and n.id == atom.id]
    if len(reads) != 1:
        refuse(fwd, prim, f"a `{prim.label}` copy it cannot follow", "use vjp")
    return _swap(s.value, {id(reads[0]): load(fwd.dot(atom.id))})[0]


def _rule_tangent(fwd, s, prim, target):
    for param, atom in prim.inputs.items():
        inside = name_ids(atom) & fwd.active if not isinstance(atom, (gast.Name, gast.Lambda)) \
            else ()           # (a lambda kept as written reads no locals: its own names)
        if inside and _differentiated(prim.rule, param):
            refuse(fwd, prim, f"a differentiated value inside the argument {param!r} of "
                   f"`{prim.label}`", "pass it as a name of its own, or use vjp")
    if target in name_ids(s.value):
        refuse(fwd, prim, f"`{target}` rebound from its own value in one statement",
               "use vjp")
    tangents = {p: fwd.dot(a.id) for p, a in prim.inputs.items()
                if fwd.is_active(a) and (p in prim.rule.templates or p in prim.rule.jvps)}
    missing = [p for p, a in prim.inputs.items() if fwd.is_active(a) and p not in tangents]
    if missing and prim.rule.reason(missing[0]) not in ("zero", "shape"):
        refuse(fwd, prim, f"`{prim.label}` has no derivative for its argument "
               f"{missing[0]!r}", "use vjp")
    check_complex_terms(fwd, prim, tangents)
    expr = tangent_of(fwd, s, prim, target, tangents)
    return expr if expr is not None else fwd.names.call("zero_tangent", load(target))


def _differentiated(rule, param):
    """Whether the rule differentiates `param`: an argument declared to carry no
    derivative (zero: an index; shape: read for its shape) may hold differentiated
    values inside an expression, as it may as a name (`getitem_vjp(g, A, (i, j))` in
    hvp's flat gradient, i and j read back from the tape)."""
    return param in rule.templates or param in rule.jvps or \
        rule.reason(param) not in ("zero", "shape")


def _setitem(fwd, s):
    base = s.base
    if not isinstance(base, gast.Name) or base.id not in fwd.active:
        return []
    index = as_value(fwd.names, clone(s.index))
    value = fwd.tangent_or_zero(s.value)
    call = fwd.names.call("stored_tangent", load(fwd.dot(base.id)), index, value)
    return [ir.Emitted(located(assign(fwd.dot(base.id), call), s.node))]


def _append(fwd, s):
    if not fwd.is_active(s.acc):
        return []
    method = gast.Attribute(value=load(fwd.dot(s.acc.id)), attr=s.method, ctx=gast.Load())
    call = gast.Call(func=method, args=[fwd.tangent_or_zero(s.value)], keywords=[])
    return [ir.Emitted(located(gast.Expr(value=call), s.node))]


def _note_copy_test(fwd, s):
    value = s.value
    if isinstance(value, gast.Call) and role_of(value.func) == "is_user_object" and \
            len(value.args) == 2 and isinstance(value.args[1], gast.Constant) and \
            value.args[1].value == "copy":
        fwd.copy_tests.add(s.targets[0].id)
