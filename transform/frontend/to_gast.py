"""ast -> gast, node for node what `gast.ast_to_gast` gives, in a third of the time.

    ast.Name(id="x", ctx=Load())   ->   gast.Name(id="x", ctx=Load(), annotation=None,
                                                  type_comment=None)

gast's converter is a NodeTransformer: every node costs a method lookup by name and a
keyword-argument constructor call; converting a long function cost more than parsing it.
Here each node type gets its converter once (a plain copy of its fields, or gast's own
method for the few types gast changes: Name, arg, FunctionDef, ...).
"""
import ast

import gast
from gast.ast3 import Ast3ToGAst

_AST, _MISSING, _new_node = ast.AST, object(), gast.AST.__new__
_LOCATION = ("lineno", "col_offset", "end_lineno", "end_col_offset")


class _Converter(Ast3ToGAst):
    """gast's converter with its dispatch and generic copy replaced, its special cases
    (the visit_* methods it defines) kept."""

    def __init__(self):
        self._by_type = {}

    def visit(self, node):
        convert = self._by_type.get(type(node))
        if convert is None:
            convert = self._by_type[type(node)] = self._converter(type(node))
        return convert(node)

    def _visit(self, node):
        if isinstance(node, _AST):
            return self.visit(node)
        if isinstance(node, list):
            return [self._visit(n) for n in node]
        return node

    def visit_Name(self, node):
        new = _new_node(gast.Name)
        values = new.__dict__
        values["id"], values["ctx"] = node.id, self.visit(node.ctx)
        values["annotation"] = values["type_comment"] = None
        for attr in _LOCATION:                  # as ast.copy_location does
            value = getattr(node, attr, _MISSING)
            if value is not _MISSING and (value is not None or attr[:4] == "end_"):
                values[attr] = value
        return new

    def _converter(self, kind):
        special = getattr(self, "visit_" + kind.__name__, None)
        if special is not None:
            return special
        target = getattr(gast, kind.__name__, None)
        if target is None:
            return lambda node: None            # gast drops nodes it does not know
        return _copier(self, target, kind._fields, kind._attributes)


def _copier(converter, target, fields, attributes):
    """A function copying an ast node into a new `target` node, fields converted."""
    visit, convert_any, by_type = converter.visit, converter._visit, converter._by_type

    def copy(node):
        new = _new_node(target)
        values = new.__dict__
        for field in fields:
            value = getattr(node, field, _MISSING)
            if value is _MISSING:
                continue
            if isinstance(value, _AST):
                value = (by_type.get(type(value)) or visit)(value)
            elif type(value) is list:
                value = [visit(v) if isinstance(v, _AST) else convert_any(v) for v in value]
            values[field] = value
        for attr in attributes:
            value = getattr(node, attr, _MISSING)
            if value is not _MISSING:
                values[attr] = value
        return new
    return copy


_CONVERTER = _Converter()


def ast_to_gast(node):
    """The gast tree of a Python ast tree (the ast tree is left as it was)."""
    return _CONVERTER.visit(node)
