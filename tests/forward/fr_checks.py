"""hvp forward over reverse on a program, checked against central differences of grad
and against the other route (reverse over forward), along a random direction for each
argument in turn: the check of the files that lift forward-over-reverse refusals."""
from tests.fd import assert_close, numerical_jvp
from tests.gradcheck import rng
from transform import grad, hvp


def check_forward_over_reverse(fn, shapes, label, center, scale):
    """Arguments center + scale * normal draws of `shapes` (seeded by label and fn)."""
    r = rng(label, fn.__name__)
    args = tuple(center + scale * r.normal(size=s) for s in shapes)
    for k in range(len(args)):
        v = r.normal(size=shapes[k])
        got = hvp(fn, args, (v,), wrt=k, route="forward_over_reverse")
        assert_close(got, numerical_jvp(grad(fn, k), args, k, v), rtol=1e-5, atol=1e-6)
        want = hvp(fn, args, (v,), wrt=k, route="reverse_over_forward")
        assert_close(got, want, rtol=1e-9, atol=1e-12)
