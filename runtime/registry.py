"""The rule registry: template rules (one line of math per argument), declared
non-differentiable functions, and user rules registered with `rrule`.

A template is a Python expression in `g` (the output cotangent, a value),
`ans` (the primal output), the function's parameter names, `np`, `math`, and
the helpers registered with `template_helper`. The compiler expands templates
inline into the generated adjoint; `Rule.rrule` evaluates the same templates
at run time, so `grad(np.sin)` and compiled code share one definition.
"""
import sys
import inspect
import math
import types

import numpy as np

from .thunks import Thunk, unthunk
from . import jvp as _jvp
from . import traits as _traits
from .jvp import DIAGONAL, JOINT, LINEAR, REDUCTION, NoJvp  # noqa: F401  (defvjp's jvp= markers)
from .complex_safety import any_complex, guarded, refusal, refuse_complex

# Why a position has no derivative. The compiler checks the reason where a value being
# differentiated reaches the position: ZERO and SHAPE give a true zero cotangent, NONE
# (no rule to give) makes it refuse the program rather than return a silent zero.
ZERO = "zero"      # the derivative is zero wherever it exists: predicates, integers, floor
SHAPE = "shape"    # only the argument's shape or dtype is read: np.zeros_like(x), np.ndim(x)
NONE = "none"      # a derivative exists or may, but no rule gives it: a gamma draw's shape
REASONS = (ZERO, SHAPE, NONE)
REASONS_OR_NONE = REASONS + (None,)

# Names a template (and the generated code) may use besides its own parameters.
TEMPLATE_NAMESPACE = {"np": np, "math": math, "refuse_complex": refuse_complex}

_RULES = {}
_METHODS = {}

# Bumped by every registration: code compiled under an older generation is rebuilt.
generation = 0


def _registered():
    global generation
    generation += 1


_COTANGENT_NAMES = ("g", "ans")   # a template's own names for the cotangent, output


def template_helper(fn=None, **traits):
    """Make `fn` callable from templates and generated code under its own name;
    `@template_helper(shape_only=(1,), pure=True)` also declares its traits
    (runtime/traits.py HELPER_TRAITS)."""
    if fn is None:
        return lambda f: template_helper(f, **traits)
    _traits.declare_helper(fn, **traits)
    known = TEMPLATE_NAMESPACE.get(fn.__name__)
    if known is not None and known is not fn and \
            (getattr(known, "__module__", None), getattr(known, "__qualname__", None)) \
            != (fn.__module__, fn.__qualname__):    # (a reload of the same module is fine)
        raise ValueError(f"template helper {fn.__name__!r} is already defined in "
                         f"{known.__module__}: give the new one another name")
    TEMPLATE_NAMESPACE[fn.__name__] = fn
    return fn


class Rule:
    """How to differentiate one callable.

    kind is "template" (inline math per parameter), "nondiff" (output carries
    no derivative) or "custom" (a user rrule returning (output, pullback)).
    A position without a template has a reason (ZERO, SHAPE or NONE): `why`,
    one for all positions or a dict by parameter name; a template rule's
    explicit None means ZERO, a parameter left out means NONE.
    """

    def __init__(self, fn, kind, signature=None, templates=(), custom=None, name=None,
                 why=None, complex_ok=None, jvp=None):
        self.fn = fn
        self._complex_ok = complex_ok   # for a rule made unregistered (a record's)
        self.kind = kind
        self.name = name or _qualname(fn)
        self.custom = custom
        self.call_custom = custom and _with_array_cotangents(custom, self)   # code calls it
        self.signature = _parse_signature(signature) if signature else None
        self.params = list(self.signature.parameters) if self.signature else []
        if self.signature and len(templates) > len(self.params):   # zip would drop the rest
            raise ValueError(f"{self.name}: {len(templates)} templates for "
                             f"{len(self.params)} parameters")
        self.templates = {p: t for p, t in zip(self.params, templates)
                          if t not in REASONS_OR_NONE}
        if why is None:         # a template position may also say why it has no template
            why = {p: ZERO if t is None else t for p, t in zip(self.params, templates)
                   if t in REASONS_OR_NONE}
        self.why = why
        self._vjps = {}
        traits = _traits.traits_of(fn)
        self._declared_jvp = jvp
        self.jvps = _jvp.declared_terms(self.params, self.templates, jvp, bool(
            traits.get("elementwise") or traits.get("scalar_args"))) if templates else {}
        self._jvp_fns = {}

    def reason(self, param):
        """Why `param` (a name, or a position when there is no signature) has no template."""
        if isinstance(self.why, str):
            return self.why
        return self.why.get(param, self.why.get("*", NONE))

    @property
    def complex_ok(self):
        """Whether the rule is declared right for complex values (runtime/complex_safety.py);
        a nondiff rule's zero holds for them too."""
        if self._complex_ok is not None:
            return self._complex_ok
        return self.kind == "nondiff" or self.fn in _traits.PRIMITIVE["complex_ok"]

    def template_text(self, param, guard):
        """The template for `param`, behind a refusal of complex values if `guard`."""
        text = self.templates[param]
        return guarded(self.name, param, text) if guard else text

    @property
    def traits(self):
        """{trait: value} declared for this rule's function (runtime/traits.py)."""
        return _traits.traits_of(self.fn)

    def bind(self, args, kwargs):
        """Map call arguments to parameter names, defaults filled in."""
        bound = self.signature.bind(*args, **kwargs)
        bound.apply_defaults()
        return dict(bound.arguments)

    def vjp_function(self, param):
        """The template for `param` as a function of (g, ans, **params)."""
        if param not in self._vjps:
            args = ", ".join(["g", "ans"] + self._own_params())
            code = f"lambda {args}: {self.template_text(param, not self.complex_ok)}"
            self._vjps[param] = eval(code, TEMPLATE_NAMESPACE)
        return self._vjps[param]

    def rrule(self, *args, **kwargs):
        """(output, pullback) for a call; pullback gives one cotangent per positional arg."""
        if self.kind == "custom":
            if not self.complex_ok and any_complex(args) or \
                    kwargs and not self.complex_ok and any_complex(kwargs.values()):
                raise refusal(self.name)
            return self.call_custom(*args, **kwargs)
        ans = self.fn(*args, **kwargs)
        if self.kind == "nondiff":
            return ans, lambda g: (None,) * len(args)
        values = self.bind(args, kwargs)
        names = self.params[:len(args)]

        def pullback(g):
            return tuple(self._lazy(p, g, ans, values) for p in names)
        return ans, pullback

    @property
    def custom_jvp(self):
        """A custom rule's declared JVP: LINEAR, JOINT, a function or None."""
        return self._declared_jvp if self.kind == "custom" else None

    @property
    def has_jvp(self):
        """Whether every parameter with a cotangent template has a tangent term."""
        return self.kind == "template" and set(self.jvps) == set(self.templates) or \
            self.kind == "custom" and self._declared_jvp is not None

    def frule(self, tangents, *args, **kwargs):
        """(output, output tangent) for a call, `tangents` one per positional argument or
        a dict by parameter name (None: zero); the output tangent is None when no term
        applies (runtime/jvp.py)."""
        given = tangents.items() if isinstance(tangents, dict) else zip(self.params, tangents)
        given = {p: t for p, t in given if t is not None}
        if not self.has_jvp and self.kind == "custom" or not self.traits.get(
                "complex_jvp") and (any_complex(args) or any_complex(kwargs.values()) or
                                    any_complex(given.values())):
            raise NoJvp(f"{self.name}: no forward rule for this call")
        ans = self.fn(*args, **kwargs)
        if self.kind == "custom":           # varargs: tangents by position
            return ans, _jvp.custom_term(self._declared_jvp, self.fn, tangents, args, kwargs)
        values = self.bind(args, kwargs) if self.signature else {}
        total = None
        for param, t in given.items():
            if param in self.jvps:
                total = _jvp.add_tangents(total, self._term(param, t, ans, values, args,
                                                            kwargs))
            elif param in self.templates or self.reason(param) == NONE:
                raise NoJvp(f"{self.name}: no forward rule for the tangent of {param!r}")
        return ans, total

    def _term(self, param, t, ans, values, args, kwargs):
        term = self.jvps[param]
        own = {p: v for p, v in values.items() if p not in _COTANGENT_NAMES}
        if term in (LINEAR, JOINT):
            others = [p for p, other in self.jvps.items() if other == JOINT and p != param]
            replace = {self._place(p, args): _jvp.zeros_of(values[p]) for p in others
                       if self._place(p, args) in kwargs or p in self.params[:len(args)]}
            replace[self._place(param, args)] = t
            return _jvp.linear_term(self.fn, args, kwargs, replace)
        if term == DIAGONAL:
            return _jvp.diagonal_term(self.vjp_function(param), param, t, ans, own)
        if term == REDUCTION:
            return _jvp.reduction_term(self.vjp_function(param), t, ans, own)
        if param not in self._jvp_fns:
            self._jvp_fns[param] = eval(_jvp.compile_term(term, param, self._own_params()),
                                        TEMPLATE_NAMESPACE)
        return self._jvp_fns[param](t, ans, **own)

    def _place(self, param, args):
        """Where `param` is in a call: its position, or its name when passed by keyword."""
        k = self.params.index(param)
        return k if k < len(args) else param

    def _lazy(self, param, g, ans, values):
        if param not in self.templates:
            return None
        vjp = self.vjp_function(param)
        own = {p: v for p, v in values.items() if p not in _COTANGENT_NAMES}
        return Thunk(lambda: vjp(unthunk(g), ans, **own))

    def _own_params(self):
        """Parameters a template may read besides g and ans: a record's field named
        `g` or `ans` (`Pendulum(g, L)`) is not read by its template, which means the
        cotangent by `g`."""
        return [p for p in self.params if p not in _COTANGENT_NAMES]

    def __repr__(self):
        return f"<Rule {self.kind} {self.name}>"


def _with_array_cotangents(custom, rule):
    def call(*args, **kwargs):
        ans, pullback = custom(*args, **kwargs)
        return ans, _arrays_for_arrays(pullback, args)
    call.__name__, call.__qualname__ = custom.__name__, custom.__qualname__
    call.thunkgrad_custom_rule = rule       # (hvp forward over reverse: flat_custom.py)
    return call


def _arrays_for_arrays(pullback, args):
    """A user pullback's list or tuple for an array argument, as an array: the array's
    other rules would apply Python's list arithmetic to it (`g * 2` repeats a list)."""
    arrays = [k for k, a in enumerate(args) if type(a) is np.ndarray]
    if not arrays:
        return pullback

    def arrays_pullback(g):
        cots = list(pullback(g))
        for k in arrays:
            if k < len(cots) and isinstance(cots[k], (list, tuple, Thunk)):
                cots[k] = _array_cotangent(cots[k])
        return tuple(cots)
    return arrays_pullback


def _array_cotangent(c):
    if isinstance(c, Thunk):
        return Thunk(lambda: _array_cotangent(unthunk(c)))
    return np.asarray(c) if isinstance(c, (list, tuple)) else c


def _qualname(fn):
    module = getattr(fn, "__module__", None) or ""
    name = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", repr(fn))
    return f"{module}.{name}" if module else name


def _parse_signature(text):
    return inspect.signature(eval(f"lambda {text}: None"))


def defvjp(fn, signature, *templates, name=None, jvp=None, **traits):
    """Register template rules: `defvjp(np.tanh, "x", "g * (1 - ans ** 2)", elementwise=True)`.

    `signature` lists the parameters as NumPy names them (with defaults);
    templates follow in parameter order, None for one whose derivative is zero
    (an index, an axis, a count), NONE for one no rule covers (a Bessel function's
    order); a parameter left out has no rule (NONE). Keywords declare the
    function's traits (runtime/traits.py PRIMITIVE_TRAITS). `jvp` gives the tangent
    terms (runtime/jvp.py): a template in `t_<param>`, LINEAR, JOINT, DIAGONAL or REDUCTION, one for
    every differentiated parameter or a tuple in parameter order.
    """
    _traits.declare(fn, **traits)
    _RULES[fn] = Rule(fn, "template", signature, templates, name=name, jvp=jvp)
    _registered()
    return fn


def nondiff(*fns, why, signature=None, **traits):
    """Declare functions whose output carries no derivative, and why.

    `why` is ZERO (comparisons, argmax, floor), SHAPE (np.zeros_like, np.ndim)
    or NONE (a derivative exists but no rule gives it), or a dict from
    parameter name (`signature` needed) to reason, "*" for the rest. Keywords
    declare the functions' traits (runtime/traits.py PRIMITIVE_TRAITS).
    """
    if isinstance(why, str) and why not in REASONS or \
            isinstance(why, dict) and not set(why.values()) <= set(REASONS):
        raise ValueError(f"nondiff: why must be one of {REASONS}, got {why!r}")
    for fn in fns:
        _traits.declare(fn, **traits)
        _RULES[fn] = Rule(fn, "nondiff", signature, why=why)
    _registered()


def declare(*fns, **traits):
    """Declare traits of callables that have no rule of their own (`np.require` may
    return a view): `declare(np.require, view=True)`."""
    for fn in fns:
        _traits.declare(fn, **traits)
    _registered()


def helper(**traits):
    """Decorator declaring the traits of a function generated code calls by name
    (runtime/traits.py HELPER_TRAITS): `@helper(in_place=True)`."""
    def register(fn):
        _traits.declare_helper(fn, **traits)
        return fn
    return register


def rrule(fn, jvp=None, **traits):
    """Decorator registering a user rule for `fn` (ChainRules' rrule convention).

    The rule takes fn's arguments and returns (output, pullback); pullback(g)
    returns one cotangent per positional argument: a value, a Thunk, or None.
    Keywords declare fn's traits: `@rrule(f, complex_ok=True)` lets complex
    arguments reach the rule (refused otherwise: runtime/complex_safety.py). `jvp`:
    LINEAR or JOINT over the positional arguments, or a function of (tangents, *args,
    **kwargs) returning the output's tangent (runtime/jvp.py custom_term).
    """
    def register(rule_fn):
        _traits.declare(fn, **traits)
        _RULES[fn] = Rule(fn, "custom", custom=rule_fn, name=_qualname(fn), jvp=jvp)
        _registered()
        return rule_fn
    return register


def lookup(fn):
    """The Rule for `fn`, or None. Unhashable callables have no rule."""
    try:
        rule = _RULES.get(fn)
    except TypeError:
        return None
    if rule is None and _PENDING and _load_pending():
        rule = _RULES.get(fn)
    if rule is None and type(fn) is types.FunctionType:   # a derivative function's own
        rule = fn.__dict__.get(OWN_RULE)                   # (transform/derivatives.py)
        rule = rule if isinstance(rule, Rule) else None
    return rule


OWN_RULE = "thunkgrad_rule"    # a function carrying its rule, not registered globally:
                               # registering bumps `generation`, rebuilding compiled code


_PENDING = {}       # module name -> loader of the rules for it, run once it is imported


def register_when_imported(module, loader):
    """Run `loader` (which registers rules) once `module` is in sys.modules: optional
    libraries cost nothing until the user's code imports them."""
    _PENDING[module] = loader


def _load_pending():
    ready = [m for m in _PENDING if m in sys.modules]
    for module in ready:
        _PENDING.pop(module)()
    return bool(ready)


def defmethod(name, fn, **traits):
    """An ndarray method `x.name(...)` behaves like `fn(x, ...)`; keywords declare the
    method's traits (runtime/traits.py METHOD_TRAITS): `defmethod("ravel", np.ravel,
    view=True)`."""
    _traits.declare_method(name, **traits)
    _METHODS[name] = fn
    _registered()


def declare_method(*names, **traits):
    """Declare traits of ndarray methods, mapped or not (`x.fill(v)` has no function):
    `declare_method("fill", in_place=True)`."""
    for name in names:
        _traits.declare_method(name, **traits)
    _registered()


def method_function(name):
    """The function an ndarray method call maps to, or None."""
    return _METHODS.get(name)


def registered_names():
    """(name, kind) of every registered rule, for docs and coverage tests."""
    return sorted((rule.name, rule.kind) for rule in _RULES.values())
