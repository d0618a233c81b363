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
import os
import threading
import weakref

import runtime
from runtime.complex_safety import RuleRefused, user_facing
from ..errors import TransformError
from .generated_names import in_user_words

_LOCK = threading.RLock()             # a finaliser may run inside register (gc)
_REGISTERED = {}                      # filename -> how many live functions registered it
_FILENAMES = weakref.WeakKeyDictionary()     # function -> the filenames its rules use
_ORIGINS = {}                         # filename -> (qualname, user file, {line: user line})
_NOTED = "__thunkgrad_noted__"
# the runtime's and the compiler's own files (a runtime helper's line is not the user's)
_PACKAGES = (os.path.dirname(runtime.__file__) + os.sep,
             os.path.dirname(os.path.dirname(__file__)) + os.sep)


def register(fn, filename, text, origins):
    """linecache gets `text`, and the origins map its lines to the user's, while fn
    lives; origins: {generated line: line in fn's file}."""
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    code = getattr(fn, "__code__", None)
    _ORIGINS[filename] = (getattr(fn, "__qualname__", "?"),
                          getattr(code, "co_filename", None), origins)
    hold(fn, [filename, *chain(getattr(code, "co_filename", None))])


def hold(fn, filenames):
    """Keep the registered `filenames` while fn lives (also: a function generated from
    one of them, whose source a further derivative reads)."""
    with _LOCK:
        try:
            names = _FILENAMES.get(fn)
        except TypeError:                 # no weak reference possible: kept for good
            return
        if names is None:
            names = _FILENAMES[fn] = set()
            weakref.finalize(fn, _forget, names)
        for held in filenames:
            if held not in names:
                names.add(held)
                _REGISTERED[held] = _REGISTERED.get(held, 0) + 1


def chain(filename):
    """The generated files fn's own generated file comes from (fn compiled from
    generated code: grad of grad's unit functions), kept while fn lives: its lines'
    user lines go through them, though the functions they were made for are gone."""
    chain = []
    while _generated(filename) and filename in _ORIGINS and len(chain) < 8:
        chain.append(filename)
        filename = _ORIGINS[filename][1]
    return chain


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
    """Add a note per generated frame of exc's traceback, once. A rule's refusal found
    when it runs (runtime/complex_safety.py RuleRefused: a complex value, a norm order)
    is raised again as a TransformError at the user's line, and so is a TransformError
    that names a line of generated code (reverse mode over forward mode's code: hvp,
    hessian, grad of grad; a value's two-line function, transform/value_calls.py)."""
    if isinstance(exc, RuleRefused):
        raise _at_user_line(exc) from None
    moved = at_user_line(exc)
    if moved is not exc:
        raise moved from None
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


def _generated(filename):
    return isinstance(filename, str) and filename.startswith("<thunkgrad")


def user_origin(filename, lineno):
    """(the user's file, line) a line of generated code comes from, through generated
    code compiled from generated code (reverse mode over `f_jvp`: its lines map to
    f_jvp's, f_jvp's to f's); None when the chain ends in no user's file."""
    for _ in range(8):                    # a chain is as long as the derivative's order
        if not _generated(filename):
            return (filename, lineno) if filename and lineno else None
        found = _ORIGINS.get(filename)
        if not found or not found[1] or not found[2].get(lineno):
            return None
        filename, lineno = found[1], found[2][lineno]
    return None


def value_name(fn):
    """The name of the value fn's code calls, for the code made for a function called as
    a value (transform/value_calls.py: `h(x)`, h = np.subtract.outer), else None."""
    filename = getattr(getattr(fn, "__code__", None), "co_filename", None)
    value = getattr(fn, "__globals__", {}).get("fn")
    if not str(filename).startswith("<thunkgrad call of ") or value is None:
        return None
    owner = getattr(value, "__self__", None)
    if type(owner).__name__ == "ufunc":         # a ufunc's method: no module, "ufunc.outer"
        return f"np.{owner.__name__}.{value.__name__}"
    return user_facing(f"{getattr(value, '__module__', None)}."
                       f"{getattr(value, '__qualname__', '?')}")


def user_name(fn):
    """The name of the user's function that fn's code was generated from (grad of grad's
    `f_unit_unit`: f), else fn's own."""
    called = value_name(fn)
    if called is not None:
        return f"{called} (called as a value)"
    filename = getattr(getattr(fn, "__code__", None), "co_filename", None)
    names = [_ORIGINS[f][0] for f in chain(filename)]
    return names[-1] if names else getattr(fn, "__name__", "?")


def _innermost_user_line(tb):
    """The user's (file, line) of the innermost generated frame that has one; a line of
    a runtime helper compiled from its source (transform/generated_calls.py BY_SOURCE:
    qr_jvp's mode check under hvp) only when no frame has a user's line."""
    where = helper = None
    while tb is not None:
        frame = tb.tb_frame.f_code.co_filename
        found = user_origin(frame, tb.tb_lineno) if _generated(frame) else None
        if found and str(found[0]).startswith("<"):     # no file to show (a class's
            found = None                                # rule's `<string>`)
        if found and str(found[0]).startswith(_PACKAGES):
            helper = found
        elif found:
            where = found
        tb = tb.tb_next
    return where or helper


def _at_user_line(exc):
    """The TransformError for a RuleRefused, at the innermost generated frame's origin."""
    message, _, hint = str(exc).partition(" Instead: ")
    where = _innermost_user_line(exc.__traceback__)
    if where is None:
        return TransformError(message, hint=hint or None)
    return _located(message, hint or None, where)


def at_user_line(exc):
    """exc, or a TransformError without a location or at a line of generated code
    moved to the user's line (a new TransformError); a frame of the generated code it
    left must still be in its traceback."""
    if isinstance(exc, TransformError) and (exc.filename is None or _generated(exc.filename)):
        return _moved(exc) or exc
    return exc


def _moved(exc):
    """exc (a TransformError at a line of generated code) at the user's line its line
    comes from, else at the innermost generated frame's; None when neither is known."""
    where = user_origin(exc.filename, exc.line) or \
        _innermost_user_line(exc.__traceback__) or _nearest_origin(exc.filename, exc.line)
    if where is None:
        return None
    message = in_user_words(exc.message, exc.filename, linecache.getline(*where)) \
        if _generated(exc.filename) else exc.message     # (not `t8`: generated names)
    return _located(message, exc.hint, where)


def _nearest_origin(filename, lineno):
    """The user's line of the nearest earlier generated line that has one: a statement
    the generator wrote without an origin (forward mode's loop header over a zip of a
    sequence and its tangents) stands among its statement's lines."""
    found = _ORIGINS.get(filename)
    if not found or not lineno:
        return None
    for line in range(lineno - 1, 0, -1):
        if found[2].get(line):
            return user_origin(filename, line)
    return None


def _located(message, hint, where):
    source = linecache.getline(*where).rstrip("\n")
    col = len(source) - len(source.lstrip())
    return TransformError(message, filename=where[0], line=where[1], col=col,
                          source_line=source or None, hint=hint)


def _note(filename, lineno):
    found = _ORIGINS.get(filename)
    if found is None:
        return None
    qualname, user_file, origins = found
    text = [f"in code generated for {qualname} ({filename}, line {lineno}):",
            "    " + linecache.getline(filename, lineno).strip()]
    user_line = origins.get(lineno)
    if user_line and user_file and _generated(user_file):    # hvp: reverse over f_jvp
        user_file, user_line = user_origin(user_file, user_line) or (user_file, user_line)
    if user_line and user_file:
        text += [f"  from {user_file}, line {user_line}:",
                 "    " + linecache.getline(user_file, user_line).strip()]
    return "\n".join(text)
