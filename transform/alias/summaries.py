"""Which parameters a module-level helper's result may share memory with.

A call the analysis cannot see into may return any of its arguments, so its result
counts as a view of every argument. A helper with Python source is read instead:

    def layer(W, x):              # returns {}: a fresh array
        return np.tanh(W @ x)

    def first_row(A):             # returns {"A"}: a view of A
        return A[0]

Which parameters a helper writes into is read the same way (`written_params`): the
caller refuses such a call even where the helper's result is not differentiated (it is
then called as it is, and the write would go unseen).
"""
import inspect
import threading
import weakref

import gast

from runtime import registry

from .writes import AliasCheck
from ..errors import TransformError
from ..frontend.parse import parse_function
from ..ir.primitives import opaque_library

# function -> frozenset of parameter names, or None (unknown); read once per function,
# like parse_function's sources
_SUMMARIES = weakref.WeakKeyDictionary()
_WRITES = weakref.WeakKeyDictionary()
_LOCAL = threading.local()


def returned_params(fn):
    """Parameters fn's result may share memory with; None when that is not known."""
    if not inspect.isfunction(fn):
        return None                             # no source to read (list.count, a ufunc)
    try:
        if fn in _SUMMARIES:
            return _SUMMARIES[fn]
    except TypeError:                           # unhashable callable
        return None
    reading = _reading("summarising")
    if fn in reading:
        return None                             # recursion: unknown while in progress
    reading.add(fn)
    try:                  # published only when complete (another thread, a retry after
        summary = _summarise(fn)                # a RecursionError, computes its own)
    finally:
        reading.discard(fn)
    _SUMMARIES[fn] = summary
    return summary


def _own_rule(fn):
    """A runtime helper with a rule is called through it, its source never compiled (and
    runtime's helpers never write into their arguments): digamma's `x += 1` on a float
    is no write into the caller's data."""
    return (fn.__module__ or "").split(".")[0] == "runtime" and \
        registry.lookup(fn) is not None


def written_params(fn):
    """Parameter -> (the TransformError at the helper's write, whether it writes whatever
    the argument is; else only into an array, list or dict) for the parameters fn may
    write into; {} if none or
    not known (fn then gets checked when it is compiled)."""
    if not inspect.isfunction(fn) or _own_rule(fn):
        return {}
    found = _WRITES.get(fn)
    if found is not None:
        return found
    reading = _reading("writes")
    if fn in reading:
        return {}                               # recursion: nothing known while in progress
    reading.add(fn)
    try:                  # published only when complete: another thread reading fn now
        reader = _read(fn, WriteReader)         # must not take "in progress" for "none"
    finally:
        reading.discard(fn)
    _WRITES[fn] = written = {} if reader is None else reader.written
    return written


def _reading(what):
    """The helpers this thread is reading now for `what` ("writes", "summarising")."""
    reading = getattr(_LOCAL, what, None)
    if reading is None:
        reading = set()
        setattr(_LOCAL, what, reading)
    return reading


def helper_source(fn):
    """(fn's parsed source ready for an alias reader, its parameters), or None when fn
    has no usable source (no Python source, *args or **kwargs, or a library whose source
    is never read: SciPy's odeint writes into its own locals in ways the check misreads)."""
    if not inspect.isfunction(fn) or opaque_library(fn):
        return None
    try:
        src = parse_function(fn)
    except (TransformError, OSError, TypeError, SyntaxError):
        return None
    if src.node.args.vararg or src.node.args.kwarg:
        return None
    src.shared_augassign, src.inplace_args = set(), {}
    return src, src.params + [a.id for a in src.node.args.kwonlyargs]


def _read(fn, kind):
    """A reader of `kind` walked over fn's body, or None without usable source."""
    found = helper_source(fn)
    if found is None:
        return None
    src, params = found
    reader = kind(src, params, src.node.body)
    try:
        reader.block(src.node.body)
    except TransformError:
        return None
    return reader


def _summarise(fn):
    reader = _read(fn, ReturnReader)
    if reader is None:
        return None
    kinds = {o.split(":", 1)[0] for o in reader.returned if ":" in o}
    if kinds - {"arg"}:
        return None                             # a global or unknown data
    return frozenset(o.split(":", 1)[1] for o in reader.returned if o.startswith("arg:"))


def bind(fn, args, kwargs):
    """(parameter name, Value) for a call's arguments, or None if they do not bind."""
    try:
        params = list(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        return None
    if len(args) > len(params) or any(k not in params for k in kwargs):
        return None
    return list(zip(params, args)) + list(kwargs.items())


class ReturnReader(AliasCheck):
    """Walks a helper recording what its return statements may refer to."""

    def __init__(self, src, params, body):
        super().__init__(src, params, body, helpers=HELPERS)
        self.returned = set()

    def write(self, *args, **kwargs):
        return None

    def refuse_inplace(self, *args, **kwargs):
        return None

    refuse_mutator = refuse_helper_write = refuse_inplace

    def augmented(self, s):
        return None

    def nested(self, s):
        self.state.names[s.name] = frozenset({"unknown:" + s.name})

    def statement(self, s):
        if isinstance(s, gast.Return) and s.value is not None:
            self.returned |= self.state.reach(self.value(s.value).objs)
        else:
            super().statement(s)


class WriteReader(ReturnReader):
    """Walks a helper recording which parameters it writes into, and where."""

    def __init__(self, src, params, body):
        super().__init__(src, params, body)
        self.written = {}

    def write(self, target, node, how, element_store=False):
        name = target.id if isinstance(target, gast.Name) else "it"
        for obj in sorted(self.value(target).objs):
            if obj.startswith("arg:"):
                self.written.setdefault(obj[4:], (self.external(name, obj, node, how), True))

    def augmented(self, s):
        """`p += v` on a parameter: in place when the argument is an array, list or dict."""
        value = self.value(s.target)
        for obj in sorted(value.objs):
            if obj.startswith("arg:"):
                how = "`+=` and the like change an array, list or dict in place"
                self.written.setdefault(obj[4:], (self.external(s.target.id, obj, s, how),
                                                  value.in_place))


class HelperSummaries:
    """What the alias check asks about a helper it calls (AliasCheck's `helpers`)."""

    returned_params = staticmethod(returned_params)
    written_params = staticmethod(written_params)
    bind = staticmethod(bind)


HELPERS = HelperSummaries()
