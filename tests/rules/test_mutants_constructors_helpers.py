"""Behaviour the mutation run (tools/mutate.py) found unpinned in
runtime/rules/constructors_helpers.py (np.linspace's cotangents at its small sizes):
each test kills a mutant the other tests let through."""
import numpy as np

from tests.gradcheck import check_grad

WEIGHTS = np.array([1.0, 2.0])


def two_samples(start, stop):
    return np.sum(np.linspace(start, stop, 2) * WEIGHTS)


def test_linspace_of_two_samples_weighs_both_ends():
    """num=2 with the endpoint: the fraction is k / 1, not zero (sample 1 is stop)."""
    check_grad(two_samples, (0.5, 3.0))


def step_only(start, stop):
    return np.linspace(start, stop, 5, retstep=True)[1]


def test_linspace_step_alone_gives_start_and_stop_their_share():
    """Only the step is read: the samples' cotangent is None, which adds nothing."""
    check_grad(step_only, (0.5, 3.0))


def step_of_two(start, stop):
    return np.linspace(start, stop, 2, retstep=True)[1]


def test_linspace_step_of_two_samples():
    """num=2 with the endpoint divides by 1: the step is stop - start."""
    check_grad(step_of_two, (0.5, 3.0))


def samples_of_one(start, stop):
    samples, step = np.linspace(start, stop, 1, retstep=True)      # step is NaN
    return np.sum(samples * 3.0) + np.where(np.isnan(step), 0.0, step)


def test_linspace_of_one_sample_has_no_step_term():
    """num=1 with the endpoint: numpy's step is NaN (nothing to divide by); the step's
    zero cotangent must not add a term divided by zero to the samples' cotangent."""
    check_grad(samples_of_one, (0.5, 3.0))
