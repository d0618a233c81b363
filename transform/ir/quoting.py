"""Text from user objects (qualified names, a helper's __name__, statements shown in
comments) made safe for generated source: it can never end a line or a name.

    single_line("f\\nimport os")   ->  'f\\\\nimport os'   (one comment line)
    identifier("<lambda>")        ->  '_lambda_'
"""
import keyword
import re

_NOT_IDENTIFIER = re.compile(r"\W")


def single_line(text):
    """`text` with every non-printable character escaped as repr would (`\\n`, `\\x1b`,
    `\\u2028`), so it cannot end a `#` comment line or start a line of code."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii")
                   for c in text)


def identifier(text, default="fn"):
    """A Python name made from `text`: other characters become `_`."""
    name = _NOT_IDENTIFIER.sub("_", text if isinstance(text, str) else "") or default
    name = name if name.isidentifier() else "_" + name
    if keyword.iskeyword(name):
        name += "_"
    return name if name.isidentifier() else default
