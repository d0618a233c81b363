"""A refusal raised at a line of code the compiler generated and compiles again (hvp's
reverse mode over forward mode's `f_jvp`), moved to the user's line (tracebacks.py):
forward mode's temporaries (`t8`) mean nothing to the user, so the message names the
user's expression a temporary holds when its assignment's right side is on the user's
line (`t8 = blocks[1]`: `blocks[1]`), else "a value"."""
import linecache
import re

_NAMES = r"(?:t|seq|steps|start)\d+"        # names.new's temporaries (`seq1`: a loop's)
_QUOTED = re.compile(rf"`({_NAMES})`")


def in_user_words(message, filename, user_text):
    """message with each quoted temporary of generated file `filename` (not written on
    the user's line `user_text`) replaced by the user's expression it holds."""
    def named(found):
        name = found.group(1)
        if re.search(rf"(?<![\w.]){name}\b", user_text):
            return found.group(0)           # the user's own name
        return _expression(name, filename, user_text) or "a value"
    text = re.sub(rf"`({_NAMES})`, which is being differentiated,",
                  lambda m: "a value being differentiated" if named(m) == "a value"
                  else f"{named(m)}, which is being differentiated,", message)
    return _QUOTED.sub(named, text)


def _expression(name, filename, user_text):
    assigned = re.compile(rf"\s*{name} = (.+)$")
    for text in linecache.getlines(filename):
        found = assigned.match(text.rstrip("\n"))
        value = found and re.sub(r"^iterable\((.+)\)$", r"\1", found.group(1).strip())
        if value and value in user_text:       # (`seq1 = iterable(table)`: `table`)
            return f"`{value}`"
    return None
