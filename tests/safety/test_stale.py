"""Stale programs: compiled code never runs what the program no longer is.

Globals are read when the code runs; what the compiler resolved (callees, modules,
rules) is guarded and recompiled when it changes; source edited after import is
refused; functools.wraps wrappers are differentiated as themselves."""
import importlib
import linecache
import os
import sys
import traceback

import numpy as np
import pytest

from runtime import registry
from tests.fd import assert_close, numerical_grad
from tests.gradcheck import POLICIES, check_grad
from tests.safety import stale_funcs as sf
from runtime import defvjp, unthunk
from transform import TransformError, api, differentiable, grad, rrule, value_and_grad


def fd(f, *args, k=0):
    return numerical_grad(f, list(args), k)


def inside_generated(exc):
    return [fr.filename for fr in traceback.extract_tb(exc.__traceback__)
            if "<thunkgrad" in fr.filename]


@pytest.fixture
def restore_registry():
    rules, methods = dict(registry._RULES), dict(registry._METHODS)
    yield
    registry._RULES.clear()
    registry._RULES.update(rules)
    registry._METHODS.clear()
    registry._METHODS.update(methods)
    registry._registered()


# ---- globals rebound between calls -----------------------------------------------
@pytest.mark.parametrize("policy", POLICIES)
def test_scalar_global_rebound(monkeypatch, policy):
    g = value_and_grad(sf.scaled_square, policy=policy)
    assert_close(g(1.3)[1], 2 * 2.0 * 1.3)
    monkeypatch.setattr(sf, "lam", 5.0)
    value, gradient = g(1.3)
    assert_close(value, sf.scaled_square(1.3))
    assert_close(gradient, 2 * 5.0 * 1.3)


@pytest.mark.parametrize("policy", POLICIES)
def test_array_global_rebound(monkeypatch, policy):
    x = np.array([0.1, 0.2, 0.3])
    g = grad(sf.weighted, policy=policy)
    assert_close(g(x), fd(sf.weighted, x))
    monkeypatch.setattr(sf, "W", np.array([-1.0, 4.0, 0.5]))
    assert_close(g(x), fd(sf.weighted, x))
    monkeypatch.setattr(sf, "W", np.array(7.0))           # another shape
    assert_close(g(x), fd(sf.weighted, x))


@pytest.mark.parametrize("policy", POLICIES)
def test_helper_function_rebound(monkeypatch, policy):
    g = grad(sf.calls_helper, policy=policy)
    assert_close(g(0.7), 2 * 0.7)
    monkeypatch.setattr(sf, "helper", sf.sine)
    assert_close(g(0.7), np.cos(0.7))
    monkeypatch.setattr(sf, "helper", sf.cube)
    assert_close(g(0.7), 3 * 0.7 ** 2)


def _module(monkeypatch, tmp_path, name, body):
    (tmp_path / f"{name}.py").write_text("import numpy as np\n\n\n" + body)
    monkeypatch.syspath_prepend(str(tmp_path))
    return importlib.import_module(name)


def test_module_rebound(monkeypatch, tmp_path):
    square = _module(monkeypatch, tmp_path, "stale_mod_square", "def h(x):\n    return x * x\n")
    sine = _module(monkeypatch, tmp_path, "stale_mod_sine", "def h(x):\n    return np.sin(x)\n")
    monkeypatch.setattr(sf, "mod", square)
    g = grad(sf.through_module)
    assert_close(g(0.4), 2 * 2 * 0.4)
    monkeypatch.setattr(sf, "mod", sine)
    assert_close(g(0.4), 2 * np.cos(0.4))
    monkeypatch.setattr(sine, "h", sf.cube)                # an attribute of the module
    assert_close(g(0.4), 2 * 3 * 0.4 ** 2)


def test_closure_variable_rebound():
    scaled, set_k = sf.make_closure(2.0)
    g = grad(scaled)
    assert_close(g(1.5), 2 * 2.0 * 1.5)
    set_k(-3.0)
    assert_close(g(1.5), 2 * -3.0 * 1.5)


def test_unchanged_globals_reuse_the_compiled_rule(monkeypatch):
    first = api.compiled(sf.calls_helper, ("x",), "loop")
    assert api.compiled(sf.calls_helper, ("x",), "loop") is first
    monkeypatch.setattr(sf, "helper", sf.sine)
    second = api.compiled(sf.calls_helper, ("x",), "loop")
    assert second is not first and not first.guards.hold() and second.guards.hold()


def test_the_users_module_is_not_written():
    names = set(vars(sf))
    grad(sf.calls_helper)(0.5)
    grad(sf.call_global)(0.5)
    assert set(vars(sf)) == names


def test_linecache_holds_exactly_the_compiled_text():
    compiled = api.compiled(sf.calls_helper, ("x",), "loop")
    assert linecache.getlines(compiled.filename) == compiled.text.splitlines(True)
    code = compiled.rrule.__code__
    line = linecache.getline(compiled.filename, code.co_firstlineno)
    assert line.startswith(" def calls_helper_rrule(")


def test_the_text_that_runs_is_the_shown_source_line_for_line():
    """The factory header takes the first comment line's place; the rest is indented
    by one space, so a traceback's line number is the shown source's line number."""
    compiled = api.compiled(sf.calls_helper, ("x",), "loop")
    shown, ran = compiled.source.splitlines(), compiled.text.splitlines()
    assert ran[0].startswith("def thunkgrad_factory(") and ran[0].endswith(shown[0])
    assert [line[1:] if line.strip() else line for line in ran[1:len(shown)]] == shown[1:]


# ---- source edited on disk after import ------------------------------------------
def _edit(path, old, new):
    text = path.read_text()
    path.write_text(text.replace(old, new))
    stat = os.stat(path)
    os.utime(path, (stat.st_atime, stat.st_mtime + 10))  # linecache and import notice


@pytest.mark.parametrize("old, new", [("x * x", "x + x"),            # same size, same lines
                                      ("def f", "\n\n\ndef f")])     # lines moved
def test_source_edited_after_import_is_refused(monkeypatch, tmp_path, old, new):
    name = f"stale_edit_{abs(hash((old, new)))}"
    module = _module(monkeypatch, tmp_path, name, "def f(x):\n    return x * x\n")
    _edit(tmp_path / f"{name}.py", old, new)
    with pytest.raises(TransformError, match="reload") as info:
        grad(module.f)(1.5)
    assert "internal compiler error" not in str(info.value)
    module = importlib.reload(module)
    assert_close(grad(module.f)(1.5), fd(module.f, 1.5))


def test_edited_helper_is_refused(monkeypatch, tmp_path):
    module = _module(monkeypatch, tmp_path, "stale_edit_helper",
                     "def h(x):\n    return x * x\n\n\ndef f(x):\n    return h(x) + x\n")
    _edit(tmp_path / "stale_edit_helper.py", "return x * x", "return x - x")
    with pytest.raises(TransformError, match="reload"):
        grad(module.f)(1.5)


# ---- functools.wraps wrappers ----------------------------------------------------
@pytest.mark.parametrize("policy", POLICIES)
def test_wraps_wrapper_at_top_level(policy):
    value, gradient = value_and_grad(sf.wrapped_square, policy=policy)(1.3)
    assert_close(value, sf.wrapped_square(1.3))
    assert_close(gradient, 2.0 * 2 * 1.3)


@pytest.mark.parametrize("policy", POLICIES)
def test_wraps_wrapper_as_helper(policy):
    check_grad(sf.calls_wrapped, [0.8], policy=policy)
    assert_close(grad(sf.calls_wrapped, policy=policy)(0.8), 2.0 * np.cos(0.8) + 1.0)


def test_wraps_wrapper_with_star_args_is_refused_not_skipped():
    with pytest.raises(TransformError, match=r"\*args"):
        grad(sf.star_wrapped)(1.3)


def test_differentiable_still_unwraps():
    marked = differentiable(sf.helper, policy="eager")
    assert api._unwrap(marked) == (sf.helper, "eager")
    assert_close(grad(marked)(1.5), 3.0)


# ---- rules registered after compiling ---------------------------------------------
def test_defvjp_reregistered_changes_the_gradient(restore_registry):
    defvjp(sf.cube, "x", "g * 3 * x ** 2")
    g = grad(sf.calls_cube)
    assert_close(g(2.0), 2 * 12.0)
    defvjp(sf.cube, "x", "g * 5 * x ** 2")                 # another rule: a new gradient
    assert_close(g(2.0), 2 * 20.0)


def test_rule_registered_after_compiling_is_used(restore_registry):
    g = grad(sf.calls_cube)
    top = grad(sf.cube)
    assert_close(g(2.0), 2 * 12.0)
    assert_close(top(2.0), 12.0)

    @rrule(sf.cube)
    def cube_rule(x):
        return x ** 3, lambda d: (7.0 * d,)
    assert_close(g(2.0), 2 * 7.0)
    assert_close(top(2.0), 7.0)


@pytest.mark.parametrize("policy", POLICIES)
def test_rrule_on_call_used_through_an_instance(restore_registry, policy):
    @rrule(sf.Lin.__call__)
    def lin_rule(layer, x):
        return layer.w * x, lambda d: (None, 100.0 * unthunk(d))   # marked: 100, not w
    x = 1.5
    assert_close(grad(sf.call_param, policy=policy)(x, sf.Lin(3.0)), 100.0 * x + 3.0 * x)
    assert_close(grad(sf.call_global, policy=policy)(x), 100.0 * x + 3.0 * x)


def test_call_through_an_instance_without_a_rule():
    check_grad(sf.call_param, [1.5, sf.Lin(3.0)], wrt=[0])
    check_grad(sf.call_global, [1.5])


# ---- errors before generated code runs ---------------------------------------------
def _line_of(fn, needle):
    import inspect
    lines, first = inspect.getsourcelines(fn)
    return first + next(k for k, ln in enumerate(lines) if needle in ln)


def test_callee_error_raised_before_generated_code_runs():
    with pytest.raises(TransformError):            # compiling alone runs nothing
        api.adjoint_source(sf.calls_refused)
    with pytest.raises(TransformError) as info:
        grad(sf.calls_refused)(1.5)
    assert not inside_generated(info.value)
    assert info.value.line == _line_of(sf.refused_helper, "lam = 2.0")


def test_method_error_not_raised_from_generated_frames():
    with pytest.raises(TransformError) as info:
        grad(sf.calls_refused_method)(1.5, sf.Refused())
    assert not inside_generated(info.value)
    assert info.value.line == _line_of(sf.Refused.apply, "lam = 1.0")


def test_recursive_callee_still_compiles():
    check_grad(lambda x: sf.recursive_power(x, 4), [1.2])
    assert_close(grad(sf.recursive_power)(1.2, 4), 4 * 1.2 ** 3)


def _positive_square(x):
    assert x > 0, "x must be positive"
    return x * x


def test_function_with_assert_in_a_test_module():
    # pytest rewrote this module's asserts on import: the source check does the same
    assert_close(grad(_positive_square)(1.5), 3.0)


def test_source_check_mangles_private_names_like_the_class_did():
    obj = sf.Private()
    check_grad(lambda x: obj.apply(x), [1.5])
    check_grad(lambda x: obj.nested(x), [1.5])
    assert_close(grad(sf.Private.apply, wrt=1)(obj, 1.5), 2 * 3.0 * 1.5)
