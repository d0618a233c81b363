"""pytest plugin for thunkgrad (loaded through the `pytest11` entry point `thunkgrad`).

    def test_loss(gradcheck):
        gradcheck(loss, W, b, x)              # transform.testing.check_grads

    @pytest.mark.gradcheck_tolerance(rtol=1e-4, atol=1e-6)
    def test_float32_layer(gradcheck): ...

    @pytest.mark.all_policies                 # one test per policy: loop, eager, flat, nested
    def test_rnn(gradcheck): ...

Fixtures: `gradcheck` (check_grads with the test's tolerances and policy) and
`thunkgrad_policy` (the policy under test: None unless the test is parametrized over
policies; prefixed so that it cannot collide with a project's own `policy` fixture).
Markers: `gradcheck_tolerance` and `all_policies` (optionally restricted:
`@pytest.mark.all_policies("loop", "flat")`).

Every pytest run in an environment with thunkgrad installed loads this module, so it
imports nothing of thunkgrad until a test uses a fixture or a marker.
"""
import pytest

TOLERANCE_OPTIONS = ("rtol", "atol", "eps", "directions")
POLICY_FIXTURE = "thunkgrad_policy"


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "gradcheck_tolerance(rtol=None, atol=None, eps=None, directions=None): "
        "tolerances the thunkgrad `gradcheck` fixture uses in this test")
    config.addinivalue_line(
        "markers", "all_policies(*policies): run the test once per thunkgrad policy "
        f"(loop, eager, flat, nested unless listed), with `{POLICY_FIXTURE}` set")


def pytest_generate_tests(metafunc):
    marker = metafunc.definition.get_closest_marker("all_policies")
    if marker is None or POLICY_FIXTURE not in metafunc.fixturenames:
        return
    from .analysis.accumulation import POLICIES
    policies = marker.args or POLICIES
    unknown = [p for p in policies if p not in POLICIES]
    if unknown:
        raise pytest.UsageError(f"all_policies: unknown policy {unknown[0]!r}; choose from "
                                f"{', '.join(POLICIES)}")
    metafunc.parametrize(POLICY_FIXTURE, policies)


@pytest.fixture
def thunkgrad_policy():
    """The thunkgrad policy under test: set by @pytest.mark.all_policies, else None."""
    return None


@pytest.fixture
def gradcheck(request, thunkgrad_policy):
    """check_grads(fn, *args, **options) with this test's tolerances and policy."""
    from .testing import check_grads
    defaults = _tolerances(request.node)
    if thunkgrad_policy is not None:
        defaults["policies"] = (thunkgrad_policy,)

    def run(fn, *args, **options):
        __tracebackhide__ = True
        return check_grads(fn, *args, **{**defaults, **options})
    return run


def _tolerances(node):
    marker = node.get_closest_marker("gradcheck_tolerance")
    if marker is None:
        return {}
    if marker.args:
        raise pytest.UsageError("gradcheck_tolerance takes keyword arguments only, e.g. "
                                "@pytest.mark.gradcheck_tolerance(rtol=1e-4, atol=1e-6)")
    unknown = sorted(set(marker.kwargs) - set(TOLERANCE_OPTIONS))
    if unknown:
        raise pytest.UsageError(f"gradcheck_tolerance: unknown option {unknown[0]!r}; "
                                f"use {', '.join(TOLERANCE_OPTIONS)}")
    return dict(marker.kwargs)
