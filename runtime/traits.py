"""Facts the compiler's passes read about callables, declared once beside each rule.

A primitive's facts ride on its registration (`defvjp(np.sin, "x", "g * np.cos(x)",
elementwise=True)`, `nondiff(np.sign, why=ZERO, elementwise=True)`) or, for a
callable without a rule, on `declare(fn, view=True)`; an ndarray method's on its
`defmethod(name, fn, view=True)` or `declare_method(name, in_place=True)`. A helper
generated code calls by name declares its facts where it is defined
(`@template_helper(shape_only=(1,))`, `@helper(in_place=True)`). The compiler reads the live tables below, keyed by the
callable (primitives), the name generated code calls it by (helpers) or the method's
name (methods).
"""

# trait -> what it says about a primitive, and which pass reads it
PRIMITIVE_TRAITS = {
    "elementwise": "the output has the broadcast shape of its arguments (shapes, spreads)",
    "scalar_result": "the output is a Python float, whatever the arguments (shapes)",
    "scalar_args": "every argument is a number, and the output a float: math.sin (shapes); "
                   "implies scalar_result and numeric",
    "full_reduction": "the output is a scalar when axis=None and keepdims=False (shapes)",
    "numeric": "the arguments' cotangents are arrays or numbers, never containers "
               "(reverse); implied by elementwise and scalar_args",
    "view": "the output may share memory with the first argument (views, aliasing)",
    "parts_view": "the output is a list of arrays that may share memory with the "
                  "arguments: np.split (aliasing)",
    "fresh": "the output is a new array sharing no memory with the arguments (aliasing)",
    "writes": "writes into its first argument: np.copyto (aliasing)",
    "int_result": "the output may be an int, so `*` by it may repeat a list; for `math` "
                  "functions, which otherwise return floats (sequence_kinds)",
    "complex_ok": "the rule is right for complex values under docs/complex.md's convention "
                  "(checked against complex finite differences, tests/rules/"
                  "test_complex_allow.py); a complex value reaching any other rule is "
                  "refused (runtime/complex_safety.py, transform/analysis/complex_seeds.py)",
    "complex_jvp": "the rule's JVP terms are right for complex values and tangents (the "
                   "tangent of a complex value is complex; docs/forward.md), checked on "
                   "complex examples by tests/rules/test_jvp_rules.py; Rule.frule refuses a "
                   "complex value reaching any other rule",
}
# trait -> what it says about a helper, and which pass reads it
HELPER_TRAITS = {
    "shape_only": "positions of the arguments read only for their shape and dtype "
                  "(templates)",
    "pure": "reads its arguments only and returns a new value: may be moved (fuse)",
    "in_place": "may write into its first argument (batch_products)",
    "count_arg": "position of the argument that is a backward loop's trip count "
                 "(tape_iteration)",
}

# trait -> what it says about an ndarray method `x.name(...)`, and which pass reads it
METHOD_TRAITS = {
    "view": "the result may share memory with the receiver: x.reshape (aliasing)",
    "in_place": "changes the receiver in place, which the backward sweep cannot undo: "
                "x.sort(); the value is True or what to write instead, `{0}` standing for "
                "the receiver's name (aliasing, kept_values)",
}

# trait -> {callable: value}; only true facts are stored, so `fn in PRIMITIVE["view"]`
PRIMITIVE = {trait: {} for trait in PRIMITIVE_TRAITS}
# trait -> {name: value}
HELPER = {trait: {} for trait in HELPER_TRAITS}
# trait -> {method name: value}
METHOD = {trait: {} for trait in METHOD_TRAITS}

_IMPLIES = {"elementwise": ("numeric",), "scalar_args": ("scalar_result", "numeric")}


def declare(fn, **traits):
    """Record facts about the primitive `fn` (keywords from PRIMITIVE_TRAITS)."""
    _check(traits, PRIMITIVE_TRAITS, fn)
    for trait, value in traits.items():
        _store(PRIMITIVE[trait], fn, value)
        for implied in _IMPLIES.get(trait, ()) if value else ():
            PRIMITIVE[implied][fn] = True


def declare_helper(fn, **traits):
    """Record facts about a helper generated code calls as `fn.__name__`."""
    _check(traits, HELPER_TRAITS, fn)
    for trait, value in traits.items():
        _store(HELPER[trait], fn.__name__, value)


def declare_method(name, **traits):
    """Record facts about the ndarray method `name` (keywords from METHOD_TRAITS)."""
    _check(traits, METHOD_TRAITS, name)
    for trait, value in traits.items():
        _store(METHOD[trait], name, value)


def _store(table, key, value):
    if value is False or value is None:
        table.pop(key, None)
    else:
        table[key] = value


def _check(traits, known, fn):
    unknown = set(traits) - set(known)
    if unknown:
        raise TypeError(f"unknown trait(s) {sorted(unknown)} for {fn!r}: "
                        f"known are {sorted(known)}")


def traits_of(fn):
    """{trait: value} of everything declared about the primitive `fn`."""
    out = {}
    for trait, table in PRIMITIVE.items():
        try:
            if fn in table:
                out[trait] = table[fn]
        except TypeError:                   # unhashable: nothing declared
            return {}
    return out
