"""Reverse rules for the runtime functions generated forward-mode code calls
(runtime/forward.py, the JVP templates' helpers, the loop and guard helpers lowering
emits), so that reverse mode can differentiate `<name>_jvp` like user code: hvp is
reverse over forward (transform/hessians.py, docs/forward.md). The compiler's own
call_jvp has its rule in transform/forward_reverse.py.

Each is linear in the tangents it moves (stored_tangent jointly in the tangent and the
stored value); the primal values they read give only kinds, shapes and which entry a
max picked, so their cotangents are zero (ZERO, SHAPE) or None from the template.
"""
from ..containers import is_ndarray, is_user_object, not_shared_array, unpacked_count
from ..contexts import enter_context, exit_context, finally_guard
from ..forward import attribute_tangent, dict_items_guard, receiver_tangent, stored_tangent
from ..helpers import integer_valued, reduction_size, unreduce
from ..integer_reads import integer_attribute, integer_call
from ..operators import operator_side
from ..registry import JOINT, LINEAR, NONE, SHAPE, ZERO, defvjp, nondiff
from ..tape import iterable
from .complex_helpers import abs_vjp, deviation, sign_jvp
from .decompositions_helpers import mT
from .elementwise_helpers import clip_inside
from .own_methods_helpers import own_method_refused
from .forward_container_helpers import dict_get_jvp, getattr_jvp
from .forward_helpers import diff_jvp, permuted_jvp, reduce_jvp, tangent_terms_sum
from .forward_linalg_helpers import cholesky_jvp
from .norm_helpers import norm_vjp
from .operators_helpers import extreme_jvp, sorted_jvp
from .reductions_helpers import extremum_vjp, initial_factor, prod_vjp
from .shape_helpers import as_cotangent

# `w[i] = v` in forward code: the tangent's copy with v's tangent stored (jointly linear)
defvjp(stored_tangent, "tangent, index, value", "stored_tangent_vjp(g, index, value, 0)",
       None, "stored_tangent_vjp(g, index, value, 1)", jvp=JOINT)
# a method's receiver tangent (a number's as a 0-d array): the cotangent summed back
defvjp(receiver_tangent, "tangent, receiver", "unbroadcast(g, tangent)", SHAPE, view=True,
       jvp=LINEAR)
# `p.w`'s tangent: the tangent object's field (a @property: its getter's tangent, which
# depends on obj: transform/forward_reverse.py differentiates the getter's `_jvp`)
defvjp(attribute_tangent, "tangent, obj, name",
       "attribute_tangent_vjp(g, tangent, obj, name, 0)",
       "attribute_tangent_vjp(g, tangent, obj, name, 1)", None, view=True,
       jvp=(LINEAR, "attribute_obj_jvp(t_obj, tangent, obj, name)"))
# a reduction's tangent over fixed axes: sum(slopes * t), bilinear
defvjp(reduce_jvp, "slopes, t, axis, keepdims=False",
       "reduce_jvp_vjp(g, slopes, t, axis, keepdims)",
       "reduce_jvp_vjp(g, t, slopes, axis, keepdims)", None, None, jvp=LINEAR)
# max/min's tangent: the picked entries' tangents (which entry: piecewise constant)
# (its first parameter is max's answer: named `answer`, since a template's `ans` is the
# rule's own output)
defvjp(extreme_jvp, "answer, values, tangents", None, None,
       "extreme_jvp_vjp(g, answer, values, tangents)", jvp=(None, None, LINEAR))
# sorted's tangent: the entries' tangents in sorted's order (a permutation: linear)
defvjp(sorted_jvp, "answer, values, tangents", None, None,
       "sorted_jvp_vjp(g, answer, values, tangents)", jvp=(None, None, LINEAR))
# |x|'s VJP inside its JVP term: linear in the cotangent, the sign piecewise constant
defvjp(abs_vjp, "slopes_g, x", "abs_vjp_vjp(g, slopes_g, x)", None, jvp=(LINEAR, None))
# np.max/np.min's VJP inside their JVP term (at a cotangent of ones): linear in the
# cotangent; which entries tie for the extremum is piecewise constant (ZERO)
defvjp(extremum_vjp, "slopes_g, extremum, a, axis, keepdims",
       "extremum_vjp_vjp(g, slopes_g, extremum, a, axis, keepdims)", None, None, None, None,
       jvp=(LINEAR, None, None, None, None))
# getattr(obj, name)'s tangent: attribute_tangent under another name (session 38, secorder;
# parameters renamed: a template's t_obj would be obj's tangent)
defvjp(getattr_jvp, "tangent, obj, name", "attribute_tangent_vjp(g, tangent, obj, name, 0)",
       "attribute_tangent_vjp(g, tangent, obj, name, 1)", None, view=True,
       jvp=(LINEAR, "attribute_obj_jvp(t_obj, tangent, obj, name)"))
# d.get(key, default)'s tangent: the entry's or the default's (which one: the key's presence)
defvjp(dict_get_jvp, "tangent, d, key, answer, which", "dict_get_jvp_vjp(g, d, key, which)",
       ZERO, None, ZERO, None, jvp=(LINEAR, None, None, None, None))
# two helpers' tangent terms added (entry by entry for tuples and dicts): linear in both
defvjp(tangent_terms_sum, "total, term", "terms_sum_vjp(g, total)", "terms_sum_vjp(g, term)",
       jvp=JOINT)
# what a `for` loop iterates over, kept as it is (a generator listed): the identity
defvjp(iterable, "x", "g", view=True, complex_ok=True, jvp=LINEAR)
# helpers inside the rules' JVP terms (session 34, red): a matrix transpose (slogdet,
# det, inv, solve), a sort's permutation (np.sort), std's cotangent as an array: linear;
# a product's `initial=` factor: the identity (1 when absent, then not differentiated)
defvjp(mT, "x", "mT(g)", view=True, jvp=LINEAR)
defvjp(permuted_jvp, "t, order, axis", "permuted_jvp_vjp(g, t, order, axis)", None, None,
       jvp=(LINEAR, None, None))
defvjp(as_cotangent, "value, like", "unbroadcast(g, value)", None, view=True,
       jvp=(LINEAR, None))
defvjp(initial_factor, "initial", "g", view=True, jvp=LINEAR)
# np.linalg.norm's slopes in its JVP term: the 2-norm family's g x / |x| (other orders
# refused when they run; runtime/rules/norm_helpers.py)
defvjp(norm_vjp, "slopes_g, answer, x, ord, axis, keepdims",
       "norm_vjp_vjp(g, slopes_g, answer, x, ord, axis, keepdims, 0)",
       "norm_vjp_vjp(g, slopes_g, answer, x, ord, axis, keepdims, 1)",
       "norm_vjp_vjp(g, slopes_g, answer, x, ord, axis, keepdims, 2)", None, None, None,
       jvp=(LINEAR, "norm_vjp_jvp(t_answer, slopes_g, answer, x, ord, axis, keepdims, 1)",
            "norm_vjp_jvp(t_x, slopes_g, answer, x, ord, axis, keepdims, 2)", None, None,
            None))
# np.var's and np.std's slopes a - mean(a): linear, self-adjoint (real values)
defvjp(deviation, "a, axis=None", "deviation_vjp(g, a, axis)", None, jvp=LINEAR)
# a reduction's cotangent spread back over the reduced axes (var's and std's slopes):
# linear in g, x read for its shape
defvjp(unreduce, "value, x, axis=None, keepdims=False", "unreduce_vjp(g, value, axis, keepdims)",
       None, None, None, jvp=(LINEAR, None, None, None))
# np.prod's slopes (each entry's product of the others): runtime/rules/prod_second_helpers.py
defvjp(prod_vjp, "slopes_g, a, axis, keepdims",
       "prod_vjp_vjp(g, slopes_g, a, axis, keepdims, 0)",
       "prod_vjp_vjp(g, slopes_g, a, axis, keepdims, 1)", None, None,
       jvp=(LINEAR, "prod_vjp_jvp(t_a, slopes_g, a, axis, keepdims)", None, None))
# cholesky's tangent L Phi(L^-1 sym(t) L^-T): linear in t (runtime/rules/prod_second_helpers.py)
defvjp(cholesky_jvp, "t, ans_l, upper", "cholesky_jvp_vjp(g, t, ans_l, upper, 0)",
       "cholesky_jvp_vjp(g, t, ans_l, upper, 1)", None,
       jvp=(LINEAR, "cholesky_jvp_jvp(t, t_ans_l, ans_l, upper)", None))
# np.sign's tangent: zero for real values whatever t and x (complex: refused at run time)
defvjp(sign_jvp, "t, x, ans", "real_sign_jvp_vjp(g, t)", "real_sign_jvp_vjp(g, x)", None,
       jvp=(LINEAR, "0 * t_x", None))
# np.diff's tangent: linear in t (the ends joined are held: only their shapes count)
defvjp(diff_jvp, "t, n, axis, prepend, append", "diff_vjp(g, t, n, axis, prepend, append)",
       None, None, None, None, jvp=(LINEAR, None, None, None, None))
# guards and masks: they return None, a bool or a boolean mask
nondiff(unpacked_count, not_shared_array, is_user_object, clip_inside, dict_items_guard,
        why=ZERO)
# session 34: a.fill(v)'s dispatch, np.sum(b)'s guard for an argument with its own method
nondiff(is_ndarray, own_method_refused, why=ZERO)
# a count (np.var's and np.std's divisor): only the shape is read
nondiff(reduction_size, why=SHAPE)
# a helper's or property's integer made from sizes (transform/lowering/integer_results.py)
nondiff(integer_valued, integer_call, integer_attribute, why=ZERO)
# which side's method an operator calls: the operands' types only
nondiff(operator_side, why=SHAPE)
# a `with` block's manager opened and closed (runtime/contexts.py): no derivative flows
# through a manager (NONE: a differentiated one is refused, as reverse mode refuses it)
nondiff(enter_context, exit_context, why=NONE)
# a `try`/`finally` block's guard, opened on the calling frame (runtime/contexts.py): it
# runs the block when an exception leaves, and returns the open guard
nondiff(finally_guard, why=NONE)
