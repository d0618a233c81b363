"""One statement's tangent from its rule's JVP terms (runtime/jvp.py, docs/forward.md),
expanded inline as reverse mode expands `Rule.templates`:

    t2 = v * t1        DIAGONAL in x and y   ->   t2_dot = v_dot * t1 + t1_dot * v
    t3 = s + t2        jointly linear        ->   t3_dot = s_dot + t2_dot
    t9 = np.sum(t8)    a template            ->   t9_dot = np.sum(t8_dot)   (tidy.py)
    t6 = y[1]          LINEAR                ->   t6_dot = y_dot[1]

The output's tangent is the sum of the terms of the inputs that have a tangent; the
terms of the others are dropped.
"""
import operator

import gast

from runtime.jvp import DIAGONAL, JOINT, LINEAR, REDUCTION
from runtime.closures import make_partial
from runtime.registry import TEMPLATE_NAMESPACE

from ..ir.nodes import load
from ..ir.templates import _names_of, _parsed, _template, as_value, clone
from .refusals import refuse
from .tidy import tangent_last, tidy_template


# Jointly linear in their arguments, whatever those are (arrays, numbers, or lists that
# `+` concatenates): the tangent is the operation on the arguments' tangents.
JOINTLY_LINEAR = (operator.add, operator.sub)


def tangent_of(fwd, s, prim, target, tangents):
    """The expression of `target`'s tangent: `tangents` is {param: tangent name} for the
    inputs of `prim` that carry one."""
    if not tangents:            # (no input has one: the caller's zero_tangent(target))
        return None
    if prim.fn in JOINTLY_LINEAR and isinstance(s.value, gast.BinOp):
        return _jointly(fwd, s, prim, target, tangents)
    joint = [p for p, t in prim.rule.jvps.items() if t == JOINT]
    if joint and len(joint) == len(prim.rule.jvps) and len(tangents) > 1:
        # one call of the tangents (zeros for the rest): a record's fields, np.append's
        first = next(iter(tangents))
        return _replaced(fwd, s, prim, first, tangents[first],
                         [p for p in joint if p != first], tangents)
    terms = [_term(fwd, s, prim, param, tangent, target)
             for param, tangent in tangents.items()]
    displays = [t for t in terms if isinstance(t, gast.Tuple)]
    if displays:
        if len(displays) != len(terms) or len({len(t.elts) for t in terms}) != 1:
            refuse(fwd, prim, f"`{prim.label}`'s tuple of tangents with other terms",
                   "use vjp")
        return _entrywise(fwd, terms, target, none=prim.rule.fn is make_partial)
    # a helper's term may be a tuple, which `+` concatenates; a dict display (a frozen
    # distribution's, by parameter: stats.norm(mu, s)) has no `+` (fuzz forward_mode:34072)
    helpers = all(_helper_term(prim.rule.jvps.get(p)) for p in tangents) or \
        any(isinstance(t, gast.Dict) for t in terms)
    total = None
    for term in terms:
        total = term if total is None else fwd.names.call("tangent_terms_sum", total, term) \
            if helpers else gast.BinOp(left=total, op=gast.Add(), right=term)
    return total


def _helper_term(term):
    """Whether a JVP term is one call of a runtime template helper (lstsq_jvp(...))."""
    head = term.split("(")[0].strip() if isinstance(term, str) else ""
    fn = TEMPLATE_NAMESPACE.get(head) if head.isidentifier() else None
    return (getattr(fn, "__module__", "") or "").startswith("runtime") and \
        term.strip().endswith(")") and term.count("(") >= 1


def _entrywise(fwd, terms, target, none=False):
    """Tuple outputs' terms (`(None, t_x)` for divmod's) added entry by entry; an entry
    no term gives (None) is a zero of the output's entry: `zero_tangent(t1[0])` (None
    for a partial's, which has no entries: `none`)."""
    entries = []
    for k in range(len(terms[0].elts)):
        parts = [t.elts[k] for t in terms
                 if not (isinstance(t.elts[k], gast.Constant) and t.elts[k].value is None)]
        total = parts[0] if parts else gast.Constant(value=None, kind=None) if none else \
            fwd.names.call("zero_tangent", gast.Subscript(
            value=load(target), slice=gast.Constant(value=k, kind=None), ctx=gast.Load()))
        for part in parts[1:]:
            total = gast.BinOp(left=total, op=gast.Add(), right=part)
        entries.append(total)
    return gast.Tuple(elts=entries, ctx=gast.Load())


def _term(fwd, s, prim, param, tangent, target):
    rule = prim.rule
    if rule.fn is getattr and param == "obj":        # p.w: the field of p's tangent
        return fwd.names.call("attribute_tangent", load(tangent), clone(prim.inputs["obj"]),
                              clone(prim.inputs["name"]))
    term = rule.jvps.get(param)
    if term is None:
        refuse(fwd, prim, f"`{prim.label}` has no forward-mode (JVP) rule for its "
               f"argument {param!r}", "compute this with reverse mode (vjp, jacrev), or "
               "declare the rule's JVP terms (defvjp(..., jvp=...), docs/forward.md)")
    if term in (LINEAR, JOINT):
        joint = [p for p, t in rule.jvps.items() if t == JOINT and p != param] \
            if term == JOINT else []
        return _replaced(fwd, s, prim, param, tangent, joint)
    if term == DIAGONAL:
        return _diagonal(fwd, prim, param, tangent, target)
    if term == REDUCTION:
        return _reduction(fwd, prim, param, tangent, target)
    return _expanded(fwd, tidy_template(term, prim, s), {f"t_{param}": load(tangent)},
                     prim.inputs, target, frozenset())


def _jointly(fwd, s, prim, target, tangents):
    """`x_dot + y_dot` for `x + y` (list concatenation too); an argument without a
    tangent is dropped where the other has the output's shape, else a zero of its own
    shape takes its place (`x_dot + zero_addend(y)` broadcasts, or concatenates)."""
    x, y = prim.inputs["x"], prim.inputs["y"]
    if "x" in tangents and "y" in tangents:
        return gast.BinOp(left=load(tangents["x"]), op=s.value.op, right=load(tangents["y"]))
    side, other = ("x", y) if "x" in tangents else ("y", x)
    if fwd.same_shape(prim.inputs[side], target):
        one = load(tangents[side])
        if side == "y" and isinstance(s.value.op, gast.Sub):
            return gast.UnaryOp(op=gast.USub(), operand=one)
        return one
    zero = gast.Call(func=fwd.helper("zero_addend"), args=[clone(other)], keywords=[])
    left, right = (load(tangents["x"]), zero) if side == "x" else (zero, load(tangents["y"]))
    return gast.BinOp(left=left, op=s.value.op, right=right)


def _replaced(fwd, s, prim, param, tangent, joint, tangents=None):
    """The statement's own call with the tangent in `param`'s place (and zeros, or their
    own tangents where `tangents` gives one, in the other JOINT arguments'), found by the
    very atom node lowering bound to it."""
    atom = prim.inputs[param]
    if not any(n is atom for n in gast.walk(s.value)):    # a method's receiver: x.copy()
        reads = [n for n in gast.walk(s.value) if type(n) is gast.Name and n.id == atom.id]
        atom = reads[0] if len(reads) == 1 else atom
    value = s.value
    receiver = isinstance(value, gast.Call) and isinstance(value.func, gast.Attribute) \
        and value.func.value is atom
    swaps = {id(atom): fwd.names.call("receiver_tangent", load(tangent), clone(atom))
             if receiver else load(tangent)}
    for other in joint:
        node = prim.inputs[other]
        swaps[id(node)] = load(tangents[other]) if other in (tangents or {}) else \
            fwd.names.call("zero_tangent", clone(node))
    expr, found = _swap(s.value, swaps)
    if isinstance(prim.rule.fn, type) and isinstance(expr, gast.Call):
        # a record's field left at its default: a constant, whose tangent is zero
        expr.keywords += [gast.keyword(arg=p, value=swaps[id(prim.inputs[p])])
                          for p in joint if id(prim.inputs[p]) not in found]
    needed = [atom] + [prim.inputs[p] for p in joint if p in (tangents or {})]
    shared = sum(1 for n in gast.walk(s.value) if id(n) in swaps) != len(found)
    if shared or any(id(n) not in found for n in needed):
        refuse(fwd, prim, f"forward mode cannot place the tangent of {param!r} in "
               f"`{prim.label}`'s call", "pass the argument by name or position, plainly")
    return expr


def _swap(node, swaps):
    """A copy of `node` with the nodes whose id is in `swaps` replaced; (copy, ids found)."""
    found = set()

    def visit(n):
        if isinstance(n, list):
            return [visit(m) for m in n]
        if not isinstance(n, gast.AST):
            return n
        if id(n) in swaps:
            found.add(id(n))
            return clone(swaps[id(n)])
        if not n._fields:
            return n
        new = gast.AST.__new__(type(n))
        for field in n._fields:
            setattr(new, field, visit(getattr(n, field)))
        for attr in ("lineno", "col_offset", "end_lineno", "end_col_offset", "role"):
            if attr in n.__dict__:
                setattr(new, attr, n.__dict__[attr])
        return new
    return visit(node), found


def _diagonal(fwd, prim, param, tangent, target):
    """J^T = J: the cotangent template with the tangent broadcast to the output as `g`
    (and the argument broadcast too, so its unbroadcast sums nothing)."""
    atom = prim.inputs[param]
    inputs = dict(prim.inputs)
    g = load(tangent)
    if not fwd.same_shape(atom, target):
        g = fwd.names.call("broadcast_to_output", g, load(target))
        inputs[param] = fwd.names.call("broadcast_to_output", clone(atom), load(target))
    text = prim.rule.template_text(param, False)
    expr = _expanded(fwd, text, {"g": g}, inputs, target, frozenset({param}),
                     keep={param} if inputs[param] is not atom else ())
    return tangent_last(expr, tangent) if g.__class__ is gast.Name else expr


def _reduction(fwd, prim, param, tangent, target):
    """Each output's slopes (the VJP template at a cotangent of ones) against the
    tangent, summed along the rule's axis (runtime/jvp.py reduction_term)."""
    params = prim.rule.params
    text = (f"reduce_jvp({prim.rule.template_text(param, False)}, t_{param}, "
            f"{'axis' if 'axis' in params else 'None'}, "
            f"{'keepdims' if 'keepdims' in params else 'False'})")
    g = _expanded(fwd, "np.ones_like(ans)", {}, {}, target, frozenset())
    return _expanded(fwd, text, {"g": g, f"t_{param}": load(tangent)}, prim.inputs,
                     target, frozenset())


def _expanded(fwd, text, extra, inputs, target, dropped, keep=()):
    """`text` with the rule's parameters replaced by their atoms, `ans` by the target,
    the names in `extra` by their nodes and helpers by the compiler's names for them.
    dropped: parameters whose unbroadcast is the identity here (ir/templates.py)."""
    mapping = {}
    for name, node in inputs.items():
        value = node if name in keep else as_value(fwd.names, node)
        if value is not None:
            mapping[name] = value
    mapping.update(extra)
    mapping["ans"] = load(target)
    tree = _template(text, (dropped, frozenset())) if dropped else _parsed(text)
    free, bound = _names_of(tree)
    own = {name: fwd.names.template_local(name) for name in bound}
    for helper in free - mapping.keys() - own.keys():
        mapping[helper] = fwd.helper(helper)
    mapping.update({name: load(chosen) for name, chosen in own.items()})
    expr = clone(tree, mapping)
    if own:
        for n in gast.walk(expr):
            if type(n) is gast.Name and type(n.ctx) is gast.Store and n.id in own:
                n.id = own[n.id]
    return expr
