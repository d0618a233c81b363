"""Source text of a rule, with its comments: a walk over the statements.

Compound statements (def, if, for, while) are laid out here; the other statements are
unparsed by gast (all in one call); comment markers (transform/comments.py) become
`# text` lines or end-of-line comments. The layout is the unparser's own, so the text
equals gast.unparse of the whole rule with markers replaced by comments:

    FunctionDef(pullback, [marker 0, Assign dx = dy * 3.0])
        ->  def pullback(dy):
                # y = x * 3.0
                dx = dy * 3.0
"""
import gast
from gast import unparse

from ..ir.comments import comment_texts, header, mark_of
from ..ir.signed_literals import signed_literals

_PAD = "    "
_COMPOUND = {c for c in vars(gast).values() if isinstance(c, type) and issubclass(c, gast.stmt)
             and ("body" in c._fields or "cases" in c._fields)}


def render_rule(rule, comments, sources=None):
    """The source of FunctionDef `rule`; `comments[k]` is what comment k quotes (a
    statement or a text). sources: a list to fill with what each line came from
    (`_Renderer.line_sources`)."""
    out = _Renderer(comments)
    out.statement(signed_literals(rule), "")
    text = out.text()
    if sources is not None:
        sources.extend(out.line_sources())
    return text


def unparse_each(stmts):
    """Each simple statement's text, from one unparse of them all. A string literal may
    span lines (an f-string with a newline): its continuation lines are part of the
    literal and must not be indented; such statements are told apart one by one."""
    for s in stmts:
        if not hasattr(s, "lineno"):    # the unparser looks up type comments by line
            s.lineno = 1
    # `pass` first: a string statement first in a Module would print as a docstring
    lines = unparse(gast.Module(body=[gast.Pass()] + stmts, type_ignores=[]))
    lines = lines.split("\n")[1:]
    return lines if len(lines) == len(stmts) else [unparse(s) for s in stmts]


class _Renderer:
    """Lines of text, [pad, k, ends] for the k-th simple statement and [pad, None, [c,
    *ends]] for comment c's own line (ends: comments at the line's end), filled in from
    one batch unparse at the end. A comment quoting a statement of the rule takes that
    statement's text from the same batch (most comments quote a forward statement)."""

    def __init__(self, comments):
        self.comments, self.lines, self.simple = comments, [], []
        self.comment_lines = {}         # line index -> the comment's index, for line_sources

    def text(self):
        simple = unparse_each(self.simple)
        texts = comment_texts(self.comments, {id(s): t for s, t in zip(self.simple, simple)})
        return "\n".join(line if type(line) is str else _line(line, simple, texts)
                         for line in self.lines)

    def line_sources(self):
        """Per line: its simple statement, ("comment", k) for comment k's line, or the
        line's text (a def, if or for header, a blank line)."""
        return [line if type(line) is str else
                ("comment", self.comment_lines[k]) if k in self.comment_lines else
                line[0] if line[1] == "text" else self.simple[line[1]]
                for k, line in enumerate(self.lines)]

    def block(self, body, pad):
        for s in body:
            self.statement(s, pad)

    def statement(self, s, pad):
        kind, mark = type(s), mark_of(s)
        if mark is not None:
            self.comment(mark, pad)
        elif kind not in _COMPOUND:
            self.lines.append([pad, len(self.simple), []])
            self.simple.append(s)
        elif kind is gast.FunctionDef:
            self.function(s, pad)
        elif kind is gast.If:
            self.if_(s, pad, "")
        elif kind is gast.For or kind is gast.While:
            self.lines.append(pad + header(s))
            self.block(s.body, pad + _PAD)
            self.orelse(s.orelse, pad)
        else:
            raise NotImplementedError(f"render: {kind.__name__} statements")

    def comment(self, mark, pad):
        if not mark.end or not self.lines:
            self.comment_lines[len(self.lines)] = mark.index
            self.lines.append([pad, None, [mark.index]])
        elif type(self.lines[-1]) is str:
            self.lines[-1] = [self.lines[-1], "text", [mark.index]]
        else:
            self.lines[-1][2].append(mark.index)

    def function(self, s, pad):
        if self.lines:
            self.lines.append("")           # the unparser's blank line before a def
        self.lines.extend(pad + "@" + unparse(d) for d in s.decorator_list)
        self.lines.append(pad + header(s))
        body = s.body
        if body and _is_docstring(body[0]):
            self.lines.append(pad + _PAD + unparse(
                gast.Module(body=[body[0]], type_ignores=[])))
            body = body[1:]
        self.block(body, pad + _PAD)

    def if_(self, s, pad, prefix):
        self.lines.append(pad + prefix + header(s))
        self.block(s.body, pad + _PAD)
        if len(s.orelse) == 1 and type(s.orelse[0]) is gast.If:
            self.if_(s.orelse[0], pad, "el")      # the unparser's elif
        else:
            self.orelse(s.orelse, pad)

    def orelse(self, body, pad):
        if body:
            self.lines.append(pad + "else:")
            self.block(body, pad + _PAD)


def _line(line, simple, texts):
    """One line's text: its statement's or comment's, then its end comments."""
    head, what, ends = line
    if what is None:                         # a comment on its own line
        head, ends = f"{head}# {texts[ends[0]]}", ends[1:]
    elif what != "text":
        head += simple[what]
    return head + "".join("  # " + texts[k] for k in ends)


def _is_docstring(s):
    return type(s) is gast.Expr and type(s.value) is gast.Constant \
        and isinstance(s.value.value, str)
