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


def names_read(rule, param):
    """Which of g, ans and the rule's parameters the template for `param` reads."""
    tree = _parsed(rule.templates[param])
    names = {n.id for n in gast.walk(tree) if isinstance(n, gast.Name)}
    return names & (set(rule.params) | {"ans"})


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
