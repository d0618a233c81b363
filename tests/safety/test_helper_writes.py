"""A lambda helper that writes into the caller's list is refused before anything runs,
like a def helper (both are read by alias_summary.helper_source)."""
import traceback

import pytest

from tests.gradcheck import POLICIES
from tests.safety import helper_write_funcs as hw
from transform import TransformError, value_and_grad


@pytest.mark.parametrize("policy", POLICIES)
def test_lambda_helper_writing_the_callers_list_is_refused(policy):
    with pytest.raises(TransformError) as info:
        value_and_grad(hw.lambda_helper_appends, policy=policy)(1.3)
    frames = traceback.extract_tb(info.value.__traceback__)
    assert not any(fr.filename.startswith("<thunkgrad") for fr in frames)
    assert "helper_write_funcs.py" in str(info.value) and "`<lambda>` is called" in str(info.value)
