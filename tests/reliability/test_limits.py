"""Issue 18: programs longer or deeper than the compiler's recursive walks take at
Python's default recursion limit compile correctly, or fail at the construct."""
import sys

import numpy as np
import pytest

import transform
from transform.frontend import limits
from tests.fd import numerical_grad
from tests.reliability import programs

sys.path.insert(0, __file__.rsplit("/tests/", 1)[0] + "/benchmarks")
from run import hundred_line_source  # noqa: E402


@pytest.fixture(scope="module")
def chain_500(tmp_path_factory):
    return programs.load(tmp_path_factory.mktemp("chain"), programs.elif_chain(500))


def test_a_2000_term_sum_leaving_the_recursion_limit_as_it_was(tmp_path):
    before = sys.getrecursionlimit()
    f = programs.load(tmp_path, programs.long_sum(2000))
    assert transform.grad(f)(0.3) == pytest.approx(sum(range(2000)), rel=1e-12)
    assert sys.getrecursionlimit() == before


@pytest.mark.parametrize("k", [0, 1, 250, 499, 500])
def test_a_500_branch_elif_chain(chain_500, k):
    expected = 2 * 0.7 * (k + 1) if k < 500 else 2 * 0.7
    assert transform.grad(chain_500)(0.7, k) == pytest.approx(expected, rel=1e-12)


def test_a_long_elif_chain_is_emitted_flat(chain_500):
    source = transform.adjoint_source(chain_500)
    deepest = max(len(line) - len(line.lstrip()) for line in source.splitlines())
    assert deepest <= 12                        # def, pullback def, branch body
    assert source.count("elif") >= 2 * 499      # forward and backward


@pytest.mark.parametrize("k", [0.0, 3.0, 50.0])
@pytest.mark.parametrize("policy", ["loop", "flat"])
def test_elif_conditions_of_several_statements(tmp_path, k, policy):
    f = programs.load(tmp_path, programs.elif_chain_with_calls(40))
    got = transform.grad(f, policy=policy)(0.7, k)
    assert got == pytest.approx(numerical_grad(lambda x: f(x, k), (0.7,), 0), rel=1e-6)


def test_short_elif_chains_keep_their_nested_form(tmp_path):
    source = transform.adjoint_source(programs.load(tmp_path, programs.elif_chain(4)))
    assert ":=" not in source


def test_a_10000_line_function(tmp_path):
    big = programs.load(tmp_path, hundred_line_source(10_000), name="big")
    rng = np.random.default_rng(0)
    x, W, b = rng.normal(size=3) * 0.1, rng.normal(size=(3, 3)) * 0.1, rng.normal(size=3) * 0.1
    got = transform.grad(big, wrt=0)(x, W, b)
    np.testing.assert_allclose(got, numerical_grad(big, (x, W, b), 0), rtol=1e-5, atol=1e-8)


def test_beyond_the_raised_limit_the_error_names_the_sum(tmp_path, monkeypatch):
    monkeypatch.setattr(limits, "DEEP_RECURSION_LIMIT", 1000)
    f = programs.load(tmp_path, programs.long_sum(2000))
    with pytest.raises(transform.TransformError) as info:
        transform.grad(f)(0.3)
    err = info.value
    assert "sum of 2,000 terms" in err.message and "RecursionError" in err.message
    assert err.filename.endswith(".py") and err.line == 2 and err.hint
    assert "internal compiler error" not in str(err)


def test_beyond_the_raised_limit_the_error_names_the_elif_chain(tmp_path, monkeypatch):
    monkeypatch.setattr(limits, "DEEP_RECURSION_LIMIT", 1000)
    f = programs.load(tmp_path, programs.elif_chain(2000))
    with pytest.raises(transform.TransformError) as info:
        transform.grad(f)(0.3, 1)
    assert "if/elif chain of 2,000 branches" in info.value.message
    assert info.value.line == 2


def test_running_out_of_memory_is_a_transform_error(tmp_path, monkeypatch):
    f = programs.load(tmp_path, programs.long_sum(5))

    def exhausted(*args, **kwargs):
        raise MemoryError
    monkeypatch.setattr(transform.api, "compile_function", exhausted)
    with pytest.raises(transform.TransformError) as info:
        transform.grad(f)(0.3)
    assert "too large" in info.value.message and info.value.line == 2
