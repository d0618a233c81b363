"""Refusals at the user's line (session 37): each names the user's file, line and
column, the construct, what to do instead, and no name of thunkgrad's own code (a
rule's `divmod_vjp`, the flat gradient's `items1`, reverse mode's `reversed_prefix`).
Cases from the corpus and red36 that were refused with no `file:line` or naming
internal helpers: jvp/hvp of a function taking **kwargs, reverse mode over forward
mode's call of a method helper, forward mode over reverse mode's divmod, a write
into a list the flat gradient loops over and a line of its own backward loop."""
import re

import numpy as np
import pytest

from tests.corpus import builtins as B
from tests.red41 import programs_habits as H
from tests.corpus import redteam32b as R32B
from tests.red36 import programs_opt as M
from transform import TransformError, hvp, jvp

INTERNAL = re.compile(r"reversed_(prefix|enumerate|zip)|popped|tape_reader|_vjp\b|"
                      r"_rrule\b|\bitems\d|\bseq\d|\bt\d+\b|added_at|accumulated_at|unbroadcast")
X3 = np.array([0.3, 0.5, 0.9])
W = np.array([[0.2, -0.1, 0.4], [0.5, 0.3, -0.2]])

CASES = {
    "jvp **kwargs": (lambda: jvp(M.kwargs_forward, (X3, W), (X3,), wrt=0), M, "def kwargs_forward"),
    "hvp **kwargs": (lambda: hvp(M.kwargs_forward, (X3, W), (X3,)), M, "def kwargs_forward"),
    # (divmod's VJP helper, here until session 38, is compiled from its source now)
    "hvp vstack": (lambda: hvp(R32B.hstack_rows_then_vstack, (X3[:2], X3), (X3[:2], X3),
                               wrt=(0, 1), route="forward_over_reverse"), R32B,
                   "np.vstack(rows)"),
    # (a dict popped in a loop, here until session 40, computes: s40-autofall)
    "hvp slice write": (lambda: hvp(H.in_place_slices_on_copy, (X3,), (X3,),
                                    route="forward_over_reverse"), H, "y[1:] -= 0.5 * y[:-1]"),
}
# (a refusal in the flat gradient's backward loop, kalman_filter_loglik's solve, was
# checked here at the user's line in that loop; it computes since session 39: solve's
# cotangent has a rule)


@pytest.mark.parametrize("name", list(CASES))
def test_refused_at_the_users_line(name):
    call, module, text = CASES[name]
    with pytest.raises(TransformError) as info:
        call()
    exc = info.value
    assert exc.filename == module.__file__ and exc.line is not None, exc.one_line()
    assert text in exc.source_line and exc.col is not None
    assert exc.hint and not INTERNAL.search(exc.message + exc.hint), str(exc)


def test_item_and_tolist_under_reverse_over_forward_match():
    """(Refused at the `.item()` line until session 38: runtime's `item` and `tolist`,
    dispatched when the code runs, are called through their rules by reverse mode over
    forward mode's call_jvp now.) Against second differences (tests/red2)."""
    from tests.fd import assert_close
    from tests.red2.check import fd_hessian
    got = hvp(B.scalar_item_and_tolist, (X3,), (X3,), wrt=(0,), route="reverse_over_forward")
    assert_close(got[0], fd_hessian(B.scalar_item_and_tolist, (X3,), 0) @ X3,
                 rtol=1e-5, atol=1e-6)
