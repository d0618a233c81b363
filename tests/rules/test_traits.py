"""The traits the compiler's passes read (runtime/traits.py) are declared for every rule
that has them, and every declaration is true.

A rule added without its trait is not wrong, only slower (`np.sinc` unknown to the
shape analysis kept an `unbroadcast` it did not need); a trait declared where it does
not hold is a wrong gradient. So both directions are checked here.
"""
import importlib.util
import inspect
import math
import warnings

import gast
import numpy as np
import pytest

import runtime
from runtime import registry
from runtime.traits import HELPER, PRIMITIVE, traits_of
from transform import adjoint_source


def _all_rules():
    """Every registered rule, the SciPy families' included when SciPy is installed."""
    for module in ("scipy.special", "scipy.stats", "scipy.linalg", "scipy.signal",
                   "scipy.integrate"):
        if importlib.util.find_spec("scipy") is not None:
            importlib.import_module(module)
    runtime.lookup(object())            # a lookup that misses runs the pending loaders
    return list(registry._RULES.values())


RULES = _all_rules()


def _names(rules):
    return sorted(rule.name for rule in rules)


def _elementwise_rules(params):
    return [r for r in RULES if r.kind == "template" and r.fn in PRIMITIVE["elementwise"]
            and len(r.params) == params]


# ---- every rule that has a trait declares it ---------------------------------------
def test_every_ufunc_rule_is_elementwise():
    """A ufunc (not a generalized one like matmul) is elementwise by definition."""
    missing = [r for r in RULES if isinstance(r.fn, np.ufunc) and r.fn.nout == 1
               and r.fn.signature is None and "elementwise" not in r.traits]
    assert not missing, f"declare elementwise=True for {_names(missing)}"


def test_every_rule_of_the_elementwise_family_is_elementwise():
    """np.sinc, np.fabs and np.deg2rad are not ufuncs, or were once left out."""
    missing = [r for r in RULES if getattr(r, "family", None) == "elementwise"
               and "elementwise" not in r.traits]
    assert not missing, f"declare elementwise=True for {_names(missing)}"


def test_every_float_rule_of_the_math_module_says_so():
    """A `math` rule of numbers declares scalar_args (the shape analysis then knows
    its arguments and output are scalars); one of sequences, scalar_result at most; one
    with a tuple output (frexp, modf), numeric only."""
    missing = [r for r in RULES if getattr(r, "family", None) == "math_module"
               and r.kind == "template" and not {"scalar_args", "scalar_result"} & set(r.traits)
               and r.fn not in (math.prod, getattr(math, "sumprod", None))
               and not (r.fn in (math.frexp, math.modf) and "numeric" in r.traits)]
    assert not missing, f"declare scalar_args=True for {_names(missing)}"


def _numpy_name(fn):
    name = getattr(fn, "__name__", None)
    return name if name and getattr(np, name, None) is fn else None


ONE_ARGUMENT_NUMPY = sorted({_numpy_name(r.fn) for r in _elementwise_rules(1)} - {None})


def _module(tmp_path, name, text):
    path = tmp_path / f"{name}.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", ONE_ARGUMENT_NUMPY)
def test_one_argument_elementwise_rules_are_known_to_shapes(tmp_path, name):
    """`np.<name>(x) + x` adds two arrays of x's shape: no unbroadcast in the adjoint."""
    module = _module(tmp_path, f"shapes_{name}",
                     f"import numpy as np\n\ndef f(x):\n    return np.sum(np.{name}(x) + x)\n")
    assert "unbroadcast" not in adjoint_source(module.f)


@pytest.mark.parametrize("name", ONE_ARGUMENT_NUMPY)
def test_one_argument_elementwise_rules_are_known_to_spreads(name):
    """`unreduce(g, x, None, False) * np.<name>(x)` -> `g * np.<name>(x)`."""
    from transform.optimize.spreads import drop_spreads
    from transform.ir.vocabulary import Vocabulary
    names = Vocabulary(set())
    x = lambda: gast.Name(id="x", ctx=gast.Load(), annotation=None, type_comment=None)  # noqa
    none, false = gast.Constant(value=None, kind=None), gast.Constant(value=False, kind=None)
    spread = names.call("unreduce", gast.Name(id="g", ctx=gast.Load(), annotation=None,
                                              type_comment=None), x(), none, false)
    call = gast.Call(func=gast.Attribute(value=names.ref("np"), attr=name, ctx=gast.Load()),
                     args=[x()], keywords=[])
    statement = gast.Assign(targets=[gast.Name(id="d", ctx=gast.Store(), annotation=None,
                                               type_comment=None)],
                            value=gast.BinOp(left=spread, op=gast.Mult(), right=call),
                            type_comment=None)
    drop_spreads([(statement, True)], names)       # (assignment, in the pullback?) pairs
    assert isinstance(statement.value.left, gast.Name) and statement.value.left.id == "g"


# ---- every declaration is true -------------------------------------------------------
def _call(fn, candidates):
    """fn on the first candidate argument list it accepts (domains differ)."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        for args in candidates:
            try:
                return fn(*args)
            except (TypeError, ValueError):
                continue
    raise AssertionError(f"{fn!r} accepts none of the sample arguments")


def _arrays(shape, count):
    floats, ints = np.full(shape, 0.5), np.full(shape, 3)
    return [[floats] * count, [ints] * count]


@pytest.mark.parametrize("rule", _elementwise_rules(1), ids=lambda r: r.name)
def test_one_argument_elementwise_keeps_the_shape(rule):
    assert np.shape(_call(rule.fn, _arrays((2, 3), 1))) == (2, 3)


@pytest.mark.parametrize("rule", _elementwise_rules(2), ids=lambda r: r.name)
def test_two_argument_elementwise_broadcasts(rule):
    wide = [[a, b] for (a, _), (b, _) in zip(_arrays((2, 3), 2), _arrays((3,), 2))]
    order = [[np.full((2, 3), 2.0), 1], [np.full((2, 3), 0.5), 2]]     # a count second
    assert np.shape(_call(rule.fn, wide + order)) == (2, 3)


SCALAR_ARGS = [r for r in RULES if r.fn in PRIMITIVE["scalar_args"]]


@pytest.mark.parametrize("rule", SCALAR_ARGS, ids=lambda r: r.name)
def test_scalar_args_rules_return_floats(rule):
    count = sum(p.default is inspect.Parameter.empty for p in rule.signature.parameters.values())
    candidates = [[v] * count for v in (0.5, 1.5)] + [[0.5] + [2] * (count - 1)]
    assert type(_call(rule.fn, candidates)) is float


FULL_REDUCTIONS = [r for r in RULES if r.fn in PRIMITIVE["full_reduction"]]


@pytest.mark.parametrize("rule", FULL_REDUCTIONS, ids=lambda r: r.name)
def test_full_reductions_reduce_to_a_scalar(rule):
    assert np.ndim(_call(rule.fn, [[np.arange(1.0, 7.0).reshape(2, 3)]])) == 0


def test_helper_traits_name_helpers_generated_code_can_call():
    namespace = runtime.generated_namespace()
    for trait, table in HELPER.items():
        for name, value in table.items():
            fn = namespace.get(name) or getattr(__builtins__, name, None) or \
                (__builtins__.get(name) if isinstance(__builtins__, dict) else None)
            assert callable(fn), f"{trait}: {name} is not reachable from generated code"
            if trait == "shape_only":
                params = list(inspect.signature(fn).parameters)
                assert all(k < len(params) for k in value), f"{name}: {value}"


def test_traits_of_lists_what_was_declared():
    assert traits_of(np.sin) == {"elementwise": True, "numeric": True, "complex_ok": True}
    assert traits_of(math.sin)["scalar_args"] and traits_of(math.sin)["scalar_result"]
    assert traits_of([]) == {}                                          # unhashable


def test_an_unknown_trait_is_refused():
    with pytest.raises(TypeError, match="unknown trait"):
        registry.defvjp(lambda x: x, "x", "g", elemntwise=True)
