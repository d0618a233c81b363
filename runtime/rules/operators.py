"""Python operators and numeric builtins (the `math` module: math_module.py)."""
import copy
import operator

from .. import closures, containers  # noqa: F401  (registers container helpers)

from ..registry import DIAGONAL, JOINT, LINEAR, NONE, SHAPE, ZERO, defmethod, defvjp, nondiff
from .operators_helpers import transposed
from .sequences_helpers import in_order, reversed_items, shuffle_order

# elementwise: on arrays and numbers (on lists `+` concatenates: the passes check kinds)
defvjp(operator.add, "x, y", "unbroadcast(g, x, 0)", "unbroadcast(g, y, 1)", elementwise=True,
       complex_ok=True)
defvjp(operator.sub, "x, y", "unbroadcast(g, x)", "unbroadcast(-g, y)", elementwise=True,
       complex_ok=True)
defvjp(operator.mul, "x, y", "unbroadcast(g * y, x)", "unbroadcast(g * x, y)", elementwise=True,
       complex_ok=True)
defvjp(containers.repeat_sequence, "xs, n",                      # [a, b] * n, or [a, b] * w
       "product_or_repeat_vjp(g, xs, n)", "product_or_repeat_vjp(g, n, xs)", complex_ok=True,
       jvp=LINEAR)              # bilinear: a list's copies, or a product
defvjp(containers.product_or_repeat, "x, y",                                # xs * n, or x * n
       "product_or_repeat_vjp(g, x, y)", "product_or_repeat_vjp(g, y, x)", complex_ok=True,
       jvp=LINEAR)
defvjp(operator.truediv, "x, y", "unbroadcast(g / y, x)", "unbroadcast(-g * ans / y, y)",
       elementwise=True, complex_ok=True)
defvjp(operator.pow, "x, y", "unbroadcast(g * y * x ** (y - 1), x)",
       "pow_exponent_vjp(g, ans, x, y)", elementwise=True, complex_ok=True)
defvjp(operator.matmul, "x, y", "matmul_lhs(g, x, y)", "matmul_rhs(g, x, y)", numeric=True,
       complex_ok=True, jvp=LINEAR)
defvjp(operator.neg, "x", "-g", elementwise=True, complex_ok=True)
defvjp(operator.pos, "x", "g", elementwise=True, complex_ok=True)
defvjp(operator.getitem, "x, index", "getitem_vjp(g, x, index)", None,
       complex_ok=True, jvp=LINEAR)  # indices: integers
# a closure's tangent (and cotangent) is its env's; a partial's, (func's, args', keywords')
defvjp(closures.make_closure, "template, env", None, "g",
       complex_ok=True, jvp=(None, "t_env"))
defvjp(closures.make_partial, "func, args, keywords", "partial_part(g, 0)",
       "partial_part(g, 1)", "partial_part(g, 2)", complex_ok=True,
       jvp=("(t_func, None, None)", "(None, t_args, None)", "(None, None, t_keywords)"))
defvjp(getattr, "obj, name", "getattr_vjp(g, obj, name, ans)", complex_ok=True,
       jvp="getattr_jvp(t_obj, obj, name)")
defvjp(sum, "iterable, start=0", "sum_entries_vjp(g, iterable)", "unbroadcast(g, start)",
       complex_ok=True,
       jvp=("sum(t_iterable, 0 * start)", "np.broadcast_to(t_start, np.shape(ans))"))
# `p | q` merges dicts (q's entries win); on ints and bools it has no derivative
# (forward: `t_x | zeros of y`, y's entries winning, as for the values)
defvjp(operator.or_, "x, y", "union_vjp(g, x, y, 0)", "union_vjp(g, x, y, 1)",
       complex_ok=True, jvp=JOINT)
# x % y = x - y * floor(x / y), the floor constant almost everywhere
defvjp(operator.mod, "x, y", "unbroadcast(g, x)", "unbroadcast(-g * np.floor_divide(x, y), y)",
       jvp=DIAGONAL)
nondiff(operator.lt, operator.le, operator.gt, operator.ge, operator.eq, operator.ne,
        operator.not_, operator.floordiv, operator.and_,
        operator.xor, operator.invert, operator.is_, operator.is_not, operator.contains, why=ZERO)


defvjp(abs, "x", "abs_vjp(g, x)", elementwise=True, complex_ok=True)
defvjp(float, "x", "g", scalar_result=True, numeric=True, jvp=LINEAR)
defvjp(pow, "base, exp, mod=None", "unbroadcast(g * exp * base ** (exp - 1), base)",
       "pow_exponent_vjp(g, ans, base, exp)", ZERO, elementwise=True,
       complex_ok=True)    # mod: ints
defvjp(divmod, "x, y", "divmod_vjp(g, x, y, 0)", "divmod_vjp(g, x, y, 1)",
       jvp=("(None, t_x)", "(None, -t_y * ans[0])"))
# max(a, b, c) is compiled as max((a, b, c)); a key only orders the entries (ZERO)
defvjp(max, "iterable, *, key=None, default=None", "extreme_vjp(g, ans, iterable)", ZERO, NONE,
       name="max", complex_ok=True,
       jvp="extreme_jvp(ans, iterable, t_iterable)")
defvjp(min, "iterable, *, key=None, default=None", "extreme_vjp(g, ans, iterable)", ZERO, NONE,
       name="min", complex_ok=True,
       jvp="extreme_jvp(ans, iterable, t_iterable)")
defvjp(list, "iterable=()", "sequence_vjp(g, iterable)", complex_ok=True, jvp=LINEAR)
defvjp(tuple, "iterable=()", "sequence_vjp(g, iterable)", complex_ok=True, jvp=LINEAR)
defvjp(sorted, "iterable, /, *, key=None, reverse=False", "sorted_vjp(g, iterable, ans)",
       ZERO, ZERO, complex_ok=True, jvp="sorted_jvp(ans, iterable, t_iterable)")
nondiff(len, int, bool, range, round, isinstance, type, min.__class__, why=ZERO)
# a slice of floats is a range for np.r_ or np.mgrid: no rule for its endpoints
nondiff(slice, why=NONE)

nondiff(dict.keys, why=SHAPE)
defmethod("keys", dict.keys)
# Container methods that read: dispatched on the receiver's type at run time
# (transform/dispatch.py), the receiver first
# (2026-12-02, session 32 (fwd): these rearrange their entries: LINEAR, the tangent
# rearranged the same way)
defvjp(transposed, "rows", "transposed_vjp(g, rows)", complex_ok=True,           # zip(*rows)
       jvp=LINEAR)
defvjp(reversed_items, "xs", "reversed_items_vjp(g, xs)", complex_ok=True,       # reversed(xs)
       jvp=LINEAR)
defvjp(in_order, "xs, order", "in_order_vjp(g, xs, order)", None, complex_ok=True,
       jvp=LINEAR)
nondiff(shuffle_order, why=ZERO)                               # rng.shuffle(xs) of a list
defvjp(dict, "iterable=()", "dict_pairs_vjp(g, iterable)", complex_ok=True,
       jvp="dict_pairs_jvp(iterable, t_iterable)")
defvjp(dict.values, "self", "dict_values_vjp(g, self)", complex_ok=True, jvp=LINEAR)
defvjp(dict.items, "self", "dict_items_vjp(g, self)", complex_ok=True,
       jvp="dict_items_jvp(self, t_self)")
defvjp(dict.get, "self, key, default=None", "dict_get_vjp(g, self, key)", ZERO,
       "None if key in self else g", complex_ok=True,
       jvp=("dict_get_jvp(t_self, self, key, ans, 0)", None,
            "dict_get_jvp(t_default, self, key, ans, 1)"))
defvjp(dict.copy, "self", "g", complex_ok=True, jvp=LINEAR)
defvjp(list.copy, "self", "g", complex_ok=True, jvp=LINEAR)
# copy.copy / copy.deepcopy: the same values in new objects, so the cotangent is g's
defvjp(copy.copy, "x", "g", complex_ok=True, jvp=LINEAR)
defvjp(copy.deepcopy, "x, memo=None", "g", ZERO, complex_ok=True, jvp=LINEAR)
nondiff(list.index, list.count, tuple.index, tuple.count, why=ZERO)


# `with m as v: body` runs as v = m.__enter__(); body; m.__exit__(None, None, None)
# (transform/desugar.py); a manager holding a value being differentiated is refused.
def enter_context(manager):
    return manager.__enter__()


def exit_context(manager, *exc_info):
    return manager.__exit__(*exc_info)


nondiff(enter_context, exit_context, why=NONE)
defmethod("__enter__", enter_context)
defmethod("__exit__", exit_context)
