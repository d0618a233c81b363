"""What `grad(f, lowering="plain")` and `value_and_grad(f, lowering="plain")` run per call:
the plain lowering's one function (reverse/plain_rule.py), `f_plain(seed, *args) ->
(value, gradients)`, compiled per argument signature (shape-specialised, through the
rule cache under its own key).

The plain lowering is the compiled backend's input (issue 20; lowering="numba" jits it:
public/numba_gradient.py, whose NumbaGradient overrides `run`): the accumulation
policies that defer (flat, nested) make thunks by design and are refused, as are
has_aux and memory_limit (not plumbed through it).
"""
from runtime import unthunk
from .boundary import _check_inputs, _is_scalar, materialise, refuse_inplace_args
from .checks import not_scalar
from .complex_args import real_checked
from .field_reads import located_fields
from .gradient_function import _run
from .parameters import _bound_args, _defaults, _full_signature, _params, _unwrap, _wrt_names
from .unshared import owned

LOWERINGS = ("gast", "plain", "numba")
PLAIN_POLICIES = ("loop", "eager")
_HOOKS = {}          # "compiled": transform.api.compiled_plain


def provide(compiled):
    """transform.api hands over its compile cache's plain entry."""
    _HOOKS["compiled"] = compiled


def check_lowering(lowering, policy=None, has_aux=False, memory_limit=None):
    """ValueError for a lowering (or an option with it) the plain path does not take."""
    if lowering not in LOWERINGS:
        raise ValueError(f"unknown lowering {lowering!r}; choose one of {', '.join(LOWERINGS)}")
    if lowering == "gast":
        return
    if policy is not None and policy not in PLAIN_POLICIES:
        raise ValueError(f"lowering={lowering!r} takes policy {' or '.join(PLAIN_POLICIES)}, "
                         f"not {policy!r} (it defers cotangents in thunks)")
    if has_aux or memory_limit is not None:
        raise ValueError(f"lowering={lowering!r} takes neither has_aux nor memory_limit")


class PlainGradient:
    """grad's work per call through the plain lowering: (value, gradient)."""

    def __init__(self, fn, wrt, policy):
        self.fn, self.wrt, self.policy = fn, wrt, policy

    def __call__(self, args, kwargs):
        plain, default_policy = _unwrap(self.fn)
        policy = self.policy or default_policy
        check_lowering("plain", policy)
        names, single = _wrt_names(plain, self.wrt)
        _check_inputs(_params(plain, keyword_only=True), names, args, kwargs)
        rule = _HOOKS["compiled"](plain, names, policy, _full_signature(plain, args, kwargs))
        if rule.inplace_args:
            refuse_inplace_args(rule, _params(plain), args, kwargs)
        real_checked(rule, args, kwargs)
        try:
            out, cotangents = self.run(rule, args, kwargs)
        except (TypeError, ValueError):     # the seed 1.0 met a tuple output, say so
            _refuse_non_scalar(plain, args, kwargs)
            raise
        if not _is_scalar(out):
            raise not_scalar(plain, out)
        values = _bound_args(_params(plain), args, kwargs)
        defaults = _defaults(plain)
        with located_fields(plain, [(n, values.get(n, defaults.get(n))) for n in names]):
            grads = owned(tuple(materialise(unthunk(c), values[n] if n in values else
                                            defaults[n]) for c, n in zip(cotangents, names)),
                          (args, kwargs, defaults))
        return out, grads[0] if single else grads

    def run(self, rule, args, kwargs):
        """The plain function's (value, cotangents), seeded with 1.0."""
        return _run(lambda *given: rule.rrule(1.0, *given, **kwargs), args)


def _refuse_non_scalar(plain, args, kwargs):
    """The plain lowering seeds its output with 1.0 before it is known: a tuple or list
    output fails inside the backward sweep (`part(1.0, 0)`). Where the function's own
    output is not a scalar, grad's refusal instead (the plain function run once more)."""
    try:
        out = plain(*args, **kwargs)
    except Exception:                   # noqa: BLE001 - the first error is the answer
        return
    if not _is_scalar(out):
        raise not_scalar(plain, out) from None
