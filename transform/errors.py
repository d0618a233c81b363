"""TransformError: what the compiler cannot handle, said where and what to do instead."""
import linecache


class TransformError(Exception):
    """Unsupported code, reported with file:line:col, the source line, a caret and advice."""

    def __init__(self, message, *, filename=None, line=None, col=None, source_line=None,
                 hint=None):
        self.message = message
        self.filename = filename
        self.line = line
        self.col = col
        self.source_line = source_line
        self.hint = hint
        super().__init__(self._format())

    @property
    def location(self):
        if self.filename is None:
            return ""
        parts = [str(self.filename)]
        if self.line is not None:
            parts.append(str(self.line))
            if self.col is not None:
                parts.append(str(self.col + 1))
        return ":".join(parts)

    def one_line(self):
        """The error as one line: `file:line:col: message`."""
        where = self.location
        return f"{where}: {self.message}" if where else self.message

    def _format(self):
        text = self.one_line()
        if self.source_line is not None:
            text += "\n    " + self.source_line.rstrip()
            if self.col is not None:
                text += "\n    " + " " * self.col + "^"
        if self.hint:
            text += "\nInstead: " + self.hint
        return text


def at_definition(fn, message, hint=None, mark=None):
    """A TransformError about fn as a whole (its parameters, its kind) at its `def` line,
    the caret on `mark` (e.g. "*") where that line holds it; without a location only
    when fn has no code object."""
    code = getattr(fn, "__code__", None)
    if code is None:
        return TransformError(message, hint=hint)
    filename, line = code.co_filename, code.co_firstlineno
    text = linecache.getline(filename, line)
    for k in range(line, line + 50 if code.co_name != "<lambda>" else line):
        if linecache.getline(filename, k).lstrip().startswith(("def ", "async def ")):
            line, text = k, linecache.getline(filename, k)     # past the decorators
            break
    text = text.rstrip("\n")
    col = text.find(mark) if mark and mark in text else len(text) - len(text.lstrip())
    return TransformError(message, filename=filename, line=line, col=col,
                          source_line=text or None, hint=hint)


_HELPER_SUFFIXES = ("_vjp", "_jvp", "_rrule", "_tangent", "_pullback")


def callee_words(fn):
    """How a refusal names a callee: a user function's qualified name in backquotes; a
    helper of thunkgrad's own (a rule's `divmod_vjp`, runtime's `item` method) as the
    construct on the user's line it stands for, never by its own name alone."""
    name = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or \
        type(fn).__name__
    if (getattr(fn, "__module__", None) or "").split(".")[0] not in ("runtime", "transform"):
        return f"`{name}`"
    base = getattr(fn, "__name__", name)
    for suffix in _HELPER_SUFFIXES:
        if base.endswith(suffix):
            return f"the derivative code of `{base[:-len(suffix)]}` on this line"
    return f"`{base}` (thunkgrad's code for this line's call)"
