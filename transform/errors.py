"""TransformError: what the compiler cannot handle, said where and what to do instead."""


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
