"""What checkpointed loops do not cover yet is refused at the user's line, with what to
write instead; nothing is differentiated silently wrong."""
import inspect

import numpy as np
import pytest

from transform import TransformError, checkpointed, grad


def with_return(x, n):
    for t in checkpointed(range(n), snapshots=2):
        x = x * 1.1
        if x > 2.0:
            return x                                            # refused: return
    return x


def with_else(x, n):
    for t in checkpointed(range(n), snapshots=2):               # refused: loop else
        x = x * 1.1
    else:
        x = x + 1.0
    return x


def over_enumerate(x, xs):
    for pair in checkpointed(enumerate(xs), snapshots=2):       # refused: enumerate
        x = x * pair[1]
    return x


def over_generator(x, xs):
    for v in checkpointed((a * 2 for a in xs), snapshots=2):    # refused: generator
        x = x * v
    return x


def tuple_target(x, xs):
    for i, v in checkpointed(xs, snapshots=2):                  # refused: tuple target
        x = x * v
    return x


def carried_unbound(x, n):
    for t in checkpointed(range(n), snapshots=2):               # refused: y unbound
        if t > 0:
            x = x + y
        y = x * 0.5
    return x


def marker_elsewhere(x, xs):
    ys = checkpointed(xs, snapshots=2)                          # refused: not a loop
    return x * ys[0]


def no_snapshots(x, n):
    for t in checkpointed(range(n)):                            # refused: snapshots
        x = x * 1.1
    return x


def nested_def(x, n):
    for t in checkpointed(range(n), snapshots=2):
        def f(v):                                               # refused: nested def
            return v * 1.1
        x = f(x)
    return x


def appends_to_iterable(x, xs):
    xs = list(xs)
    for v in checkpointed(xs, snapshots=2):                     # refused: xs changed
        x = x * v
        xs.append(1.0)
    return x


def writes_into_item(x, xs):
    for v in checkpointed(xs, snapshots=2):                     # refused: v written
        v[0] = 1.0
        x = x * np.sum(v)
    return x


def local_def(x, n):
    def f(v):
        return v * 1.1
    for t in checkpointed(range(n), snapshots=2):
        x = f(x)                                                # refused: local f
    return x


def local_import(x, n):
    import math as m
    for t in checkpointed(range(n), snapshots=2):
        x = m.sin(x)                                            # refused: local import
    return x


CASES = [(local_def, "defined inside the function"),
         (local_import, "defined inside the function"), (writes_into_item, "writes into its loop variable"), (appends_to_iterable, "changes what it iterates over"),
         (with_return, "return"),
         (with_else, "else"), (over_enumerate, "length is known"),
         (over_generator, "length is known"), (tuple_target, "one name"),
         (carried_unbound, "unbound"),
         (marker_elsewhere, "iterable of a for loop"), (no_snapshots, "snapshots"),
         (nested_def, "nested def")]


def _marked_line(fn):
    lines, first = inspect.getsourcelines(fn)
    return first + next(k for k, text in enumerate(lines) if "# refused" in text)


@pytest.mark.parametrize("fn, words", CASES, ids=[c[0].__name__ for c in CASES])
def test_refused_at_the_users_line(fn, words):
    arg = 3 if "n" in inspect.signature(fn).parameters else [np.ones(2), np.ones(2)]
    with pytest.raises(TransformError) as info:
        grad(fn, 0)(0.7, arg)
    err = info.value
    assert words in err.message and err.hint, err
    assert err.line == _marked_line(fn) and err.filename == __file__, err
    assert "Instead:" in str(err)


def _plain(x, xs):
    acc = x
    for v in checkpointed(xs, snapshots=2):
        acc = acc * v
    return acc


def test_unsized_iterable_refused_when_it_runs():
    with pytest.raises(TypeError, match="range, list, tuple or array"):
        grad(_plain, 0)(0.7, iter([1.0, 2.0]))
    assert grad(_plain, 0)(0.7, np.array([1.0, 2.0])) == pytest.approx(2.0)


def test_snapshots_checked_when_it_runs():
    with pytest.raises(ValueError, match="snapshots"):
        checkpointed(range(3), snapshots=0)
    with pytest.raises(ValueError, match="snapshots"):
        checkpointed(range(3), snapshots=2.5)


def test_explain_says_what_the_loop_carries():
    from tests.checkpoint import cases
    from transform import adjoint_source
    text = adjoint_source(cases.heat_ck, 0, explain=True)
    assert "binomial (revolve) schedule" in text and "carries (u)" in text
    assert "reads (dt, kappa) as invariants" in text
    assert "binomial" not in adjoint_source(cases.heat_ck, 0)


def test_marker_under_another_name_is_still_the_marker():
    from tests.checkpoint import aliased
    from transform import checkpoint_stats
    with checkpoint_stats() as stats:
        got = grad(aliased.f, 0)(0.3, 4)
    assert stats.loops == 1 and got == pytest.approx(1.1 ** 4)


def test_same_source_in_two_namespaces_keeps_its_own_globals(tmp_path):
    import pathlib
    source = pathlib.Path(__file__).with_name("aliased.py").read_text()
    path = tmp_path / "twin.py"
    path.write_text(source.replace("x * 1.1", "x * SCALE"))
    grads, fns = [], []
    for scale in (1.1, 1.3):
        space = {"__name__": "twin", "SCALE": scale}
        exec(compile(path.read_text(), str(path), "exec"), space)
        fns.append(grad(space["f"], 0))
        grads.append(fns[-1](0.3, 3))
    grads.append(fns[0](0.3, 3))
    assert grads == pytest.approx([1.1 ** 3, 1.3 ** 3, 1.1 ** 3])
