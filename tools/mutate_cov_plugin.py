"""A pytest plugin for tools/mutate_select.py: while coverage measures the suite, each
test's lines (its fixtures' setup and teardown included) are recorded under its node id,
parametrisation and all, so a mutant is judged by exactly the test cases that run its
line. Lines run while collecting (imports, module-level code) stay in the empty context."""
import coverage
import pytest


def _switch(context):
    current = coverage.Coverage.current()
    if current is not None:
        current.switch_context(context)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    _switch(item.nodeid)
    yield
    _switch("")
