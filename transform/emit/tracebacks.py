"""Generated code in tracebacks: its text for linecache, and the user's line for each
of its lines.

Python 3.11's default excepthook reads source lines from files on disk, so a frame in
generated code (`<thunkgrad mod.f:3:0 wrt=x policy=loop>`) shows no text there, and
nothing in it points to the user's file. An exception that leaves grad, value_and_grad
or vjp through generated code gets a note (printed by every hook) per generated frame:

    ValueError: operands could not be broadcast together with shapes (3,) (4,)
    in code generated for f (<thunkgrad mod.f:3:0 wrt=x policy=loop>, line 7):
        t1 = W @ x
      from /home/me/mod.py, line 5:
        h = W @ x

Both registrations last as long as the differentiated function: a finaliser removes
them when the last function using the name is gone.
"""
import linecache
import threading
import weakref

from runtime.complex_safety import ComplexRefused
from ..errors import TransformError

_LOCK = threading.RLock()             # a finaliser may run inside register (gc)
_REGISTERED = {}                      # filename -> how many live functions registered it
_FILENAMES = weakref.WeakKeyDictionary()     # function -> the filenames its rules use
_ORIGINS = {}                         # filename -> (qualname, user file, {line: user line})
_NOTED = "__thunkgrad_noted__"


def register(fn, filename, text, origins):
    """linecache gets `text`, and the origins map its lines to the user's, while fn
    lives; origins: {generated line: line in fn's file}."""
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    code = getattr(fn, "__code__", None)
    _ORIGINS[filename] = (getattr(fn, "__qualname__", "?"),
                          getattr(code, "co_filename", None), origins)
    with _LOCK:
        try:
            names = _FILENAMES.get(fn)
        except TypeError:                 # no weak reference possible: kept for good
            return
        if names is None:
            names = _FILENAMES[fn] = set()
            weakref.finalize(fn, _forget, names)
        if filename not in names:
            names.add(filename)
            _REGISTERED[filename] = _REGISTERED.get(filename, 0) + 1


def _forget(filenames):
    with _LOCK:
        for filename in filenames:
            left = _REGISTERED.pop(filename, 1) - 1
            if left:
                _REGISTERED[filename] = left
            else:
                linecache.cache.pop(filename, None)
                _ORIGINS.pop(filename, None)


def user_lines(sources, first_line, header_lines, origin_of_comment):
    """{generated line: user line} from render's line sources: a statement's own
    origin, else the last one above it in the same def (a backward block follows the
    comment quoting its primal statement)."""
    origins, last = {}, None
    for k, source in enumerate(sources):
        if type(source) is str:
            if source.lstrip().startswith("def "):
                last = None
            continue
        if type(source) is tuple:
            line = origin_of_comment(source[1])
        else:
            line = getattr(source, "origin_line", None)
        last = line or last
        if last:
            origins[header_lines + k + 1] = first_line + last - 1
    return origins


def annotate(exc):
    """Add a note per generated frame of exc's traceback, once. A complex value refused
    by a rule for real values (runtime/complex_safety.py) is raised again as a
    TransformError at the user's line."""
    if isinstance(exc, ComplexRefused):
        raise _at_user_line(exc) from None
    if getattr(exc, _NOTED, False):
        return
    tb = exc.__traceback__
    notes = []
    while tb is not None:
        note = _note(tb.tb_frame.f_code.co_filename, tb.tb_lineno)
        if note:
            notes.append(note)
        tb = tb.tb_next
    for note in notes[-3:]:
        if hasattr(exc, "add_note"):
            exc.add_note(note)
        else:                   # Python 3.10: the same list (its default hook omits it)
            try:
                exc.__notes__ = [*getattr(exc, "__notes__", []), note]
            except AttributeError:
                return
    try:
        setattr(exc, _NOTED, True)
    except AttributeError:
        pass


def _at_user_line(exc):
    """The TransformError for a ComplexRefused, at the innermost generated frame's origin."""
    message, _, hint = str(exc).partition(" Instead: ")
    where = None
    tb = exc.__traceback__
    while tb is not None:
        found = _ORIGINS.get(tb.tb_frame.f_code.co_filename)
        if found and found[2].get(tb.tb_lineno) and found[1]:
            where = (found[1], found[2][tb.tb_lineno])
        tb = tb.tb_next
    if where is None:
        return TransformError(message, hint=hint or None)
    source = linecache.getline(*where).rstrip("\n")
    col = len(source) - len(source.lstrip())
    return TransformError(message, filename=where[0], line=where[1], col=col,
                          source_line=source or None, hint=hint or None)


def _note(filename, lineno):
    found = _ORIGINS.get(filename)
    if found is None:
        return None
    qualname, user_file, origins = found
    text = [f"in code generated for {qualname} ({filename}, line {lineno}):",
            "    " + linecache.getline(filename, lineno).strip()]
    user_line = origins.get(lineno)
    if user_line and user_file:
        text += [f"  from {user_file}, line {user_line}:",
                 "    " + linecache.getline(user_file, user_line).strip()]
    return "\n".join(text)
