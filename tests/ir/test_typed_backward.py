"""Reverse mode's backward sweep built typed end to end (transform/ir/generated.py and
statements.py) and lowered once in lower_sweeps: the pullback body handed to the
lowering holds no gast and no `Emitted`, has the generated kinds a loop with a branch,
a list and a slice read make, and the gradient matches central differences."""
import numpy as np

from transform import grad
from transform.ir import generated as gen
from transform.ir import statements as ir
from transform.reverse import assemble


def mixed(x):
    acc = []
    z = x * 1.0
    for i in range(3):
        if i % 2:
            z = np.sin(z) * x
        else:
            z = z + x[1:] @ x[:-1]
        acc.append(z)
    w = acc[0] + acc[2]
    return np.sum(w * w) + np.sum(z)


def _walk(stmts):
    for s in stmts:
        yield s
        if isinstance(s, ir.Control):
            yield from _walk(s.body + s.orelse)


def test_the_pullback_body_is_typed_and_lowered_once(monkeypatch):
    calls = []

    def spy(src, stmts, *names):
        calls.append(list(stmts))
        return to_gast(src, stmts, *names)
    to_gast = assemble.to_gast
    monkeypatch.setattr(assemble, "to_gast", spy)
    x = np.array([0.3, -0.7, 1.1, 0.4])
    got = grad(mixed)(x)
    assert len(calls) == 2                     # the pullback's body, then the forward sweep
    body = list(_walk(calls[0]))
    assert all(isinstance(s, ir.Statement) and not isinstance(s, ir.Emitted) for s in body)
    kinds = {type(s).__name__ for s in body}
    assert {"TapeReader", "Comment", "For", "If", "Pop", "Accumulate", "PopEntries",
            "Return"} <= kinds
    assert any(isinstance(s, (gen.Reset, gen.Own, gen.Unthunk, gen.ZeroBuffer)) for s in body)
    assert isinstance(calls[1][0], gen.TapeStart)     # the forward sweep: no gast either
    assert not any(isinstance(s, ir.Emitted) for s in _walk(calls[1]))
    eps = 1e-6
    want = [(mixed(x + eps * e) - mixed(x - eps * e)) / (2 * eps) for e in np.eye(4)]
    assert np.allclose(got, want, rtol=1e-6, atol=1e-8)
