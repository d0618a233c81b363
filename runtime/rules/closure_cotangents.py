"""The tangent of the structural helper reverse mode's code calls on the cotangent of a
partial, which forward mode meets compiling that code again
(hvp forward over reverse, transform/flat_gradient.py). Each is linear in the
cotangent `g` it restructures (its other arguments give only the structure), so its
tangent is the helper applied to g's tangent. Reverse mode over them is not a route
any derivative takes: refused."""
from ..closures import partial_part
from ..complex_safety import RuleRefused
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


# (list_cotangent's and record_field's rules, with a VJP: reverse_containers.py.) Complex
# values refused: no reverse rule to check them against complex differences
rrule(partial_part, jvp=_in_g(partial_part))(_refused(partial_part.__name__))
