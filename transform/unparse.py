"""gast.unparse, faster: the same text, character for character.

    unparse(BinOp(Name(a), Mult(), Call(np.tanh, [Name(x)])))   ->   "a * np.tanh(x)"

gast's unparser (a copy of CPython's) finds each node's method by building its name,
and opens a context manager for every pair of parentheses it might write. Rendering a
rule unparses thousands of nodes, so here each node type's method is found once, and
the methods for the expressions and statements the compiler emits most write their
parentheses directly. Everything else is gast's own code.
"""
import gast
from gast import unparser as _gast

_P = _gast._Precedence
_TEST, _TUPLE, _CMP, _ATOM, _YIELD = _P.TEST, _P.TUPLE, _P.CMP, _P.ATOM, _P.YIELD
_Constant, _Tuple = _gast.Constant, _gast.Tuple


class _Unparser(_gast._Unparser):
    _methods = {}            # node type -> the method that writes it

    def traverse(self, node):
        if isinstance(node, list):
            for item in node:
                self.traverse(item)
            return
        method = self._methods.get(type(node))
        if method is None:
            name = "visit_" + type(node).__name__
            method = self._methods[type(node)] = getattr(type(self), name,
                                                         type(self).generic_visit)
        method(self, node)

    def visit_Name(self, node):
        self._source.append(node.id)
        if node.annotation:
            self._source.append(": ")
            self.traverse(node.annotation)

    def visit_Constant(self, node):
        value = node.value
        if isinstance(value, tuple) or value is Ellipsis:
            super().visit_Constant(node)
            return
        if node.kind == "u":
            self._source.append("u")
        self._write_constant(value)

    def visit_BinOp(self, node):
        operator = self.binop[node.op.__class__.__name__]
        precedence = self.binop_precedence[operator]
        parens = self._precedences.get(node, _TEST) > precedence
        if parens:
            self._source.append("(")
        right_assoc = operator in self.binop_rassoc
        self._precedences[node.left] = precedence + 1 if right_assoc else precedence
        self.traverse(node.left)
        self._source.append(f" {operator} ")
        self._precedences[node.right] = precedence if right_assoc else precedence + 1
        self.traverse(node.right)
        if parens:
            self._source.append(")")

    def visit_UnaryOp(self, node):
        operator = self.unop[node.op.__class__.__name__]
        precedence = self.unop_precedence[operator]
        parens = self._precedences.get(node, _TEST) > precedence
        self._source.append("(" + operator if parens else operator)
        if precedence is not _P.FACTOR:
            self._source.append(" ")
        self._precedences[node.operand] = precedence
        self.traverse(node.operand)
        if parens:
            self._source.append(")")

    def visit_Compare(self, node):
        parens = self._precedences.get(node, _TEST) > _CMP
        if parens:
            self._source.append("(")
        for n in (node.left, *node.comparators):
            self._precedences[n] = _CMP + 1
        self.traverse(node.left)
        for o, e in zip(node.ops, node.comparators):
            self._source.append(" " + self.cmpops[o.__class__.__name__] + " ")
            self.traverse(e)
        if parens:
            self._source.append(")")

    def visit_Attribute(self, node):
        value = node.value
        self._precedences[value] = _ATOM
        self.traverse(value)
        # `3 .real`: `3.real` would be a syntax error
        if isinstance(value, _Constant) and isinstance(value.value, int):
            self._source.append(" ")
        self._source.append("." + node.attr)

    def visit_Call(self, node):
        self._precedences[node.func] = _ATOM
        self.traverse(node.func)
        self._source.append("(")
        comma = False
        for e in node.args + node.keywords:
            if comma:
                self._source.append(", ")
            comma = True
            self.traverse(e)
        self._source.append(")")

    def visit_Subscript(self, node):
        self._precedences[node.value] = _ATOM
        self.traverse(node.value)
        self._source.append("[")
        index = node.slice
        if isinstance(index, _Tuple) and index.elts:    # a tuple index needs no parens
            self.items_view(self.traverse, index.elts)
        else:
            self.traverse(index)
        self._source.append("]")

    def visit_Tuple(self, node):
        parens = not node.elts or self._precedences.get(node, _TEST) > _TUPLE
        if parens:
            self._source.append("(")
        self.items_view(self.traverse, node.elts)
        if parens:
            self._source.append(")")

    def visit_List(self, node):
        self._source.append("[")
        for k, e in enumerate(node.elts):
            if k:
                self._source.append(", ")
            self.traverse(e)
        self._source.append("]")

    def visit_Assign(self, node):
        self.fill()
        for target in node.targets:
            self._precedences[target] = _TUPLE
            self.traverse(target)
            self._source.append(" = ")
        self.traverse(node.value)
        type_comment = self.get_type_comment(node)
        if type_comment:
            self._source.append(type_comment)

    def visit_Expr(self, node):
        self.fill()
        self._precedences[node.value] = _YIELD
        self.traverse(node.value)


# Every method above, in the contexts that decide its parentheses: the fast methods are
# used only if they write this as the installed gast does (gast's layout changed across
# versions, e.g. tuple targets in comprehensions).
_SAMPLE = """
a, (b, c) = x[1:2, ::3], y[(1, 2)], z[()], w[i, j:k]
d = -(a + b) * c ** -d ** e - (a - (b - c)) / (not f) @ (~g)
e = [(p, q) for p, q in r if p < q <= s is not t not in u], [], [a], (a,), ()
f(*a, k=1, **d)(3 .real, 1.5 .imag, 1e400, -0.0, u"s", b"\\x00", ..., (1, ("a",)))
g = (a < b) < c, (a, b)[0], a.b.c(d)[e].f, a if b else c, lambda v: v
h += (yield)
return x ** y ** z, (x ** y) ** z, -x ** 2, (-1) ** 2, {**d, 1: 2}, {*()}
"""


def _writes_as_gast():
    tree = gast.parse(_SAMPLE)
    return _Unparser().visit(tree) == _gast.unparse(tree)


_FAST = _writes_as_gast()


def unparse(node):
    """The source text of a gast node, as gast.unparse writes it."""
    return _Unparser().visit(node) if _FAST else _gast.unparse(node)
