"""The compiler's comments in generated code: marker statements and their text.

An AST has no comments, so the reverse stage leaves a marker statement where one goes:

    Compilation.comment(<t2 = y * x>)   ->   Expr(Constant(CommentMark(3)))
    render                               ->   # t2 = y * x

The mark is an object of a class private to the compiler, so no user statement, string
or f-string can pose as a marker (the text of a user string is never looked at). Comment
text is made one line (quoting.single_line: newlines and other control characters
escaped).
"""
import gast

from .names import statements
from .quoting import single_line


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
    return gast.unparse(node)


def one_line(stmt):
    """A statement as the text of a comment: loops by their header."""
    if isinstance(stmt, gast.For):
        head = unparse(gast.For(target=stmt.target, iter=stmt.iter, body=[gast.Pass()],
                                orelse=[], type_comment=None))
        return single_line(head[:-len("\n    pass")]) + "  (iterations in reverse)"
    if isinstance(stmt, gast.While):
        return "while " + single_line(unparse(stmt.test)) + ":  (iterations in reverse)"
    return single_line(unparse(stmt).strip())


def comment_texts(comments):
    """Comment texts, each one line: statements unparsed together in one Module (one
    call, not many), free texts escaped."""
    simple = [k for k, c in enumerate(comments) if isinstance(c, (gast.Assign, gast.Expr))]
    texts = [single_line(c) if isinstance(c, str) else None for c in comments]
    if simple:
        module = gast.Module(body=[comments[k] for k in simple], type_ignores=[])
        lines = unparse(module).split("\n")
        if len(lines) == len(simple):    # else a string spans lines: one by one below
            for k, line in zip(simple, lines):
                texts[k] = single_line(line.strip())
    return [t if t is not None else one_line(c) for t, c in zip(texts, comments)]
