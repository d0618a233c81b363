"""Tangents of the structural helpers reverse mode's code calls on the cotangents of
closures, partials and records, which forward mode meets compiling that code again
(hvp forward over reverse, transform/flat_gradient.py). Each is linear in the
cotangent `g` it restructures (its other arguments give only the structure), so its
tangent is the helper applied to g's tangent. Reverse mode over them is not a route
any derivative takes: refused."""
from ..closures import partial_part
from ..complex_safety import RuleRefused
from ..containers import list_cotangent, record_field
from ..forward import zero_tangent
from ..registry import rrule


def _in_g(helper):
    """The JVP of a helper linear in its first argument, the others structure only."""
    def jvp(tangents, g, *rest):
        if tangents[0] is None:         # (a tangent of the structure only: zero)
            return zero_tangent(helper(g, *rest))
        return helper(tangents[0], *rest)
    jvp.__name__ = jvp.__qualname__ = helper.__name__ + "_jvp"
    return jvp


def _refused(name):
    def rule(*args):
        raise RuleRefused(f"reverse mode over {name} (a cotangent's structure) is not "
                          "supported Instead: use hvp's route=\"reverse_over_forward\"")
    return rule


for _helper in (list_cotangent, partial_part, record_field):
    rrule(_helper, jvp=_in_g(_helper), complex_ok=True)(_refused(_helper.__name__))
