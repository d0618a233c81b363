"""Reverse mode's generated tape traffic, typed (transform/ir/statements.py): the pushes,
pops and accumulations it builds for a small loop, each lowered to gast marked with
its typed statement (which the optimiser matches: statements.typed_of), and the
gradient against central differences."""
import gast
import numpy as np

from transform import grad
from transform.ir import statements as ir
from transform.ir.comments import mark_of
from transform.ir.recognize import called_role
from transform.reverse import assemble, reverse


def looped(x):
    z = x
    for i in range(3):
        z = np.sin(z) * x
    return np.sum(z)


def _walk(stmts):
    for s in stmts:
        yield s
        if isinstance(s, ir.Control):
            yield from _walk(s.body + s.orelse)


def _spied(monkeypatch):
    """The typed statements lowered while `looped` compiles: (statement, its gast)."""
    seen = []

    def spy(to_gast):
        def lowered(src, stmts, *names):
            out = to_gast(src, stmts, *names)
            typed = [s for s in _walk(stmts) if isinstance(s, (ir.Push, ir.Pop, ir.Accumulate))]
            seen.extend((s, [s.node] + ([s.comment] if isinstance(s, ir.Push) else []))
                        for s in typed)
            return out
        return lowered
    monkeypatch.setattr(assemble, "to_gast", spy(assemble.to_gast))
    x = np.array([0.3, -0.7, 1.1])
    return seen, x, grad(looped)(x)


def test_kinds_built_for_a_loop_their_marked_gast_and_the_gradient(monkeypatch):
    # one test: grad caches the compiled rule, so a second compile would build nothing
    seen, x, got = _spied(monkeypatch)
    kinds = {type(s).__name__ for s, _ in seen}
    assert kinds == {"Push", "Pop", "Accumulate"}
    assert "z" in {s.value for s, _ in seen if isinstance(s, ir.Push)}
    assert "z" in {s.target for s, _ in seen if isinstance(s, ir.Pop)}
    for s, lowered in seen:
        assert ir.typed_of(lowered[0]) is s
        if isinstance(s, ir.Push):                 # tape.append(z) and `# save z: ...`
            assert s.node.value.args[0].id == s.value and mark_of(lowered[1]).end
            assert lowered[1] is s.comment
        elif isinstance(s, ir.Pop):
            [node] = lowered
            assert node.targets[0].id == s.target and called_role(node.value) == "pop"
        else:
            [node] = lowered
            target = node.target if isinstance(node, gast.AugAssign) else node.targets[0]
            assert target.id == s.target
            if s.mode not in ("set", "in_place", "sum"):
                assert called_role(node.value) == s.mode
    eps = 1e-6
    want = [(looped(x + eps * e) - looped(x - eps * e)) / (2 * eps) for e in np.eye(3)]
    assert np.allclose(got, want, rtol=1e-6, atol=1e-8)
