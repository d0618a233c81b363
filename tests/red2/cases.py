"""red2's cases: (function, arguments, argument differentiated, checks)."""
import numpy as np

from tests.red2 import programs, programs_more

VEC = ("jvp", "jacfwd")
SCAL = ("jvp", "jacfwd", "hvp", "hessian")
FLOAT = ("jvp", "hvp", "gog")


class _Both:
    def __getattr__(self, name):
        return getattr(programs_more if hasattr(programs_more, name) and
                       not hasattr(programs, name) else programs, name)


P = _Both()


def cases():
    r = np.random.default_rng(35)
    x = r.normal(size=3) * 0.7
    W, b = r.normal(size=(3, 3)) * 0.5, r.normal(size=3) * 0.1
    aff = P.Affine(r.normal(size=(2, 2)), r.normal(size=2))
    x2 = r.normal(size=2)
    vec = ["model_loop", "closure_returned_by_helper", "generator_method_list",
           "reduce_over_layers", "residual_nested_objects", "object_holding_lambdas",
           "recursion_method"]
    scal = ["model_loop_scalar", "method_star_args", "closure_over_model",
            "partial_of_method", "bound_method_helper_star", "generator_method",
            "lambda_in_dict", "call_calls_closure", "dataclass_method", "reduce_scalar",
            "static_class_methods", "lambda_to_helper_method", "partial_over_value",
            "spread_kwargs", "spread_list_to_call", "bound_call_to_helper",
            "bound_method_value", "method_kw_named_fn", "method_mutating_local",
            "generator_helper_of_layers", "star_args_method_kwargs",
            "closure_in_loop_over_layers", "type_dispatch", "residual_scalar",
            "late_binding_closure", "late_binding_loop", "partial_of_partial_kw",
            "method_returns_closure", "call_with_star_args", "generator_early_stop",
            "closure_captures_x_reassigned", "list_read_late", "getattr_method",
            "attribute_reassigned", "inherited_call", "super_call", "base_method_by_name", "recursive_closure",
            "yield_from_method", "property_plain_class"]
    out = {n: (getattr(P, n), (x,), 0, SCAL) for n in scal}
    out.update({n: (getattr(P, n), (x,), 0, VEC) for n in vec})
    block = P.DRes(P.DLayer(r.normal(size=(2, 2)) * 0.5, r.normal(size=2) * 0.1), 0.7)
    out.update({
        "nested_object_wrt": (P.nested_object_wrt, (block, x2), 0, ("jvp", "hvp")),
        **{n: (getattr(P, n), (block, x2), 0, ("jvp", "hvp")) for n in (
            "closure_over_wrt_object", "spread_wrt_objects", "reduce_wrt_object",
            "kwargs_spread_wrt", "bound_wrt_method_value")},
        "partial_of_wrt_method": (P.partial_of_wrt_method, (aff, x2), 0, ("jvp", "hvp")),
        "nested_object_wrt_x": (P.nested_object_wrt, (block, x2), 1, SCAL),
        "model_built_inside_x": (P.model_built_inside, (x, W, b), 0, SCAL),
        "model_built_inside_W": (P.model_built_inside, (x, W, b), 1, ("jvp", "hvp")),
        "model_built_inside_b": (P.model_built_inside, (x, W, b), 2, SCAL),
        "lambda_in_local_dict": (P.lambda_in_local_dict, (x, 0.8), 0, VEC),
        "lambda_in_local_dict_a": (P.lambda_in_local_dict, (x, 0.8), 1, ("jvp", "jacfwd")),
        "dataclass_wrt": (P.dataclass_wrt, (aff, x2), 0, ("jvp", "hvp")),
        "dataclass_wrt_x": (P.dataclass_wrt, (aff, x2), 1, SCAL),
        "float_attr_obj_wrt": (P.float_attr_obj_wrt, (P.Scaler(0.9, -0.4), x), 0, ("jvp", "hvp")),
        "float_attr_obj_built": (P.float_attr_obj_built, (0.9, x), 0, FLOAT),
        "scalar_float_method": (P.scalar_float_method, (0.6,), 0, FLOAT),
        "scalar_float_closure": (P.scalar_float_closure, (0.6,), 0, FLOAT),
        "scalar_float_layers": (P.scalar_float_layers, (0.6,), 0, FLOAT),
    })
    return out
