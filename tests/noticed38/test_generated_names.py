"""Session 38, item 6: refusals of code the compiler generated and compiles again (hvp's
reverse mode over forward mode's code) named its temporaries (`t8`) and helpers
(`sinc_slope`, `_keywords_tangent`): they name the user's expression instead."""
import re

import numpy as np
import pytest

from tests.red37 import programs_more as M
from transform import TransformError, hvp


def test_kept_value_refusal_names_the_users_expression():
    w = np.array([0.3, -0.2, 0.5, 0.1, -0.4, 0.6])
    with pytest.raises(TransformError) as info:
        hvp(M.list_item_methods, (w,), (np.ones(6),), route="reverse_over_forward")
    text = str(info.value)
    assert "`blocks[1]`, which is being differentiated, is passed to the method call " \
        ".prod()" in text
    assert not re.search(r"`t\d+`", text)
    assert info.value.filename == M.__file__
