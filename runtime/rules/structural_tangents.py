"""Reverse rules for the tangents of two structural operations, which generated
forward-mode code calls (`p._replace(a=v)` and `obj.name = v` on an object being
built), so that reverse mode differentiates `<name>_jvp` through them (hvp, hessian,
grad of grad):

    t_dot = with_attribute_jvp((b_dot, None, v_dot), b, 'state', v)
          = with_attribute(b_dot or b's zeros, 'state', v_dot or v's zeros)

Each is the operation itself applied to the tangents (zeros where there are none), so
its pullback is the operation's pullback, its cotangent for the tangents tuple entry by
entry (None where the tangent was None); the primal arguments give only structure and
zeros: no cotangent. Its JVP is itself along the tangents tuple's tangent.
"""
from ..attributes import _with_attribute_rule, _zero_object, with_attribute_jvp
from ..containers import _replace_fields_rule, replace_fields_jvp
from ..forward import zero_tangent
from ..registry import rrule


def _along_tangents(fn):
    """The JVP of fn(tangents, *primals), linear in `tangents`, constant in the rest."""
    def jvp(tangents, _, *primals):
        return None if tangents[0] is None else fn(tangents[0], *primals)
    return jvp


@rrule(with_attribute_jvp, jvp=_along_tangents(with_attribute_jvp))
def _with_attribute_jvp_rule(tangents, obj, name, value):
    t_obj, _, t_value = tangents
    base = _zero_object(obj) if t_obj is None else t_obj
    out, pullback = _with_attribute_rule(
        base, name, zero_tangent(value) if t_value is None else t_value)

    def with_attribute_jvp_pullback(g):
        c_obj, _, c_value = pullback(g)
        return ((None if t_obj is None else c_obj, None,
                 None if t_value is None else c_value), None, None, None)
    return out, with_attribute_jvp_pullback


@rrule(replace_fields_jvp, jvp=_along_tangents(replace_fields_jvp))
def _replace_fields_jvp_rule(tangents, record, names, *values):
    t_record, t_values = tangents[0], tangents[2:]
    base = zero_tangent(record) if t_record is None else t_record
    out, pullback = _replace_fields_rule(base, names, *[
        zero_tangent(v) if t is None else t for v, t in zip(values, t_values)])

    def replace_fields_jvp_pullback(g):
        c_record, _, *c_values = pullback(g)
        kept = [None if t is None else c for c, t in zip(c_values, t_values)]
        return ((None if t_record is None else c_record, None, *kept), None, None) + \
            (None,) * len(values)
    return out, replace_fields_jvp_pullback
