"""Rules for the runtime functions reverse mode's generated code calls that forward
mode meets when it compiles that code again (hvp forward over reverse:
transform/flat_gradient.py, which writes the in-place accumulations as fresh sums
first: `accum_eager`, `accumulated_at`). Each is linear in the cotangents it moves (matmul's
two: bilinear); the values they read for shapes or positions carry no cotangent."""
from ..accumulate import accum_eager, cotangent_zeros, own, reused_cotangent
from ..containers import getitem_vjp, part, product_or_repeat_vjp
from ..flat import accumulated_at, gradient_of, gradient_seed, item_split, lhs_products, \
    shape_snapshot
from ..helpers import matmul_lhs, matmul_rhs, transpose_vjp, unbroadcast
from ..registry import JOINT, LINEAR, SHAPE, defvjp, nondiff
from ..tape import shape_only, unviewed
from ..thunks import unthunk

# the gradient returned: the cotangent (zeros where None), the argument only its kind
defvjp(gradient_of, "cotangent, like", "g", SHAPE, jvp=(LINEAR, None))
# the output's cotangent 1: only the output's kind is read
nondiff(gradient_seed, why=SHAPE, fresh=True)
# a cotangent buffer's zeros: only the argument's shape and kind are read
nondiff(cotangent_zeros, why=SHAPE, fresh=True)
# a tape entry the backward sweep reads only for its shape
nondiff(shape_only, why=SHAPE)
nondiff(shape_snapshot, why=SHAPE)     # (a list or dict copied: the flat gradient's)
# a cotangent's fresh sum (None is zero) and a copy
defvjp(accum_eager, "acc, contribution", "g", "g", jvp=JOINT)
defvjp(own, "value", "g", jvp=LINEAR)
# the optimiser's reused buffer: values itself or zeros like `like` with values written in
defvjp(reused_cotangent, "values, like", "unbroadcast(g, values)", SHAPE, jvp=(LINEAR, None))
defvjp(unviewed, "x", "g", jvp=LINEAR)
# buffer[index] += value on a copy (zeros like `like` for a None buffer)
defvjp(accumulated_at, "buffer, like, index, value", "g", SHAPE, None,
       "unbroadcast(g[index], value)", jvp=(JOINT, None, None, JOINT))
# a @ b's cotangents: bilinear in (the output's cotangent, the other factor)
defvjp(matmul_lhs, "slopes_g, a, b", "unbroadcast(np.matmul(g, b), slopes_g)", SHAPE,
       "matmul_rhs(slopes_g, g, b)", jvp=(LINEAR, None, LINEAR))
defvjp(matmul_rhs, "slopes_g, a, b", "unbroadcast(np.matmul(a, g), slopes_g)",
       "matmul_lhs(slopes_g, a, g)", SHAPE, jvp=(LINEAR, LINEAR, None))
# a cotangent summed back to an argument's shape: linear in the cotangent
defvjp(unbroadcast, "grad, x, side=None", "arrays_only(g, grad, x, side) + np.zeros_like(grad)",
       SHAPE, None,
       jvp=(LINEAR, None, None))
# a deferred cotangent forced: its value
defvjp(unthunk, "value", "g", jvp=LINEAR)
# an indexed read's cotangent (zeros but at index; a dict's {index: g}): linear in g
defvjp(getitem_vjp, "slopes, x, index", "g[index]", SHAPE, None, jvp=(LINEAR, None, None))
# x's cotangent in `x * y`: bilinear in (g, y) for numbers and arrays; a sequence
# repeated (`xs * n`) has no y to differentiate (its tangent term: the copies' sum of
# the tangent); the cotangent templates are the product's (the checks use arrays)
defvjp(product_or_repeat_vjp, "slopes, x, y",
       "unbroadcast((arrays_only(g, x, y) + np.zeros_like(slopes * y)) * y, slopes)", SHAPE,
       "unbroadcast((arrays_only(g, x, y) + np.zeros_like(slopes * y)) * slopes, y)",
       jvp=(LINEAR, None, "product_or_repeat_vjp(slopes, x, zero_if_none(t_y))"))
# a transpose's cotangent: transposed back, linear
defvjp(transpose_vjp, "slopes, axes=None", "np.transpose(g, axes)", None, jvp=(LINEAR, None))
# entry `key` of a container's cotangent: linear in it
defvjp(part, "slopes, key", "getitem_vjp(g, slopes, key)", None, jvp=(LINEAR, None))
# a backward loop's outer products summed at once: bilinear in the two lists
defvjp(lhs_products, "gs, bs, a", "lhs_products_vjp(g, gs, bs, a, 0)",
       "lhs_products_vjp(g, gs, bs, a, 1)", SHAPE, jvp=(LINEAR, LINEAR, None))
# an item store's cotangents (the stored value's, the rest's) on a copy: linear in dx
defvjp(item_split, "dx, index", "item_split_vjp(g, dx, index)", None, jvp=(LINEAR, None))
