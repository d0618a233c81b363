"""`jvp` called inside code being differentiated: its rules, in both modes.

    def g(x):
        return np.sum(jvp(f, (x,), (v,))[1])        grad(g), jvp(g, ...) work

jvp(f, primals, tangents) is call_jvp(f, {name: tangent}, *primals) (forward mode's call
of a user function, transform/forward_api.py), whose reverse rule (reverse mode over
f's generated `_jvp`, transform/forward_reverse.py) and tangent (forward mode over it,
transform/forward_nested.py) are this rule's, the cotangents and tangents of `primals`
and `tangents` regrouped as the tuples they came in. f must be a function defined with
def (a derivative function, a bound method or a NumPy function is refused, by
TransformError, when the call runs)."""
from runtime import registry

from .errors import TransformError
from .forward_api import jvp
from .forward_arguments import _like, _tangents
from .public.field_reads import located_fields
from .forward_nested import _plain_function, call_jvp_tangent
from .forward_reverse import call_jvp_rule
from .public.parameters import _defaults, _params, _wrt_names


def _given(fn, primals, tangents, wrt):
    """(primals as a tuple, the differentiated parameters' names, {name: tangent})."""
    if not _plain_function(fn) or getattr(fn, "__self__", None) is not None:
        raise TransformError(
            f"differentiating a call of jvp({getattr(fn, '__name__', fn)!r}, ...): only a "
            "function defined with def is differentiated through jvp (not a derivative "
            "function, a bound method or a NumPy function)",
            hint="wrap it in a def of your own, or differentiate the outer function by "
            "finite differences")
    primals = tuple(primals)
    if wrt is None:
        wrt = tuple(range(min(len(primals), len(_params(fn)))))
    names, _ = _wrt_names(fn, wrt if isinstance(wrt, (tuple, list)) else (wrt,))
    values = {**_defaults(fn), **dict(zip(_params(fn), primals))}
    with located_fields(fn, values.items()):
        given = {n: _like(n, values.get(n), t)
                 for n, t in zip(names, _tangents(names, tangents))}
    return primals, names, given


def jvp_tangent(tangents, fn, primals, given_tangents, *, wrt=None, policy=None):
    """The tangent of jvp(fn, primals, given_tangents, wrt=wrt) along `tangents` by
    position: (fn's, the primals' tuple, the tangents' tuple)."""
    t_fn, t_primals, t_tangents = (list(tangents) + [None] * 3)[:3]
    primals, names, given = _given(fn, primals, given_tangents, wrt)
    t_given = None if t_tangents is None else dict(zip(names, t_tangents))
    t_args = [None] * len(primals) if t_primals is None else list(t_primals)
    return call_jvp_tangent((t_fn, t_given, *t_args), fn, given, *primals)


@registry.rrule(jvp, jvp=jvp_tangent)
def jvp_rule(fn, primals, tangents, *, wrt=None, policy=None):
    """jvp's value and the pullback of its (output, output tangent) pair: (None, the
    primals' cotangents, the tangents' cotangents)."""
    primals, names, given = _given(fn, primals, tangents, wrt)
    out, pullback = call_jvp_rule(fn, given, *primals)

    def jvp_pullback(g):
        cots = pullback(g)
        return None, tuple(cots[2:]), tuple(cots[1].get(n) for n in names)
    return out, jvp_pullback
