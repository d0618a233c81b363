"""Stage 5 on the typed form (docs/ir.md): `pipeline._analyze` builds it once
(`ctx.typed`), the analyses and both modes walk it, and a statement stage 5 rewrites
as a nondiff check (`x.shape` read as an array's metadata, an object's own `fill`
refused when it runs) is typed again, never left under its old class."""
import gast
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad
from transform import grad, jvp, pipeline
from transform.ir import statements as ir
from transform.ir.typed import stale, walk
from transform.public import cache


def metadata_read(u):
    n = u.shape[0]
    return np.sum(u * np.arange(n) ** 2)


class Canvas:
    def __init__(self, w):
        self.v = 0.0

    def fill(self, v):
        self.v = v * 3.0
        return self


def argument_filled(w, c):
    c.fill(w[0])
    return c.v * w[1]


def _compiled(monkeypatch):
    """The Compilations build_sweeps is given (stage 5 done)."""
    seen, build = [], pipeline.build_sweeps

    def spy(ctx, output):
        seen.append(ctx)
        return build(ctx, output)
    monkeypatch.setattr(pipeline, "build_sweeps", spy)
    return seen


def _calling(ctx, helper):
    """The typed statements whose value calls the runtime's `helper`."""
    return [s for s, _ in walk(ctx.typed) if isinstance(s.node, gast.Assign)
            and isinstance(s.node.value, gast.Call)
            and getattr(s.node.value.func, "id", None) == ctx.names.roles.get(helper)]


def test_a_metadata_read_is_typed_again(monkeypatch):
    monkeypatch.setattr(cache, "MAX_SPECIALISATIONS", 0)     # the general rule: no shapes
    seen = _compiled(monkeypatch)
    u = np.array([0.5, -1.0, 2.0])
    assert_close(grad(metadata_read)(u), numerical_grad(metadata_read, (u,), 0))
    ctx = seen[-1]
    reads = _calling(ctx, "array_metadata")
    assert reads and all(isinstance(s, ir.NonDiff) for s in reads)
    assert not stale(ctx.typed)


def test_an_objects_own_fill_refused_when_run_is_typed_again(monkeypatch):
    seen = _compiled(monkeypatch)
    with pytest.raises(TypeError, match="own `fill`"):
        grad(argument_filled, wrt=0)(np.array([0.3, -1.2]), Canvas(0.0))
    ctx = seen[-1]
    checks = _calling(ctx, "own_fill_refused")
    assert checks and all(isinstance(s, ir.NonDiff) for s in checks)
    assert not stale(ctx.typed)


def test_both_modes_walk_the_form_stage_5_built(monkeypatch):
    built, analyze = [], pipeline._analyze

    def spy(ctx, body, output, varied):
        analyze(ctx, body, output, varied)
        built.append((ctx, ctx.typed))
    monkeypatch.setattr(pipeline, "_analyze", spy)
    u = np.array([0.5, -1.0, 2.0])
    grad(metadata_read)(u)
    jvp(metadata_read, (u,), (np.ones(3),))
    assert len(built) >= 2
    for ctx, typed in built:                # not built again by either mode
        assert ctx.typed is typed
