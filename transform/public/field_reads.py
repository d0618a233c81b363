"""A dataclass argument whose attribute is no field (set by `__post_init__` or later) and
carries a derivative: its part cannot be carried back to (or read from) the fields, as
dataclasses.replace builds the gradient from the fields only. NotAField says so, and
`located` puts it at the user's first read of that attribute:

    def loss(p, X, y):
        r = (X @ p.w - y) / p.s      <- grad(loss)(p, X, y): `p.s` is no field of Params
"""
import ast
import contextlib
import textwrap

from ..errors import TransformError, at_definition
from ..frontend.source_check import source_of


class NotAField(TransformError):
    """Raised where the argument's gradient or tangent is built (no line known there)."""

    def __init__(self, api, like, attr, what):
        self.api, self.like, self.attr, self.what = api, like, attr, what
        super().__init__(_message(api, None, like, attr, what), hint=_hint(like))


def _message(api, name, like, attr, what):
    cls = type(like).__name__
    read = f"`{name}.{attr}`" if name else f"the attribute `{attr}`"
    return (f"{api}: {read} is no field of the {cls} argument{f' `{name}`' if name else ''}"
            f" (set by __post_init__ or later): its {what} cannot be carried through the "
            "fields, which are all a dataclass argument's derivative holds")


def _hint(like):
    cls = type(like).__name__
    return f"pass the fields and build the {cls} inside the function"


@contextlib.contextmanager
def located_fields(fn, named, api=None):
    """NotAField raised inside, as a TransformError at fn's first read of the attribute
    of the argument it is about; `named` the (parameter name, value) pairs, `api` the
    function the user called when not the one NotAField names (hvp's jvp)."""
    try:
        yield
    except NotAField as exc:
        name = next((n for n, v in named if v is exc.like), None)
        if name is None:
            raise
        raise located(exc, fn, name, api or exc.api) from None


def located(exc, fn, name, api):
    message, hint = _message(api, name, exc.like, exc.attr, exc.what), _hint(exc.like)
    try:
        filename, lines, first = source_of(fn)
        tree = ast.parse(textwrap.dedent("".join(lines)))
    except Exception:           # noqa: BLE001 (no source: at its def, or no location)
        return at_definition(fn, message, hint)
    reads = sorted((n.lineno, n.col_offset) for n in ast.walk(tree)
                   if isinstance(n, ast.Attribute) and n.attr == exc.attr and
                   isinstance(n.value, ast.Name) and n.value.id == name)
    if not reads:
        return at_definition(fn, message, hint)
    text = lines[reads[0][0] - 1].rstrip("\n")
    col = text.find(f"{name}.{exc.attr}")
    return TransformError(message, filename=filename, line=first + reads[0][0] - 1,
                          col=col if col >= 0 else None, source_line=text, hint=hint)
