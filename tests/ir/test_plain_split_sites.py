"""The plain lowering's split calls, per call site (docs/ir.md, "Second lowering",
"Calls"): calls binding one name share the name of its pullback (the saved tuple), so
each backward half is matched to its own call, not to the name; a site whose call is not
shown to be the split keeps the rule and its pullback. Gradients against central finite
differences; which halves the source calls."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad
from transform import api, value_and_grad
from transform.public.cache import rules_of


def layer(W, x):
    return np.tanh(W @ x)


def two_shapes(W1, W2, x):
    r = layer(W1, x)                    # r: 4 entries, then 2 (halves for each shape)
    s = r * 2.0
    r = layer(W2, s)
    return np.sum(r ** 2)


def a_constant_argument(W1, W2, x):
    r = layer(W1, np.ones(3))           # x not varied here: other halves
    s = r * x[0]
    r = layer(W2, s)
    return np.sum(r ** 2)


def a_keyword_at_one_site(W1, W2, x):
    r = layer(W1, x=x)
    s = r * 2.0
    r = layer(W2, s)
    return np.sum(r ** 2)


def in_a_loop(W1, W2, x):
    t = 0.0
    for i in range(2):
        r = layer(W1, x * (i + 1.0))
        t = t + np.sum(r)
        r = layer(W2, r)
        t = t + np.sum(r ** 2)
    return t


def scaled_layer(W, x, s=1.5, shift=0.0):
    return np.tanh(W @ x) * s + shift


def keywords_in_any_order(W1, W2, x):
    r = scaled_layer(x=x, W=W1)                 # split: (W1, x) by position, s's default
    s = scaled_layer(W2, shift=0.25, x=r)       # shift after s's default: the rule
    return np.sum(s ** 2) + np.sum(scaled_layer(W2, r, x[1], shift=x[0]))


SITES = [two_shapes, a_constant_argument, a_keyword_at_one_site, in_a_loop,
         keywords_in_any_order]


def _args():
    r = np.random.default_rng(5)
    return (r.normal(size=(4, 3)), r.normal(size=(2, 4)), r.normal(size=3))


@pytest.mark.parametrize("fn", SITES, ids=lambda f: f.__name__)
def test_calls_binding_one_name_at_two_shapes(fn):
    args = _args()
    value, grads = value_and_grad(fn, (0, 1, 2), lowering="plain")(*args)
    assert_close(value, fn(*args), rtol=1e-12, atol=0)
    for k, g in enumerate(grads):
        assert_close(g, numerical_grad(fn, args, k), rtol=1e-6, atol=1e-8,
                     what=f"gradient of argument {k}")


def _plain_source(fn):
    value_and_grad(fn, (0, 1, 2), lowering="plain")(*_args())
    return next(c.source for k, c in rules_of(fn).items() if k[2] == "plain")


def test_each_site_calls_its_own_backward_half():
    source = _plain_source(two_shapes)
    assert "r, r_pullback = layer_forward(W1, x)" in source
    assert "r, r_pullback = layer_forward_1(W2, s)" in source
    assert "layer_backward(" in source and "layer_backward_1(" in source


def test_a_keyword_call_is_split_by_position_unless_a_default_comes_first():
    source = _plain_source(keywords_in_any_order)
    assert "= scaled_layer_forward(W1, x)" in source
    assert "= scaled_layer_rrule(W2, shift=0.25, x=r)" in source
    assert "= scaled_layer_forward_1(W2, r, x[1], x[0])" in source   # (FuseForward)


def _settle(W, x):
    for j in range(2):                  # (a loop: called, split)
        x = np.tanh(W @ x) + 0.5 * x
    return x


def test_both_halves_come_from_one_compilation(monkeypatch):
    """The callee is compiled once for its two halves (not once per half), and the
    backward half unpacks what the forward half returns."""
    lowerings = []
    compile_once = api._compile

    def counted(*args, **kwargs):
        lowerings.append(kwargs.get("lowering"))
        return compile_once(*args, **kwargs)
    monkeypatch.setattr(api, "_compile", counted)
    forward, backward = api.compiled_split(_settle, ("W", "x"), "loop", None, ((3, 3), (3,)))
    assert lowerings == ["plain/split"]
    assert api.compiled_split(_settle, ("W", "x"), "loop", None, ((3, 3), (3,))) == \
        (forward, backward) and lowerings == ["plain/split"]          # (cached)
    returned = forward.source.rsplit("return (x, (", 1)[1].split("))")[0]
    assert f"    {returned} = _settle_saved" in backward.source
