"""Inline expansion of rule templates: the rule's math, with names substituted.

    rule np.tanh: "g * (1 - ans ** 2)"   with g=dh, ans=h   ->   dh * (1 - h ** 2)
"""
import copy
import functools

import gast

from .names import load


@functools.lru_cache(maxsize=None)
def _parsed(text):
    return gast.parse(text, mode="eval").body


# helper -> positions of arguments it reads only for their shape and dtype
SHAPE_ONLY_ARGS = {"unbroadcast": (1,), "unreduce": (1,), "index_vjp": (1,),
                   "getitem_vjp": (1,),
                   "reshape_vjp": (1,), "reduction_size": (0,)}


def names_read(rule, param):
    """(names whose value the template reads, names it reads only for shape/dtype).

    Names are among "ans" and the rule's parameters.
    """
    tree = _parsed(rule.templates[param])
    shape_nodes = set()
    for node in gast.walk(tree):
        if isinstance(node, gast.Call) and isinstance(node.func, gast.Name):
            for k in SHAPE_ONLY_ARGS.get(node.func.id, ()):
                if k < len(node.args) and isinstance(node.args[k], gast.Name):
                    shape_nodes.add(id(node.args[k]))
    known = set(rule.params) | {"ans"}
    value, shape = set(), set()
    for node in gast.walk(tree):
        if isinstance(node, gast.Name) and node.id in known:
            (shape if id(node) in shape_nodes else value).add(node.id)
    return value, shape - value


class _Substitute(gast.NodeTransformer):
    def __init__(self, mapping):
        self.mapping = mapping

    def visit_Name(self, node):
        if node.id in self.mapping and isinstance(node.ctx, gast.Load):
            return copy.deepcopy(self.mapping[node.id])
        return node


def expand(rule, param, g, ans, inputs):
    """The template for `param` as an expression node, names replaced by atoms."""
    mapping = {name: as_value(node) for name, node in inputs.items()}
    mapping["g"] = g
    mapping["ans"] = load(ans)
    tree = copy.deepcopy(_parsed(rule.templates[param]))
    return _Substitute(mapping).visit(tree)


def as_value(node):
    """An index that contains slices becomes `np.s_[...]` so it can be passed around."""
    if any(isinstance(n, gast.Slice) for n in gast.walk(node)):
        return gast.Subscript(value=gast.Attribute(value=load("np"), attr="s_", ctx=gast.Load()),
                              slice=copy.deepcopy(node), ctx=gast.Load())
    return node


def substitute(tree, mapping):
    """Replace loaded names in `tree` (a copy) by the nodes in `mapping`."""
    return _Substitute(mapping).visit(copy.deepcopy(tree))
