"""Every scalar-output corpus case hvp takes (tests/forward/corpus_hvp.py) through its
three routes against central differences of grad: no H v differs from them or from the
first route's that passed; what a route does not cover is refused (a TransformError),
none fails when it runs (LOUD would list them). The pass counts may only grow. (The routes in one sweep:
one set of differences per case; the forward-over-reverse route adds about 70 s CPU,
compiling each case once more, auto little: it reruns the others' compiled code.)"""
import contextlib
import io

from tests.forward.corpus_hvp import run_all_routes
from tests.forward.sweep import assert_corpus

# failing when they run (not a TransformError): the set may only shrink
LOUD = set()
FLOORS = {"reverse_over_forward": 1061,   # 659 before session 34, 795 after it, 1039 in 35,
          #                                 1050 in 37, 1056 on main e924f94a (session 38),
          #                                 1057 in 39 (autoconst), 1061 in 40 (autofall)
          "forward_over_reverse": 1062,   # 378 in session 35 (forrev), 621 in 36, 925 in 37,
          #                                 1013 on main e924f94a (session 38), 1033 in 39
          #                                 (autoconst: solve's, cholesky's, eigh's ... VJPs),
          #                                 1062 in 40 (autofall: the alias check reads what
          #                                 the gradient code's own helpers return)
          "auto": 1072}                   # 1018 in session 36 (frspeed), 1057 in 37, 1069 on
          #                                 main e924f94a (session 38; the default since 38),
          #                                 1070 in 39 (autoconst), 1072 in 40 (autofall)


def test_corpus_through_hvp_both_routes():
    with contextlib.redirect_stdout(io.StringIO()):       # cases that print
        found = run_all_routes()
    for route, results in found.items():
        assert_corpus(results, floor=FLOORS[route], loud=LOUD)
