"""Stage 1b, desugar (data): the rewrites of starred_calls.py (`f(*xs)`, `f(**params)`)
and container_methods.py (`xs.pop()`, `d.update(...)`), run after desugar.py on the
user's tree, so the check stage and the alias check see only their plain forms.

    xs = (a, b); f(*xs)      ->  xs = (a, b); f(xs[0], xs[1])
    v = xs.pop()             ->  v = xs[-1]; xs = xs[:-1]
"""
import re

import gast

from ..ir.nodes import walk
from .attribute_writes import rewrite_attribute_writes
from .nested_appends import rewrite_nested_appends
from .container_methods import ITEM_WRITING, REBINDING, rewrite_container_methods
from .dict_calls import rewrite_dict_calls
from .local_uses import LocalUses
from .starred_calls import rewrite_starred_calls

_METHODS = REBINDING | ITEM_WRITING | {"shuffle"}
# A cheap look at the text first (most functions have neither a `*`/`**` argument nor one
# of these methods). Text the desugar stage brought in from elsewhere is not in it: such
# a form is then left as written, and the alias check refuses it (never a silent change).
_SUGAR_TEXT = re.compile(r"[(,]\s*\*|\.\s*(?:%s)\s*\(|\w\.\w+\s*(?:[-+*/%%@&|^]|//|\*\*|<<|>>)?"
                         r"=[^=]|\]\s*\.\s*append\s*\(|\bdict\s*\(" % "|".join(sorted(_METHODS)))


def desugar_data(src):
    """Rewrite `src.node` in place; refresh what SourceFunction derived from it."""
    if not (_SUGAR_TEXT.search("".join(src.lines)) and _has_data_sugar(src.node) or
            _local_method_call(src)):
        return
    taken = {n.id for n in walk(src.node) if isinstance(n, gast.Name)}
    uses = LocalUses(src)
    changed = rewrite_dict_calls(src, uses)         # dict(p, k=v) -> {**p, "k": v}
    if changed:
        uses = LocalUses(src)
    changed |= rewrite_starred_calls(src, uses)
    if changed:
        uses = LocalUses(src)           # the spread reads are new occurrences
    changed |= rewrite_container_methods(src, lambda base: _fresh(base, taken), uses)
    if changed:
        uses = LocalUses(src)
    changed |= rewrite_attribute_writes(src, uses, lambda base: _fresh(base, taken))
    if changed:
        uses = LocalUses(src)
    changed |= rewrite_nested_appends(src, uses)
    if changed:
        src.refresh()


def _has_data_sugar(fdef):
    """One walk (on the compile path of every function): most have none."""
    starred, keyword, attribute, name = gast.Starred, gast.keyword, gast.Attribute, gast.Name
    for n in walk(fdef):
        kind = type(n)
        if kind is starred or kind is keyword and n.arg is None or \
                kind is attribute and (n.attr in _METHODS or type(n.ctx) is gast.Store or
                                       n.attr == "append" and type(n.value) is gast.Subscript) or \
                kind is name and n.id == "dict":
            return True
    return False


def _local_method_call(src):
    """Whether the function calls a method of a local object (`r.step(x)`), which may
    set attributes of `self` (attribute_writes.py)."""
    return any(type(n.func) is gast.Attribute and type(n.func.value) is gast.Name and
               n.func.value.id in src.locals for n in src.calls())


def _fresh(base, taken):
    k = 1
    while f"{base}{k}" in taken:
        k += 1
    taken.add(f"{base}{k}")
    return f"{base}{k}"
