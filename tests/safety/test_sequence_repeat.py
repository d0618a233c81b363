"""`[a, b] * n` repeats a list; it must not be differentiated as a product (it was: the
copies' cotangents were multiplied by n instead of added)."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad
from tests.safety import repeat_programs as rp

CASES = [(rp.loop_over_repeated_list, (1.3,)), (rp.repeated_tuple_on_the_right, (1.3,)),
         (rp.repeated_name, (1.3,)), (rp.repeated_name, (np.array([0.5, -1.0]),)),
         (rp.stacked_copies, (np.array([1.0, 2.0]),)),
         (rp.number_times_number, (np.array([1.0, 2.0]),)),
         (rp.reduced_and_indexed, (1.3,)), (rp.reduced_and_indexed, (np.array([1.0, 2.0]),)),
         (rp.tuple_reduced_and_indexed, (1.3,)),
         (rp.stacked_and_indexed, (np.array([1.0, 2.0]),)),
         (rp.repeats_what_a_helper_returned, (1.3,)),
         (rp.repeats_what_a_helper_returned, (np.array([1.0, -2.0]),)),
         (rp.repeats_an_element_of_a_list, (1.3,)), (rp.repeats_a_loop_variable, (0.7,)),
         (rp.scales_by_a_count_argument, (np.array([1.0, -2.0]), 3)),
         (rp.scales_by_a_count_argument, (0.4, 2)),
         (rp.repeats_by_a_count_built_from_one_name_twice, (1.3, 1)),
         (rp.repeats_a_concatenation, (1.3,)), (rp.repeats_a_conditional_choice, (1.3, True))]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn,args", CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_repetition_gradients_match_finite_differences(fn, args, policy):
    check_grad(fn, args, policy=policy)


def test_repeated_list_in_a_loop_analytic_value():
    from transform import grad
    assert grad(rp.loop_over_repeated_list)(1.3) == pytest.approx(3 * 2 * 1.5 * 1.5 * 1.3)


@pytest.mark.parametrize("policy", POLICIES)
def test_a_list_argument_repeated(policy):
    """grad knows the argument is a list (its shape key), so `xs * 2` is a repetition."""
    check_grad(rp.repeat_list_parameter, ([np.array([1.0]), np.array([2.0])],), policy=policy)


def test_a_list_passed_to_a_helper_that_repeats_it():
    """The helper is compiled without argument shapes: its `xs * 2` decides at run time."""
    from transform import grad
    assert grad(rp.passes_a_list_to_a_repeating_helper)(1.0) == pytest.approx(20.0)


def test_a_long_chain_of_names_is_analysed_once_per_name(monkeypatch):
    """`t2 = t1 + t1` twenty times: each name's kind is worked out once, not 2**20 times."""
    from transform import adjoint_source
    from transform.lowering import sequence_kinds
    calls = []
    original = sequence_kinds._binding_may_be

    def counted(*args):
        calls.append(args[1].id)
        return original(*args)
    monkeypatch.setattr(sequence_kinds, "_binding_may_be", counted)
    adjoint_source(rp.chain_of_doublings)
    assert 0 < len(calls) <= 2 * 22          # each name at most once per question
