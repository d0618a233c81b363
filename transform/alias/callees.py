"""Stage 2, check, calls: a call to a user function that writes into its arguments is
refused (at the write, naming the call), whether or not its result is used.

A call whose result no differentiated value needs runs as a plain Python call, so
the helper's own check (which refuses writes into arguments) never runs, and its
write reaches the caller's array behind the tape's back:

    def put(buf, v):
        buf[0] = v               # writes into the caller's `b`
    def f(x):
        b = np.zeros(1)
        put(b, x * 3.0)          # TransformError at `buf[0] = v`, naming this call
        return b[0] * x

Only writes that reach the caller (an argument, a module global, an enclosing
function's name) count here, found by the alias analysis run over the helper's
source, and through the helpers it calls in turn.
"""
import inspect

import gast

from .summaries import HELPERS, helper_source
from .writes import AliasCheck
from ..frontend.parse import unwrap
from ..errors import TransformError
from ..ir.primitives import opaque_library

def check_callees(src, memo=None):
    """Raise TransformError at the first call to a helper that writes into its arguments.
    memo: helper -> its refusal or None, for this check only (a helper's own callees
    are names it reads live, so nothing is kept from one compilation to the next)."""
    memo = {} if memo is None else memo
    for node in sorted(src.calls(), key=lambda n: (n.lineno, n.col_offset)):   # the first one
        fn = _user_function(src.resolve(node.func))
        refusal = outside_write(fn, memo) if fn is not None else None
        if refusal is not None:
            raise _called_from(refusal, src.error("", node), getattr(fn, "__name__", "it"))


def _called_from(refusal, call, name):
    """The helper's own refusal (at its line), saying where the caller calls it."""
    return TransformError(
        f"{refusal.message}; `{name}` is called at {call.location} (`{call.source_line.strip()}`"
        "), and runs there even when its result is not used", filename=refusal.filename,
        line=refusal.line, col=refusal.col, source_line=refusal.source_line,
        hint=f"{refusal.hint}, return it, and assign the result where `{name}` is called")


def outside_write(fn, memo):
    """The TransformError for fn's first write into outside data, or None."""
    if fn not in memo:
        memo[fn] = None                         # recursion: assumed clean while in progress
        memo[fn] = _first_outside_write(fn, memo)
    return memo[fn]


def _first_outside_write(fn, memo):
    found = helper_source(fn)
    if found is None:
        return None
    src, params = found
    try:
        OutsideWrites(src, params, src.node.body, helpers=HELPERS).block(src.node.body)
        check_callees(src, memo)
    except TransformError as error:
        return error
    return None


def _user_function(fn):
    """fn as a plain Python function with no registered rule, else None."""
    import runtime
    if fn is None or not callable(fn):
        return None
    fn = unwrap(fn)[0]
    if not inspect.isfunction(fn) or runtime.lookup(fn) is not None:
        return None
    module = getattr(fn, "__module__", None) or ""
    if module == "numpy" or module.startswith(("numpy.", "runtime", "transform")) or \
            opaque_library(fn):                    # SciPy's source is never read
        return None
    return fn


class OutsideWrites(AliasCheck):
    """The alias check reduced to writes into outside data: a helper run as plain Python
    is right about its own locals, only its writes into the caller's data are lost."""

    def write(self, target, node, how, element_store=False):
        name = target.id if isinstance(target, gast.Name) else "it"
        for obj in sorted(self.value(target).objs):
            if obj.split(":")[0] in ("arg", "global", "outer"):
                raise self.external(name, obj, node, how)

    def refuse_inplace(self, *args, **kwargs):
        return None

    def augmented(self, s):
        return None

    def item_augmented(self, s, items):
        """`self.n += v` in a method setting attributes of `self`: rewritten when it is
        compiled (frontend/attribute_writes.py), an array held there refused as it runs."""
        own = getattr(self.src, "writing_self", (None,))[0]
        if not (isinstance(s.target, gast.Attribute) and
                isinstance(s.target.value, gast.Name) and s.target.value.id == own):
            super().item_augmented(s, items)

    def tuple_of_views(self, s, value):
        return None

    def nested(self, s):
        self.state.names[s.name] = frozenset()


__all__ = ["check_callees", "outside_write"]
