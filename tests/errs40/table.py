"""What each errs40 program (programs.py) gives through each entry (check.py): one
character per entry, in check.ENTRIES order (grad, value_and_grad, vjp, jvp, jacfwd,
jacrev, hessian, hvp, @differentiable, grad(lowering="plain"), check_grads), a space,
then `thunkgrad dump` in its three modes (reverse, --mode forward, --mode hvp).

    o  a value matching central differences     p  check_grads passed
    R  TransformError at the program's own line, with advice
    T  TypeError/ValueError naming programs.py  E  TypeError/ValueError in the API's terms
    C  check_grads' report (the function wrote into its argument)
    d  the CLI printed the code                 r  the CLI refused at the program's line
    N  a value the differences cannot check (a non-scalar or None output, see below)
    D  RecursionError saying how many frames the derivative needs
    I  an exception of another kind (check_grads: the plain function's RecursionError)

Each `E`, `N` and `I` is listed in NOT_IDEAL with what the user sees. The table is kept
exact: a change (a new refusal, a value now computed) updates it."""

SUPPORTED = "oooooooooop ddd"
REFUSED = "RRRRRRRRRRR rrr"

EXPECTED = {
    "try_except": REFUSED,
    "try_finally": SUPPORTED,
    "try_except_reraise": REFUSED,
    "with_errstate": SUPPORTED,
    "with_suppress": REFUSED,
    "with_open": SUPPORTED,
    "async_fn": REFUSED,
    "gen_fn": REFUSED,
    "yield_from_fn": REFUSED,
    "global_write": REFUSED,
    "global_array_write": REFUSED,
    "dict_state_write": REFUSED,
    "nonlocal_write": REFUSED,
    "setitem_arg": "ooooooooooC ddd",
    "iadd_arg": "ooooooooooC ddd",
    "imul_arg_slice": "ooooooooooC ddd",
    "fill_arg": "ooooooooooC ddd",
    "sort_arg": "RRRRRRRRRRC rrr",
    "out_arg": "RRRRRRRRRRC rrr",
    "del_local": SUPPORTED,
    "del_item": REFUSED,
    "walrus": SUPPORTED,
    "walrus_comp": REFUSED,
    "match_stmt": SUPPORTED,
    "fstring_arr": SUPPORTED,
    "fstring_fmt": SUPPORTED,
    "assert_arr": SUPPORTED,
    "assert_scalar": SUPPORTED,
    "getattr_class": "RRRRRRRRRRR ddd",
    "array_ufunc_class": REFUSED,
    "c_ext_no_rule": SUPPORTED,
    "c_ext_gamma": SUPPORTED,
    "np_random_normal": "oooooooooop ddr",
    "np_random_rng": SUPPORTED,
    "np_random_seeded": SUPPORTED,
    "vector_out": "TTNNNNTTTTp ddd",
    "returns_none": "TTTTTTTTTTT ddd",
    "returns_tuple": "TTENNNTTTTp ddd",
    "returns_string": "TTTTTTTTTTT ddd",
    "returns_int_const": "ooooTToooop ddd",
    "recursive": SUPPORTED,
    "deep_recursive": "DDDDDDDDDDI ddd",
    "kwonly": "EEEEEEEEEEE ddd",
    "two_args": "EEEEEEEEEEE ddd",
    "varargs": REFUSED,
    "uses_eval": REFUSED,
    "uses_exec": REFUSED,
    "uses_locals": REFUSED,
    "uses_getattr_str": SUPPORTED,
    "int_cast": SUPPORTED,
    "item_then_math": SUPPORTED,
    "complex_mix": "oooRRoRRoop drr",
    "object_array": SUPPORTED,
    "tolist_loop": SUPPORTED,
    "while_true_break": SUPPORTED,
    "for_else": SUPPORTED,
    "lambda_inside": SUPPORTED,
    "nested_def_default": SUPPORTED,
    "star_unpack": SUPPORTED,
    "chained_compare": SUPPORTED,
    "ternary_arr": SUPPORTED,
    "set_comp": REFUSED,
    "string_key_dict": SUPPORTED,
    "global_decl_read": SUPPORTED,
    "raise_in_fn": SUPPORTED,
    "stop_iteration_loop": REFUSED,
    "class_in_fn": REFUSED,
    "import_in_fn": REFUSED,
    "setattr_fn_attr": REFUSED,
    "attr_on_array": REFUSED,
    "array_resize": REFUSED,
    "vectorize_fn": "oooRRoRRoop ddd",
    "frompyfunc_fn": REFUSED,
    "apply_along": REFUSED,
    "sorted_builtin": SUPPORTED,
    "argmax_index": SUPPORTED,
    "inplace_local_copy": SUPPORTED,
    "fsum_of_array": SUPPORTED,
    "prod_of_array": SUPPORTED,
    "constant_vector": "TTNNNNTTTTp ddd",
    "with_errstate_nested": SUPPORTED,
    "try_else": REFUSED,
    "nonlocal_counter": REFUSED,
    "global_in_loop": REFUSED,
    "append_to_global_list": REFUSED,
    "mutate_default": REFUSED,
    "isub_slice_arg": "ooooooooooC ddd",
    "augassign_attr": "RRRRRRRRRRC rrr",
    "fstring_in_raise": SUPPORTED,
    "match_class_pattern": SUPPORTED,
    "lambda_default_capture": SUPPORTED,
    "walrus_in_while": SUPPORTED,
    "del_attr": REFUSED,
    "assert_isinstance": SUPPORTED,
    "f_string_of_shape": REFUSED,
    "np_random_choice": SUPPORTED,
    "float_of_array": SUPPORTED,
    "int_index_from_value": SUPPORTED,
    "complex_roundtrip": SUPPORTED,
    "bool_mask_mult": SUPPORTED,
    "astype_int": SUPPORTED,
    "nan_to_num_fn": SUPPORTED,
    "prod_of_rows": SUPPORTED,
}

NOT_IDEAL = {
    "deep_recursive": "5000-deep recursion: every entry raises RecursionError with a clear "
                      "message ('the gradient needs more than 8000 Python frames', also "
                      "for jvp since errs40); check_grads the plain call's own",
    "vector_out": "vjp/jvp/jacfwd/jacrev of a vector output are values (N: the harness's "
                  "scalar differences); hessian/hvp: TypeError 'must return a scalar' at the "
                  "return line (since errs40b)",
    "constant_vector": "as vector_out",
    "returns_tuple": "as vector_out; vjp's pullback(1.0): TypeError 'needs a tuple of 2 "
                     "cotangents'",
    "kwonly": "called without its keyword-only argument: TypeError 'kwonly(): missing a "
              "required argument' (API misuse, in the user's terms)",
    "two_args": "called with one argument: TypeError 'two_args() missing ...'",
    "returns_int_const": "jacfwd/jacrev: TypeError 'needs float outputs: the output is "
                         "int, returned by ...' at the return line (grad gives zeros)",
}
