"""JVP helpers reverse mode cannot differentiate yet: runtime functions that a rule's
forward-mode terms call (a template term, the VJP template a DIAGONAL or REDUCTION term
evaluates, a custom rule's JVP function) with no reverse rule of their own and not
differentiated from their source (transform/generated_calls.py BY_SOURCE). hvp, hessian
and grad of grad refuse a program whose forward code calls one (at the user's line).
They are listed in tests/rules/second_order_missing.txt, which may only shrink; a rule
added for a helper brings its own JVP, whose helpers are listed there as third order."""
import ast
import pathlib
import types

import transform.api  # noqa: F401  (the rules the compiler registers)
import transform.flat_calls  # noqa: F401  (and hvp forward-over-reverse route's callee_vjp)
import transform.spread_jvp  # noqa: F401  (and the spread calls')
from runtime import registry
from runtime.jvp import DIAGONAL, JOINT, LINEAR, REDUCTION
from runtime.registry import TEMPLATE_NAMESPACE
from transform.generated_calls import by_source

try:
    import scipy.integrate, scipy.linalg, scipy.signal, scipy.special, scipy.stats  # noqa: F401,E401
except ImportError:
    scipy = None

LISTED = pathlib.Path(__file__).with_name("second_order_missing.txt")


def _qualified(fn):
    return f"{fn.__module__}.{fn.__qualname__}"


def _undifferentiable(fn):
    return isinstance(fn, types.FunctionType) and registry.lookup(fn) is None and \
        not getattr(fn, "thunkgrad_block", False) and not by_source(fn) and \
        (fn.__module__ or "").split(".")[0] in ("runtime", "transform")


def _term_texts(rule):
    for param, term in rule.jvps.items():
        if term == DIAGONAL:        # the VJP template, its own unbroadcast dropped (terms.py)
            yield rule.templates[param].replace("unbroadcast(", "(").replace(f", {param})", ")")
        elif term == REDUCTION:
            yield f"reduce_jvp({rule.templates[param]})"
        elif term not in (LINEAR, JOINT):
            yield term


def missing():
    """{helper's qualified name: the rules whose JVP terms call it}."""
    registry._load_pending()
    found = {}
    for rule in list(registry._RULES.values()):
        helpers = [TEMPLATE_NAMESPACE.get(n.id) for text in _term_texts(rule)
                   for n in ast.walk(ast.parse(text, mode="eval")) if isinstance(n, ast.Name)]
        helpers += [rule.custom_jvp] if callable(rule.custom_jvp) else []
        for fn in helpers:
            if _undifferentiable(fn):
                found.setdefault(_qualified(fn), set()).add(rule.name)
    return found


def test_helpers_without_a_reverse_rule_are_the_listed_ones():
    listed = {line.strip() for line in LISTED.read_text().splitlines()
              if line.strip() and not line.startswith("#")}
    found = set(missing())
    assert not found - listed, f"JVP helpers reverse mode cannot take, not listed " \
        f"(give them a reverse rule, or list them): {sorted(found - listed)}"
    stale = sorted(n for n in listed - found if scipy is not None or "scipy" not in n)
    assert not stale, f"listed in {LISTED.name} but differentiable now: delete {stale}"


if __name__ == "__main__":
    for name, users in sorted(missing().items()):
        print(f"{name}  ({len(users)}: {', '.join(sorted(users)[:3])})")
