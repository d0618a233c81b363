"""Inline expansion of rule templates: the rule's math, with names substituted.

    rule np.tanh: "g * (1 - ans ** 2)"   with g=dh, ans=h   ->   dh * (1 - h ** 2)
"""
import copy
import functools

import gast

from runtime.traits import HELPER

from .nodes import load, walk


@functools.lru_cache(maxsize=None)
def _parsed(text):
    return gast.parse(text, mode="eval").body


# helper -> positions of arguments it reads only for their shape and dtype (declared
# beside each helper: @template_helper(shape_only=...))
SHAPE_ONLY_ARGS = HELPER["shape_only"]


class _DropUnbroadcast(gast.NodeTransformer):
    """unbroadcast(G, p) -> G where p has the output's shape, and unstack_vjp(G, p) -> G
    (`np.copy` of an array of the output's known shape: no complex values around, see
    dropped_params); a shape-only read of a parameter known to be a scalar becomes the
    constant 0.0 (shape ())."""

    def __init__(self, dropped, scalars):
        self.dropped, self.scalars = dropped, scalars

    def visit_Call(self, node):
        self.generic_visit(node)
        if not isinstance(node.func, gast.Name):
            return node
        if node.func.id in ("unbroadcast", "unstack_vjp") and len(node.args) in (2, 3) \
                and isinstance(node.args[1], gast.Name) and node.args[1].id in self.dropped:
            return node.args[0]
        if node.func.id == "unbroadcast" and len(node.args) == 2 and \
                isinstance(node.args[1], gast.Name) and node.args[1].id in self.scalars:
            dot = self.dot(node.args[0])
            if dot is not None:
                return dot
        for k in SHAPE_ONLY_ARGS.get(node.func.id, ()):
            arg = node.args[k] if k < len(node.args) else None
            if isinstance(arg, gast.Name) and arg.id in self.scalars:
                node.args[k] = gast.Constant(value=0.0, kind=None)
        return node


    def dot(self, product):
        """`unbroadcast(g * y, k)` for a real scalar k and a y of the output's shape is
        the sum of the product: `np.vdot(g, y)`, one pass and no temporary."""
        if not (isinstance(product, gast.BinOp) and isinstance(product.op, gast.Mult)):
            return None
        ids = [getattr(o, "id", None) for o in (product.left, product.right)]
        if "g" not in ids or not any(i in self.dropped for i in ids if i != "g") or \
                not all(isinstance(o, gast.Name) for o in (product.left, product.right)):
            return None
        vdot = gast.Attribute(value=load("np"), attr="vdot", ctx=gast.Load())
        return gast.Call(func=vdot, args=[product.left, product.right], keywords=[])


@functools.lru_cache(maxsize=None)
def _template(text, simplification):
    dropped, scalars = simplification
    tree = copy.deepcopy(_parsed(text))
    if dropped or scalars:
        tree = _DropUnbroadcast(dropped, scalars).visit(tree)
    return tree


def dropped_params(rule, inputs, target, shapes):
    """(params whose unbroadcast is the identity here, params known to be scalars,
    whether the templates refuse complex values: a rule not declared complex_ok, in a
    function that may hold one, runtime/complex_safety.py)."""
    if shapes is None:
        return (frozenset(), frozenset(), not rule.complex_ok)
    guard = not rule.complex_ok and shapes.may_complex
    if not rule.complex_ok and not shapes.may_complex:
        shapes.unguarded = True     # the compiled rule must refuse complex arguments
    dropped = frozenset(p for p, atom in inputs.items()
                        if p in rule.params and shapes.same(atom, target))
    if shapes.may_complex and any("unstack_vjp(" in t for t in rule.templates.values()
                                  if isinstance(t, str)):
        dropped = frozenset()        # a real array's copy takes a complex g's real part
    scalars = frozenset() if shapes.may_complex else frozenset(
        p for p, atom in inputs.items() if p in rule.params and shapes.of(atom) == "scalar")
    if any(isinstance(inputs[p], gast.Name) for p in scalars):
        shapes.stood_in = True  # a real 0.0 for a value: the rule refuses complex arguments
    return dropped, scalars, guard


@functools.lru_cache(maxsize=4096)
def names_read(rule, param, dropped=(frozenset(), frozenset(), False)):
    """(names whose value the template reads, names it reads only for shape/dtype).

    Names are among "ans" and the rule's parameters.
    """
    tree = _template(rule.template_text(param, dropped[2]), dropped[:2])
    shape_nodes = set()
    for node in gast.walk(tree):
        if isinstance(node, gast.Call) and isinstance(node.func, gast.Name):
            for k in SHAPE_ONLY_ARGS.get(node.func.id, ()):
                if k < len(node.args) and isinstance(node.args[k], gast.Name):
                    shape_nodes.add(id(node.args[k]))
    known = (set(rule.params) - {"g"}) | {"ans"}      # a record field `g` is not read
    value, shape = set(), set()
    for node in gast.walk(tree):
        if isinstance(node, gast.Name) and node.id in known:
            (shape if id(node) in shape_nodes else value).add(node.id)
    return value, shape - value


def expand(rule, param, g, ans, inputs, dropped, names):
    """The template for `param` as an expression node: its parameters, g and ans
    replaced by atoms, its other names (np, helpers) by the compiler's names for them
    (`names`, a Vocabulary: never a name the user's function uses)."""
    mapping = {name: as_value(names, node) for name, node in inputs.items()}
    mapping = {k: v for k, v in mapping.items() if v is not None}
    mapping["g"] = g
    mapping["ans"] = load(ans)
    tree = _template(rule.template_text(param, dropped[2]), dropped[:2])
    free, bound = _names_of(tree)
    own = {name: names.template_local(name) for name in bound}   # `e` in `[... for e in xs]`
    for helper in free - mapping.keys() - own.keys():
        mapping[helper] = names.template_ref(helper)
    mapping.update({name: load(chosen) for name, chosen in own.items()})
    expr = clone(tree, mapping)
    for n in walk(expr) if own else ():
        if type(n) is gast.Name and type(n.ctx) is gast.Store and n.id in own:
            n.id = own[n.id]
    return expr


@functools.lru_cache(maxsize=None)
def _names_of(tree):
    """(names a cached, never mutated template tree reads, names it binds)."""
    names = [n for n in gast.walk(tree) if isinstance(n, gast.Name)]
    bound = frozenset(n.id for n in names if not isinstance(n.ctx, gast.Load))
    return frozenset(n.id for n in names) - bound, bound


def clone(node, mapping=None):
    """A copy of an expression tree, loaded names in `mapping` replaced by copies of
    their nodes (much faster than deepcopy plus a NodeTransformer)."""
    kind = type(node)
    if kind is list:
        return [clone(n, mapping) for n in node]
    if kind is _Name:
        if mapping and node.id in mapping and type(node.ctx) is _Load:
            return clone(mapping[node.id])
    elif kind is _Constant:                     # fields hold no nodes: a flat copy
        new = _new_node(kind)
        new.__dict__.update(value=node.value, kind=node.kind)
        return new
    elif not isinstance(node, gast.AST) or not node._fields:
        return node              # contexts and operators (Load, Add) carry nothing: shared
    new = _new_node(kind)                       # skips gast's checking constructor
    values = new.__dict__
    for field in node._fields:
        values[field] = clone(getattr(node, field), mapping)
    role = node.__dict__.get("role")
    if role is not None:                        # the compiler's mark survives copying
        new.role = role
    return new


_Name, _Load, _Constant, _new_node = gast.Name, gast.Load, gast.Constant, gast.AST.__new__


def as_value(names, node):
    """An index that contains slices becomes `np.s_[...]` so it can be passed around."""
    if type(node) is _Constant or type(node) is _Name and node.annotation is None:
        return node                             # most atoms: nothing below them
    if any(isinstance(n, gast.Slice) for n in walk(node)):
        s_ = gast.Attribute(value=names.ref("np"), attr="s_", ctx=gast.Load())
        return gast.Subscript(value=s_,
                              slice=copy.deepcopy(node), ctx=gast.Load())
    return node
