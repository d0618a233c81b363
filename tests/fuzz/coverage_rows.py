"""README's "Supported subset" rows and issue 13's patterns, each with the productions (names
a generator records with Gen.use, or coverage.constructs reads from the source) that
exercise it. tests/test_fuzz_coverage.py fails when a README row marked "supported" is not
in SUPPORTED, when one marked "works" is in neither WORKS nor UNFUZZED, or when a WORKS row
still says it is "not yet in the fuzzer's grammar".

SUPPORTED keys are the rows' construct cells (backticks and "(see ...)" dropped) verbatim;
WORKS and UNFUZZED keys are their beginnings (these rows are long and edited often).
"""

SUPPORTED = {
    "assignments, + - * / ** @, unary -, comparisons":
        ("assign", "add", "sub", "mul", "div", "pow", "matmul_operator", "unary_minus",
         "comparison"),
    "math functions, abs, float, NumPy functions with rules":
        ("math_function", "abs_builtin", "float_call", "numpy_call"),
    "if/elif/else, a if c else b, and/or/not and chained comparisons in tests":
        ("if_else", "elif", "conditional_expression", "bool_ops", "chained_comparison"),
    "for over range, arrays (rows), lists, tuples, enumerate, zip, dict.items()":
        ("for_range", "for_array", "for_rows", "for_list", "for_tuple", "for_enumerate",
         "for_zip", "for_dict_items", "zip_of_zip"),
    "while (any condition), break, continue, return anywhere, nested loops":
        ("while", "while_any_condition", "break", "continue", "return_in_branch",
         "nested_loops"),
    "augmented assignment on names and on elements (x[i] += v)":
        ("augmented_name", "augmented_element"),
    "list comprehensions, generator expressions, sum(... for ...)":
        ("list_comprehension", "generator_expression"),
    "tuples (pack, unpack, nested targets, index), lists (literal, append, index, iterate, "
    "len, sum)":
        ("tuple_pack", "tuple_unpack", "nested_unpack", "tuple_index", "list_literal",
         "list_append", "list_index", "for_list", "list_len_sum"),
    "dicts (literals, dict(a=...), constant and variable keys, nested, .items())":
        ("dict_literal", "dict_call", "dict_variable_key", "dict_nested", "for_dict_items"),
    "calls to user functions (positional, keyword, default arguments, positional-only "
    "parameters def f(x, /)), recursion":
        ("helper_call", "keyword_args", "default_args", "recursion", "positional_only",
         "positional_only_f", "runtime_parameter_names"),
    "nested def (inlined; closures over outer values, including differentiated ones)":
        ("closure",),
    "attribute reads on objects and dataclasses, methods of user objects":
        ("dataclass", "object_method", "attribute_read", "property", "cached_property",
         "ndarray_named_member",
         "receiver_unknown", "super_call"),
    "ndarray methods (x.sum(), x.T, x.reshape(...), x.dot(y), ...)":
        ("ndarray_method", "transpose", "reshape", "dispatched_axis_method"),
    "element writes into local arrays and lists (out[i] = v, out[mask] = v)":
        ("element_write", "slice_write", "mask_write", "list_element_write"),
}

PATTERNS = {     # issue 13's list of what the fuzzer never produced
    "arrays of rank 0-3 with broadcasting layouts": ("rank0", "rank1", "rank2", "rank3",
                                                     "broadcast"),
    "matmul/einsum": ("matmul", "einsum"),
    "reshape/transpose/slicing": ("reshape", "transpose", "slice"),
    "element and slice writes": ("element_write", "slice_write"),
    "views followed by writes": ("view_then_write",),
    "tuples/unpacking/swaps": ("tuple_swap", "tuple_unpack", "nested_unpack"),
    "helpers returning tuples inside loops": ("tuple_helper_in_loop",),
    "lists of arrays into np.sum/np.stack/np.concatenate": ("list_into_numpy",),
    "dicts and dataclasses": ("dict_literal", "dataclass"),
    "ties in max/abs/where/clip": ("tie", "tie_max"),
    "log/sqrt/power": ("log_sqrt_power",),
    "float32": ("float32",),
    "zero-trip and argument-bounded loops": ("zero_trip_loop", "argument_bounded_loop"),
    "negative steps": ("negative_step",),
    "closures, recursion": ("closure", "recursion"),
    "keyword and default arguments": ("keyword_args", "default_args"),
    "globals rebound between calls": ("global_rebound",),
    "user names from the generated code's vocabulary": ("vocabulary_names",),
    "list repetition ([a] * n, xs * 2)": ("list_repetition",),
    "and/or as values (`s or x`, `[] or [v, w]`)": ("bool_value",),
    # session 26's features (tests/fuzz/gen_complex.py, gen_closures.py, gen_objects.py,
    # gen_idioms.py)
    "complex values between real arguments and a real loss (np.fft, complex arithmetic, "
    "abs/real/imag/conj/angle)": ("complex_fft", "complex_arithmetic", "complex_abs",
                                  "complex_parts", "complex_angle", "numpy:fft",
                                  "numpy:complex_parts"),
    "user objects with members named like ndarray ones (obj.T, obj.size, obj.mean())":
        ("ndarray_named_member", "receiver_unknown", "object_from_differentiated"),
    "double buffering `u, un = un, u` in loops": ("double_buffer", "double_buffer_writes"),
    "enumerate(xs, start), [*xs, y] displays, np.piecewise, ufunc.outer, np.float64(x)":
        ("enumerate_start", "starred_display", "numpy:piecewise", "numpy:ufunc_outer",
         "float64_scalar"),
    # session 27's bug classes the classes did not draw (tests/fuzz/gen_idioms.py,
    # gen_complex.py; session 29)
    "a list or tuple times a NumPy array (`[v, w] * a`: NumPy's product, not repetition)":
        ("list_times_array",),
    "complex values into np.var/np.std/np.linalg.norm, then np.dot/einsum/concatenate "
    "with complex weights": ("complex_statistic", "complex_weighted_statistic"),
    "complex(z) of a complex value, then abs/cmath.phase": ("complex_builtin",),
    "nested lists of complex entries given to np.linalg functions":
        ("complex_nested_linalg",),
}



WORKS = {       # rows marked "works", by their beginning
    "a and b / a or b as values": ("bool_value",),
    "lambdas called by name, lambdas and functions given to map/filter":
        ("lambda_value", "function_map", "functools_partial", "function_argument",
         "function_dict", "function_list", "lambdas_one_line", "lambdas_side_by_side",
         "lambdas_one_line_local", "local_function_in_test"),
    "lambdas and nested defs kept as values":
        ("closure_returned", "closure_reads_local", "function_dict", "function_list",
         "function_argument", "closure_default_bound", "closure_late_binding",
         "nested_def_returns_closure"),
    "dataclasses and NamedTuples built from differentiated values":
        ("object_from_differentiated", "class_init", "dataclass_post_init", "property"),
    "f(*xs), f(**params) where a derivative flows": ("star_call", "starred_display"),
    "double buffering: arrays or lists exchanged by a swap of plain names":
        ("double_buffer", "double_buffer_writes"),
    # session 29 (tests/fuzz/gen_breadth.py, steps of the calls class)
    "comprehensions with several for and if clauses": ("comprehension_clauses",
                                                       "dict_comprehension"),
    "builtins max/min": ("builtin_max_min", "sorted_tolist", "divmod_quotient",
                         "divmod_remainder"),
    "annotated assignments, del name, loop else": ("annotated_assign", "del_name", "loop_else",
                                                   "with_block", "walrus"),
    "try/except/else/finally": ("try_except", "finally_return", "finally_return_loop",
                                "finally_return_helper"),
    "global declarations of names only read": ("global_declared_read",),
    "generator functions (yield, yield from)": ("generator_function",),
    "writes into an argument of the function grad is called on": ("argument_write",),
    "dict.values()/.items()/.get()/.copy()": ("dict_methods", "dict_values"),
    "list pop/insert/reverse/clear/remove": ("list_mutators", "dict_mutators"),
    "*args/**kwargs parameters of the differentiated function": ("star_parameters",),
    "functools.reduce(f, xs)": ("functools_reduce",),
    # session 30 (py30a)
    "a helper's *args given values being differentiated": ("helper_varargs",),
    "starred assignment targets": ("starred_target",),
    "attribute writes on an object the function makes": ("attribute_write",),
    "d[k].append(v) into a list a dict holds": ("nested_append",),
    # session 30 (py30b; tests/fuzz/gen_breadth30.py, steps of the calls class)
    "added 2026-12-02, session 30 (py30b)":
        ("zip_read_whole", "reversed_read_whole", "dict_of_pairs", "copy_module",
         "list_sort_or_shuffle", "keywords_at_run_time", "keyword_only_nested",
         "yield_from_generator"),

    # session 30 (tests/fuzz/gen_operators.py, steps of the idioms class)
    "operators on instances of user classes": ("user_operators", "operator_in_loop"),
    "f(*xs) where a derivative flows and the source does not fix the length":
        ("star_call_unfixed", "spread_append", "spread_rows", "spread_twice",
         "spread_method", "spread_parameter"),
    "dict merges added 2026-12-01, session 29 (red29)":
        ("dict_merge", "dict_merge_spread", "dict_merge_union", "dict_merge_inplace"),
    "dict copies added 2026-12-02, session 30 (fuzz30)": ("dict_merge_call",),
    # session 33 (tests/fuzz/gen_checkpointed.py, oracle_forward.py)
    "checkpointed loops": ("checkpointed_loop", "checkpointed_chunk", "checkpointed_range",
                           "checkpointed_rows", "checkpointed_array_elements",
                           "checkpointed_items", "checkpointed_nested",
                           "checkpointed_outer_loop", "checkpointed_helper_plain",
                           "checkpointed_helper_tuple", "checkpointed_helper_looped",
                           "checkpointed_element_writes", "checkpointed_dict_carry",
                           "checkpointed_list_carry", "checkpointed_draw_numpy",
                           "checkpointed_object_read", "checkpointed_object_changed",
                           "checkpointed_draw_random", "checkpointed_draw_generator",
                           "checkpointed_draw_helper", "checkpointed_draw_helper_given",
                           "checkpointed_base:loop_carried", "checkpointed_base:calls"),
    "forward mode": ("forward_base:calls", "forward_base:tensors", "forward_base:grammar",
                     "forward_base:loop_carried", "forward_base:scipy_calls",
                     # hvp on each route (tests/fuzz/oracle_routes.py, session 37)
                     "hvp_routes_base:calls", "hvp_routes_base:tensors",
                     "hvp_routes_base:closures", "hvp_routes_base:user_objects"),
}

UNFUZZED = {    # rows marked "works" that no generator draws: reason
}
