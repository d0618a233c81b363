"""Session 38, item 6: refusals of code the compiler generated and compiles again (hvp's
reverse mode over forward mode's code) named its temporaries (`t8`) and helpers
(`sinc_slope`, `_keywords_tangent`): they name the user's expression instead."""
import re

import numpy as np
import pytest

from tests.noticed38 import programs as P
from transform import TransformError, hvp


def test_kept_value_refusal_names_the_users_expression():
    """(red37's list_item_methods, the example here until session 39, is computed now:
    tests/noticed39/test_unused_method.py)"""
    w = np.array([0.3, -0.2, 0.5, 0.1, -0.4, 0.6])
    with pytest.raises(TransformError) as info:
        hvp(P.kept_list_item, (w,), (np.ones(6),), route="reverse_over_forward")
    text = str(info.value)
    assert "is passed to tests.noticed38.programs.keep(), which may store it" in text
    assert "unused = keep(blocks[1])" in text
    assert not re.search(r"`t\d+`", text)
    assert info.value.filename == P.__file__
