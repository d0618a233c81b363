"""The compiler's comments in generated code: marker statements and their text.

An AST has no comments, so the reverse stage leaves a marker statement where one goes:

    Compilation.comment(<t2 = y * x>)   ->   Expr(Constant(CommentMark(3)))
    render                               ->   # t2 = y * x

The mark is an object of a class private to the compiler, so no user statement, string
or f-string can pose as a marker (the text of a user string is never looked at). Comment
text is made one line (quoting.single_line: newlines and other control characters
escaped).
"""
import copy

import gast
from gast import unparse as unparse_node

from .nodes import statements
from .quoting import single_line
from .signed_literals import signed_literals


_PASS = "\n    pass"


class CommentMark:
    """Which comment (an index into Compilation.comments) and whether it ends the
    previous line (`x = pop()  # save x: ...`) or is a line of its own."""

    __slots__ = ("index", "end")

    def __init__(self, index, end=False):
        self.index, self.end = index, end

    def __repr__(self):
        # Never valid Python: a marker unparsed by mistake fails to compile, loudly.
        return f"<thunkgrad comment {self.index}>"


def marker(index, end=False):
    """The statement standing for comment `index` until render."""
    return gast.Expr(value=gast.Constant(value=CommentMark(index, end), kind=None))


def mark_of(s):
    """The CommentMark of a marker statement, else None."""
    if type(s) is gast.Expr and type(s.value) is gast.Constant \
            and type(s.value.value) is CommentMark:
        return s.value.value
    return None


def unparse(node):
    """gast.unparse, after giving every statement a line number (the unparser reads a
    statement's to find its type comment; expressions need none)."""
    if isinstance(node, gast.stmt):
        node = gast.Module(body=[node], type_ignores=[])
    for s in statements(node):
        if not hasattr(s, "lineno"):
            s.lineno = 1
    return unparse_node(signed_literals(node))


def header(s):
    """`for a, b in items:`: the unparser's text of compound statement s without its
    body (nor decorators)."""
    shell = copy.copy(s)
    shell.body, shell.orelse, shell.lineno = [gast.Pass()], [], getattr(s, "lineno", 1)
    if isinstance(s, gast.FunctionDef):
        shell.decorator_list = []
    text = unparse_node(signed_literals(shell))
    assert text.endswith(_PASS), text
    return text[:-len(_PASS)]


def one_line(stmt):
    """A statement as the text of a comment: compound ones by their header."""
    if isinstance(stmt, gast.While):
        return "while " + single_line(unparse(stmt.test)) + ":  (iterations in reverse)"
    if hasattr(stmt, "body"):
        head = single_line(header(stmt))
        return head + "  (iterations in reverse)" if isinstance(stmt, gast.For) else head
    return single_line(unparse(stmt).strip())


def comment_texts(comments, known=None):
    """Comment texts, each one line: statements unparsed together in one Module (one
    call, not many), free texts escaped. known: id(statement) -> its text, already
    unparsed (the rule's own statements, which most comments quote)."""
    known = known or {}
    texts = [single_line(c) if isinstance(c, str) else
             single_line(known[id(c)].strip()) if id(c) in known else None for c in comments]
    simple = [k for k, c in enumerate(comments)
              if texts[k] is None and isinstance(c, (gast.Assign, gast.Expr))]
    if simple:
        module = gast.Module(body=[comments[k] for k in simple], type_ignores=[])
        lines = unparse(module).split("\n")
        if len(lines) == len(simple):    # else a string spans lines: one by one below
            for k, line in zip(simple, lines):
                texts[k] = single_line(line.strip())
    return [t if t is not None else one_line(c) for t, c in zip(texts, comments)]
