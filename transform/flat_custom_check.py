"""hvp forward over reverse's compile-time check of the custom rules a flat gradient
calls (transform/flat_custom.py): a rule whose JVP is a function with no rule of its
own gets its cotangents' tangent from reverse mode over that function's source, compiled
only when the call runs. Compiled here before anything runs, so its refusal is raised
at the user's line that reaches the rule (route "auto" then falls back)."""
import ast
import types
import weakref

from runtime import registry

from .api import compiled
from .errors import TransformError
from .flat_custom import custom_rule
from .public.parameters import _params, _unwrap, _wrt_names

_SITES = weakref.WeakKeyDictionary()      # a flat gradient -> its call sites (parsed once)
_PASSED = weakref.WeakKeyDictionary()     # a flat gradient -> (generation, values) passed


def passed_before(flat, found):
    """Whether hvp_forward.refuse_run_time_sites passed `flat` with the values `found`
    ((name, value) of its closure and globals), the same objects, while the rule
    registry stayed as it was: its verdict then is the same (hvp's per-call check)."""
    known = _PASSED.get(flat)
    return known is not None and known[0] == registry.generation and \
        len(known[1]) == len(found) and all(a is b for a, b in zip(known[1], found_values(found)))


def remember_passed(flat, found):
    _PASSED[flat] = (registry.generation, found_values(found))


def found_values(found):
    return tuple(value for _, value in found)


def refuse_jvp_sources(flat):
    """Refuse, at the site's line of the flat gradient, a custom rule call whose JVP
    function's source reverse mode refuses (np.gradient's `gradient_jvp`)."""
    cells = dict(zip(flat.__code__.co_freevars,
                     [c.cell_contents for c in flat.__closure__ or ()]))
    value = lambda name: cells[name] if name in cells else flat.__globals__.get(name)  # noqa: E731
    for name, count, line in _sites(flat):
        rule = custom_rule(value(name))
        term = getattr(rule, "custom_jvp", None)
        if not _compiled_from_source(term):
            continue
        try:
            _reverse_over(term, count)
        except TransformError as exc:
            raise TransformError(
                f"hvp (forward over reverse): the second derivative of {rule.name} (reverse "
                f"mode over its JVP function {term.__qualname__}): {exc.message}",
                filename=flat.__code__.co_filename, line=line) from None


def _sites(flat):
    """(rule's name, positional argument count or None, line) of each call site in the
    flat gradient's source: parsed once per flat gradient (its source never changes;
    the names' values are looked up at each check)."""
    sites = _SITES.get(flat)
    if sites is None:
        sites = _SITES[flat] = tuple(
            site + (node.lineno,) for node in ast.walk(ast.parse(flat.thunkgrad_flat_source))
            for site in [_site(node)] if site is not None)
    return sites


def _site(node):
    """(rule's name, positional argument count or None) of a flat gradient's call site
    `(f_rrule, (keywords...), (values...))`, else None."""
    if not (isinstance(node, ast.Tuple) and len(node.elts) == 3 and
            isinstance(node.elts[0], ast.Name) and
            all(isinstance(e, ast.Tuple) for e in node.elts[1:])):
        return None
    keywords, values = node.elts[1].elts, node.elts[2].elts
    starred = any(isinstance(v, ast.Starred) for v in values)
    return node.elts[0].id, None if starred else len(values) - len(keywords)


def _compiled_from_source(term):
    """Whether flat_custom._through_jvp_function compiles `term` with reverse mode: a
    plain function with no rule of its own, not the compiler's (refused before:
    hvp_forward.refuse_run_time_sites)."""
    return isinstance(term, types.FunctionType) and registry.lookup(term) is None and \
        (term.__module__ or "").split(".")[0] != "transform"


def _reverse_over(term, count):
    """Compile reverse mode's rule for term over the arguments the site passes (all
    its named ones when a `*` hides how many): general, as a call may specialise it."""
    plain, policy = _unwrap(term)
    named = len(_params(plain)) - 1
    count = named if count is None else min(count, named)
    if count > 0:
        names, _ = _wrt_names(plain, tuple(range(1, count + 1)))
        compiled(plain, names, policy)
