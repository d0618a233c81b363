import numpy as np
import transform as tg
from transform.testing import check_grads
from tests.errs40 import programs as P

x = np.array([.3, .7, 1.1]); v = np.array([.5, -1., 2.])
def sq(x): return np.sum(x ** 2)
def two(x, y): return np.sum(x * y ** 2)
CASES = {
 "wrt_out_of_range": lambda: tg.grad(P.two_args, wrt=5)(x, x),
 "wrt_negative": lambda: tg.grad(P.two_args, wrt=-1)(x, x),
 "wrt_bad_name": lambda: tg.grad(P.two_args, wrt="z")(x, x),
 "wrt_float": lambda: tg.grad(P.two_args, wrt=1.0)(x, x),
 "wrt_none": lambda: tg.grad(P.two_args, wrt=None)(x, x),
 "wrt_dup": lambda: tg.grad(P.two_args, wrt=(0, 0))(x, x),
 "wrt_name_and_index": lambda: tg.grad(P.two_args, wrt=(0, "x"))(x, x),
 "vjp_wrt_oor": lambda: tg.vjp(P.two_args, x, x, wrt=3)[1](1.0),
 "jvp_wrt_oor": lambda: tg.jvp(P.two_args, (x, x), (v,), wrt=3),
 "jacfwd_wrt_neg": lambda: tg.jacfwd(P.two_args, wrt=-1)(x, x),
 "jacrev_wrt_name": lambda: tg.jacrev(P.two_args, wrt="q")(x, x),
 "hessian_wrt_oor": lambda: tg.hessian(P.two_args, wrt=2)(x, x),
 "hvp_wrt_oor": lambda: tg.hvp(P.two_args, (x, x), (v,), wrt=4),
 "kwonly_wrt_name": lambda: tg.grad(P.kwonly, wrt="scale")(x, scale=2.0),
 "kwonly_wrt_name_vag": lambda: tg.value_and_grad(P.kwonly, wrt="scale")(x, scale=2.0),
 "kwonly_missing": lambda: tg.grad(P.kwonly)(x),
 "kwonly_wrt_name_jacrev": lambda: tg.jacrev(P.kwonly, wrt="scale")(x, scale=2.0),
 "kwonly_wrt_name_jacfwd": lambda: tg.jacfwd(P.kwonly, wrt="scale")(x, scale=2.0),
 "kwonly_hvp_name": lambda: tg.hvp(P.kwonly, (x,), (1.0,), wrt="scale"),
 "kwonly_jvp_name": lambda: tg.jvp(P.kwonly, (x,), (1.0,), wrt="scale"),
 "missing_arg": lambda: tg.grad(P.two_args)(x),
 "missing_arg_hvp": lambda: tg.hvp(P.two_args, (x,), (v,)),
 "missing_arg_jvp": lambda: tg.jvp(P.two_args, (x,), (v,)),
 "extra_arg": lambda: tg.grad(sq)(x, x),
 "jvp_tangent_shape": lambda: tg.jvp(sq, (x,), (np.ones(4),)),
 "jvp_tangent_count": lambda: tg.jvp(P.two_args, (x, x), (v,)),
 "jvp_tangent_not_tuple": lambda: tg.jvp(sq, (x,), v),
 "jvp_primals_not_tuple": lambda: tg.jvp(sq, x, (v,)),
 "jvp_tangent_int": lambda: tg.jvp(sq, (x,), (np.array([1, 2, 3]),)),
 "jvp_tangent_complex": lambda: tg.jvp(sq, (x,), (v * 1j,)),
 "hvp_tangent_shape": lambda: tg.hvp(sq, (x,), (np.ones((3, 1)),)),
 "hvp_tangent_scalar": lambda: tg.hvp(sq, (x,), (1.0,)),
 "hvp_tangent_none": lambda: tg.hvp(sq, (x,), None),
 "hvp_tangent_list": lambda: tg.hvp(sq, (x,), ([1.0, 2.0, 3.0],)),
 "vjp_cot_shape": lambda: tg.vjp(P.vector_out, x)[1](np.ones(4)),
 "vjp_cot_string": lambda: tg.vjp(sq, x)[1]("a"),
 "grad_nonscalar": lambda: tg.grad(P.vector_out)(x),
 "grad_int_input": lambda: tg.grad(sq)(np.array([1, 2, 3])),
 "grad_bool_input": lambda: tg.grad(sq)(np.array([True, False])),
 "grad_complex_input": lambda: tg.grad(sq)(x * 1j),
 "grad_object_input": lambda: tg.grad(sq)(np.array([1.0, 2.0], dtype=object)),
 "grad_int_scalar": lambda: tg.grad(lambda a: a * a)(3),
 "grad_str_input": lambda: tg.grad(sq)("abc"),
 "grad_none_input": lambda: tg.grad(sq)(None),
 "jvp_int_primal": lambda: tg.jvp(sq, (np.array([1, 2, 3]),), (v,)),
 "hvp_int_primal": lambda: tg.hvp(sq, (np.array([1, 2, 3]),), (v,)),
 "jacfwd_int": lambda: tg.jacfwd(sq)(np.array([1, 2, 3])),
 "jacrev_int": lambda: tg.jacrev(sq)(np.array([1, 2, 3])),
 "hessian_int": lambda: tg.hessian(sq)(np.array([1, 2, 3])),
 "hessian_complex": lambda: tg.hessian(sq)(x * 1j),
 "jacfwd_object": lambda: tg.jacfwd(sq)(np.array([1.0, 2.0], dtype=object)),
 "hvp_object": lambda: tg.hvp(sq, (np.array([1.0, 2.0], dtype=object),), (np.ones(2),)),
 "lambda_direct": lambda: tg.grad(lambda a: np.sum(a ** 3))(x),
 "lambda_hvp": lambda: tg.hvp(lambda a: np.sum(a ** 3), (x,), (v,)),
 "lambda_two_on_line": lambda: (tg.grad(lambda a: np.sum(a ** 2))(x), tg.grad(lambda a: np.sum(a ** 3))(x)),
 "builtin_np_sin": lambda: tg.grad(np.sin)(0.5),
 "builtin_np_sin_arr": lambda: tg.grad(np.sin)(x),
 "builtin_jvp_sin": lambda: tg.jvp(np.sin, (x,), (v,)),
 "builtin_hvp_sin": lambda: tg.hvp(np.sin, (0.5,), (1.0,)),
 "builtin_hessian_sum": lambda: tg.hessian(np.sum)(x),
 "builtin_math_sin": lambda: tg.grad(__import__("math").sin)(0.5),
 "builtin_abs": lambda: tg.grad(abs)(-0.5),
 "builtin_len": lambda: tg.grad(len)(x),
 "builtin_print": lambda: tg.grad(print)(x),
 "not_callable": lambda: tg.grad(3),
 "class_passed": lambda: tg.grad(P.Weird),
 "bad_policy": lambda: tg.grad(sq, policy="fast")(x),
 "bad_lowering": lambda: tg.grad(sq, lowering="llvm")(x),
 "bad_route": lambda: tg.hvp(sq, (x,), (v,), route="magic"),
 "has_aux_not_tuple": lambda: tg.grad(sq, has_aux=True)(x),
 "differentiable_bad_policy": lambda: tg.differentiable(policy="nope")(sq),
 "grad_of_grad_nonscalar": lambda: tg.grad(tg.grad(sq))(x),
 "check_grads_int": lambda: check_grads(sq, np.array([1, 2, 3])),
 "check_grads_wrt_bad": lambda: check_grads(P.two_args, x, x, wrt="q"),
 "check_grads_lambda": lambda: check_grads(lambda a: np.sum(np.sin(a)), x),
 "check_grads_builtin": lambda: check_grads(np.tanh, x),
 "memory_limit_bad": lambda: tg.grad(sq, memory_limit="lots")(x),
 "memory_limit_neg": lambda: tg.grad(sq, memory_limit=-5)(x),
}
if __name__ == "__main__":
    import sys, traceback
    names = sys.argv[1:] or list(CASES)
    for n in names:
        try:
            r = CASES[n]()
            print(f"{n:28} RETURNED {str(r)[:150]!r}")
        except Exception as e:
            tb = traceback.extract_tb(e.__traceback__)[-1]
            print(f"{n:28} {type(e).__name__:16} {str(e).splitlines()[0][:170]}  [{tb.filename.split('/')[-1]}:{tb.lineno}]")
