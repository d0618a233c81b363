"""Rule.frule, the run-time evaluator of the forward-mode terms (runtime/jvp.py,
docs/forward.md): what it refuses, how terms combine, keyword arguments, and the
declarations defvjp refuses. tests/rules/test_jvp_rules.py checks every rule's terms."""
import numpy as np
import pytest

import runtime
from runtime import registry
from runtime.jvp import add_tangents, zeros_of
from runtime.rules.forward_helpers import zero_ends, zero_fill
from tests.fd import assert_close, numerical_jvp
from tests.rules.checks import rand

A, B = rand(3, 4, seed=1), rand(3, 4, seed=2, low=0.5, high=1.5)


def _halved(x):             # (rules without a JVP: every library rule but a few has one)
    return x / 2


def _tripled(x):
    return 3 * x


registry.defvjp(_halved, "x", "g / 2")
registry.rrule(_tripled)(lambda x: (3 * x, lambda g: (3 * g,)))


def _zero_or(tangent, like):
    """The tangent's entries, None as zeros shaped like the output's."""
    tangent = [None] * len(like) if tangent is None else tangent
    return [0 * np.asarray(o) if t is None else t for t, o in zip(tangent, like)]


def test_frule_refuses_what_it_cannot_give():
    """A nonzero tangent with no term (no JVP yet, or a parameter no rule covers), a
    custom rule, a complex value: NoJvp, never a silent zero."""
    x = np.array([0.3, -1.25])
    with pytest.raises(registry.NoJvp, match="tangent of 'x'"):
        runtime.lookup(_halved).frule((x,), x)
    with pytest.raises(registry.NoJvp, match="tangent of 'xp'"):
        runtime.lookup(np.interp).frule({"xp": x}, 0.5, np.array([0.0, 1.0]), x)
    with pytest.raises(registry.NoJvp):                 # a custom rule without a JVP
        runtime.lookup(_tripled).frule((x,), x)
    with pytest.raises(registry.NoJvp):                 # no complex_jvp trait
        runtime.lookup(np.gradient).frule((x + 0j,), x + 0j)
    with pytest.raises(registry.NoJvp, match="coordinate array"):
        runtime.lookup(np.gradient).frule((None, x), x, np.array([0.0, 1.0]))
    with pytest.raises(registry.NoJvp):                 # one with a JVP, of complex values
        runtime.lookup(np.einsum).frule((None, x), "i->", x + 0j)
    for args, tangents in (((x + 0j,), (x,)), ((x,), (x + 0j,))):
        with pytest.raises(registry.NoJvp):
            runtime.lookup(np.sin).frule(tangents, *args)
    with pytest.raises(registry.NoJvp):
        runtime.lookup(np.sum).frule({"a": x}, a=x + 0j)


def test_frule_ignores_tangents_of_positions_without_derivative():
    """A ZERO position (np.where's condition) adds nothing; no tangent at all is None."""
    x, y = np.array([0.3, -1.25]), np.array([2.0, 4.0])
    ans, tangent = runtime.lookup(np.where).frule((x, None, None), x > 0, x, y)
    np.testing.assert_array_equal(ans, [0.3, 4.0])
    assert tangent is None
    assert runtime.lookup(np.sin).frule((None,), x)[1] is None
    ans, tangent = runtime.lookup(np.less).frule((x, y), x, y)
    assert tangent is None and list(ans) == [True, True]


def _pair(x, y):
    return x * y, x + y


def _scaled(x, y):
    return x * y


def test_jvp_declarations_are_checked():
    """One template for two differentiated parameters, or more terms than parameters:
    refused when the rule is declared."""
    with pytest.raises(ValueError, match="several"):
        registry.defvjp(_scaled, "x, y", "g * y", "g * x", jvp="t_x * y")
    with pytest.raises(ValueError, match="3 JVP terms for 2 parameters"):
        registry.defvjp(_scaled, "x, y", "g * y", "g * x", jvp=("t_x * y", None, None))
    registry.defvjp(_scaled, "x, y", "g * y", "g * x", jvp=registry.LINEAR)
    assert runtime.lookup(_scaled).jvps == {"x": registry.LINEAR, "y": registry.LINEAR}


def test_a_diagonal_rule_with_a_tuple_output_has_no_jvp():
    registry.defvjp(_pair, "x, y", "g[0] * y + g[1]", "g[0] * x + g[1]", elementwise=True)
    assert runtime.lookup(_pair).has_jvp        # declared, and refused when it runs
    with pytest.raises(registry.NoJvp, match="one array output"):
        runtime.lookup(_pair).frule((np.ones(2), None), np.ones(2), np.ones(2))


def test_terms_of_several_arguments_add_up():
    """Tuple outputs entry by entry (None a zero part), against central differences of
    the joint direction."""
    x, y, tx, ty = A + 3.0, B, rand(3, 4, seed=5), rand(3, 4, seed=6)
    square = (x[:, :3], y[:, :3], tx[:, :3], ty[:, :3])
    for fn, (x, y, tx, ty) in ((divmod, (x, y, tx, ty)), (np.hypot, (x, y, tx, ty)),
                               (np.linalg.solve, square)):
        _, tangent = runtime.lookup(fn).frule((tx, ty), x, y)
        want = numerical_jvp(lambda s: fn(x + s * tx, y + s * ty), [0.0], 0, 1.0)
        if isinstance(want, tuple):
            for got, expected in zip(_zero_or(tangent, want), want):
                assert_close(got, expected, rtol=1e-5, atol=1e-7)
        else:
            assert_close(tangent, want, rtol=1e-5, atol=1e-7)


def test_zeros_of_keeps_the_kind():
    zeros = zeros_of([1.5, (np.ones(2), None)])
    assert type(zeros) is list and zeros[0] == 0.0 and type(zeros[1]) is tuple
    np.testing.assert_array_equal(zeros[1][0], np.zeros(2))
    assert zeros[1][1] is None
    total = add_tangents([np.ones(2), None], [None, np.ones(3)])
    assert type(total) is list and len(total) == 2
    np.testing.assert_array_equal(total[0], np.ones(2))
    np.testing.assert_array_equal(total[1], np.ones(3))
    assert add_tangents(None, None) is None
    np.testing.assert_array_equal(zeros_of(np.array([0.0, 2.0])), np.zeros(2))
    assert zero_fill({"constant_values": 2.0, "reflect_type": "even"}) == \
        {"reflect_type": "even"}
    ends = zero_ends(np.array([0.0, 2.0]), None)
    assert list(ends) == ["prepend"]
    np.testing.assert_array_equal(ends["prepend"], np.zeros(2))


def test_linear_terms_take_keyword_arguments():
    """A LINEAR or JOINT argument passed by keyword is replaced by keyword, and a JOINT
    partner passed by keyword is zeroed."""
    x, t = np.array([0.3, -1.25]), np.array([1.5, 2.0])
    assert runtime.lookup(np.mean).frule({"a": t}, a=x)[1] == pytest.approx(1.75)
    _, tangent = runtime.lookup(np.linspace).frule((1.0,), 0.0, stop=2.0, num=5)
    np.testing.assert_allclose(tangent, [1.0, 0.75, 0.5, 0.25, 0.0])


def test_matrix_power_tangents_at_zero_and_negative_powers():
    singular, t = np.array([[1.0, 0.0], [0.0, 0.0]]), rand(2, 2, seed=3)
    rule = runtime.lookup(np.linalg.matrix_power)
    np.testing.assert_array_equal(rule.frule((t, None), singular, 0)[1], np.zeros((2, 2)))
    a = rand(2, 2, seed=12) + 3 * np.eye(2)
    want = numerical_jvp(lambda m: np.linalg.matrix_power(m, -2), [a], 0, t)
    assert_close(rule.frule((t, None), a, -2)[1], want, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("shape", [(4, 3), (3, 4), (2, 4, 3)])
def test_pinv_tangent_of_a_rectangular_matrix(shape):
    """Every term of the pseudo-inverse's tangent (a square invertible matrix, as the
    every-rule examples use, leaves only the first)."""
    a, t = rand(*shape, seed=4), rand(*shape, seed=5)
    rule = runtime.lookup(np.linalg.pinv)
    want = numerical_jvp(np.linalg.pinv, [a], 0, t)
    assert_close(rule.frule((t,), a)[1], want, rtol=1e-5, atol=1e-7)


def test_sum_of_a_list_starts_from_a_zero_tangent():
    xs, ts = [A, B], [rand(3, 4, seed=7), rand(3, 4, seed=8)]
    _, tangent = runtime.lookup(sum).frule((ts,), xs)
    assert_close(tangent, ts[0] + ts[1], rtol=1e-12)


@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("trans", [0, 1])
def test_triangular_solve_tangent_with_a_unit_diagonal(lower, trans):
    """Only the strict triangle is read when the diagonal is unit."""
    sl = pytest.importorskip("scipy.linalg")
    registry._load_pending()
    a, b, t = rand(3, 3, seed=9) + 4 * np.eye(3), rand(3, 2, seed=10), rand(3, 3, seed=11)

    def solve(m):
        return sl.solve_triangular(m, b, trans=trans, lower=lower, unit_diagonal=True)
    _, tangent = runtime.lookup(sl.solve_triangular).frule({"a": t}, a, b, trans=trans,
                                                            lower=lower, unit_diagonal=True)
    assert_close(tangent, numerical_jvp(solve, [a], 0, t), rtol=1e-5, atol=1e-7)


def test_running_product_along_a_single_entry():
    a, t = np.array([[2.0, -1.0, 0.5]]), np.array([[0.3, 0.2, -1.0]])
    _, tangent = runtime.lookup(np.cumprod).frule((t, None), a, 0)
    np.testing.assert_array_equal(tangent, t)


@pytest.mark.parametrize("axis", [0, 1])
def test_softmax_tangents_along_an_axis(axis):
    sc = pytest.importorskip("scipy.special")
    registry._load_pending()
    t = rand(3, 4, seed=13)
    v = rand(3, 4, seed=14)
    for fn in (sc.softmax, sc.log_softmax):
        rule = runtime.lookup(fn)
        ans, tangent = rule.frule((t, None), A, axis)
        want = numerical_jvp(lambda x: fn(x, axis), [A], 0, t)
        assert_close(tangent, want, rtol=1e-5, atol=1e-7)
        cotangent = rule.vjp_function("x")(v, ans, x=A, axis=axis)      # its transpose
        assert np.sum(v * tangent) == pytest.approx(np.sum(cotangent * t), rel=1e-9)


def test_a_custom_rules_tangents_go_by_position():
    """np.einsum is LINEAR in each operand (the subscripts hold none), np.broadcast_arrays
    JOINT: no tangent at all is None, as for template rules."""
    x, y = np.array([0.3, -1.25]), np.array([2.0, 4.0])
    einsum = runtime.lookup(np.einsum)
    assert einsum.frule((None, None, None), "i,i->", x, y)[1] is None
    ans, tangent = einsum.frule((None, y, x), "i,i->", x, y)
    assert tangent == pytest.approx(float(y @ y + x @ x))      # t_x . y + x . t_y
    ans, tangent = runtime.lookup(np.broadcast_arrays).frule((None, 3 * y[:, None]), x,
                                                             y[:, None])
    np.testing.assert_array_equal(tangent[0], 0 * ans[0])
    np.testing.assert_array_equal(tangent[1], 3 * ans[1])
    broadcast = runtime.lookup(np.broadcast_arrays)
    assert broadcast.frule((None, None), x, y[:, None])[1] is None
    ans, tangent = broadcast.frule((2 * x, 3 * y[:, None]), x, y[:, None])   # every one
    np.testing.assert_array_equal(tangent[0], 2 * ans[0])
    np.testing.assert_array_equal(tangent[1], 3 * ans[1])
