"""How a refusal names a value of code the compiler generated and compiles again (hvp's
reverse mode over forward mode's `f_jvp`, grad of grad): forward mode's temporary `t8`
means nothing to the user, so the refusal names the user's expression it holds when its
assignment's right side is on the user's line (`t8 = blocks[1]`: `blocks[1]`)."""
import linecache
import re

from ..emit import tracebacks


def user_words(src, name, node):
    """"`name`" for a name the user wrote (or of code that is the user's own), the
    user's expression for a generated one when found, else None (say "a value")."""
    filename = src.filename
    if not tracebacks._generated(filename) or getattr(node, "lineno", None) is None:
        return f"`{name}`"
    origin = tracebacks.user_origin(filename, src.first_line + node.lineno - 1)
    user_text = linecache.getline(*origin) if origin else ""
    if re.search(rf"(?<![\w.]){re.escape(name)}\b", user_text):
        return f"`{name}`"
    assigned = re.compile(rf"\s*{re.escape(name)} = (.+)$")
    for text in linecache.getlines(filename):
        found = assigned.match(text.rstrip("\n"))
        if found and found.group(1).strip() in user_text:
            return f"`{found.group(1).strip()}`"
    return None
