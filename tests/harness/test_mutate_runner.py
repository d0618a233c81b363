"""tools/mutate_runner.py: a fork server that stops answering gives no verdict, so its
mutants are never counted as survivors (or as killed)."""
import io
import types

import pytest

from tools.mutate_runner import Runner


def test_a_server_that_stopped_gives_no_verdict():
    runner = Runner.__new__(Runner)                 # no server started: a dead one's pipes
    runner.process = types.SimpleNamespace(stdin=io.StringIO(), stdout=io.StringIO(""))
    with pytest.raises(RuntimeError, match="stopped"):
        runner.pytest("/nowhere", ["tests"], 10)
