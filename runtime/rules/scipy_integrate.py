"""scipy.integrate.odeint and solve_ivp, in the initial state and the `args` parameters, by
the adjoint method (registered only when SciPy imports).

ys = odeint(f, y0, t, args) solves dy/dt = f(y, t, *args). Backwards from t[-1] to
t[0], one odeint call per interval solves the augmented system
    dy/dt = f,   da/dt = -a^T df/dy,   dp/dt = -a^T df/dargs
from (ys[i], a = g[i] + ..., p) at t[i] to t[i-1], adding g[i-1] to a there; then
a = the cotangent of y0 and p that of args. The vector-Jacobian products of f come from
thunkgrad itself (f is compiled like any user function: runtime/callees.py). The state y
is recomputed backwards rather than stored, as the well-known libraries do: the cotangents
are as exact as the solver's rtol/atol (the backward solves use the call's own), and a
system unstable backwards in time loses accuracy. The times `t` carry no rule, nor f's
closure: a differentiated value reaching `func` or `t` is refused at compile time.
full_output=True and Dfun are refused (TypeError). solve_ivp's result is an object: its
cotangent is a dict by attribute, of which `y` carries one; the rule needs t_eval (the
output times fixed; sol.t is then constant), no events and vectorized=False, and solves
backwards with the call's method and options.
scipy.integrate.trapezoid is np.trapezoid (signals.py's rule, in y, x and dx: session 40,
red41's pharmacokinetic AUCs).
"""
import numpy as np
from scipy import integrate

from ..callees import function_jvp, function_vjp
from ..complex_safety import RuleRefused
from ..registry import LINEAR, NONE, defvjp, template_helper

SIGNATURE = ("func, y0, t, args=(), Dfun=None, col_deriv=0, full_output=0, ml=None, mu=None, "
             "rtol=None, atol=None, tcrit=None, h0=0.0, hmax=0.0, hmin=0.0, ixpr=0, mxstep=0, "
             "mxhnil=0, mxordn=12, mxords=5, printmessg=0, tfirst=False")
_LAST = [None]          # (g, ans, cotangents): both templates share one backward solve


def _floats(args):
    return [k for k, a in enumerate(args) if np.issubdtype(np.asarray(a).dtype, np.floating)]


def _flat(parts):
    return np.concatenate([np.ravel(p) for p in parts]) if parts else np.zeros(0)


def _split(vector, likes):
    out, start = [], 0
    for like in likes:
        size = np.size(like)
        out.append(vector[start:start + size].reshape(np.shape(like)))
        start += size
    return out


def _augmented(func, args, float_positions, n, tfirst):
    """The backward dynamics of (y, a, p), flattened."""
    wrt = (0,) + tuple(2 + k for k in float_positions)

    def dynamics(state, time):
        y, a = state[:n], state[n:2 * n]
        call = (time, y, *args) if tfirst else (y, time, *args)
        positions = wrt if not tfirst else (1,) + wrt[1:]
        dy, pullback = function_vjp(func, positions, *call)
        cots = pullback(a)
        parts = [-np.asarray(c if c is not None else np.zeros_like(args[k]), dtype=float)
                 for c, k in zip(cots[1:], float_positions)]
        return np.concatenate([np.asarray(dy, dtype=float), -np.asarray(cots[0], dtype=float),
                               _flat(parts)])
    return dynamics


def _adjoint(g, ys, times, func, args, tfirst, step):
    """(cotangent of y0, of each of args) given g and ys, both (len(times), n), and
    step(dynamics, state, t_from, t_to) -> the state at t_to."""
    args = tuple(args) if isinstance(args, (tuple, list)) else (args,)
    positions = _floats(args)
    n = ys.shape[1]
    dynamics = _augmented(func, args, positions, n, tfirst)
    a, p = g[-1].copy(), np.zeros(sum(np.size(args[k]) for k in positions))
    for i in range(len(times) - 1, 0, -1):
        end = step(dynamics, np.concatenate([ys[i], a, p]), times[i], times[i - 1])
        a, p = end[n:2 * n] + g[i - 1], end[2 * n:]
    parts = dict(zip(positions, _split(p, [args[k] for k in positions])))
    return a, tuple(parts.get(k) for k in range(len(args)))


def _shared(g, ans, solve):
    """The backward solve for (g, ans), run once for both templates."""
    last = _LAST[0]
    if last is None or last[0] is not g or last[1] is not ans:
        _LAST[0] = last = (g, ans, solve())
    return last[2]


@template_helper
def odeint_vjp(g, ans, func, y0, t, args, Dfun, full_output, rtol, atol, tfirst, wrt):
    """Cotangent of y0 (wrt="y0") or of the args tuple (wrt="args") in odeint."""
    if full_output or Dfun is not None:
        raise TypeError("scipy.integrate.odeint has a rule for full_output=0 and Dfun=None "
                        "only")
    def step(dynamics, state, t_from, t_to):
        return integrate.odeint(dynamics, state, [t_from, t_to], rtol=rtol, atol=atol)[-1]

    def solve():
        rows = np.asarray(g, dtype=float).reshape(len(t), -1)
        return _adjoint(rows, np.asarray(ans, dtype=float), t, func, args, tfirst, step)
    y0_cot, arg_cots = _shared(g, ans, solve)
    if wrt == "y0":
        return y0_cot.reshape(np.shape(y0))
    return arg_cots                       # odeint refuses args that are not a tuple


_TEMPLATE = ("odeint_vjp(g, ans, func, y0, t, args, Dfun, full_output, rtol, atol, tfirst, "
             "{!r})")
def _sensitivities(func, y0, args, t_y0, t_args, tfirst):
    """The forward sensitivity system of dy/dt = f: (y, s) with ds/dt = df/dy s +
    df/dargs t_args and s(0) = t_y0, its tangent terms by forward mode."""
    n = np.size(y0)
    positions = [k for k in _floats(args) if t_args is not None and t_args[k] is not None]

    def dynamics(state, time):
        y, s = state[:n], state[n:].reshape(np.shape(y0))
        call = (time, y, *args) if tfirst else (y, time, *args)
        tangents = {1 if tfirst else 0: s, **{2 + k: t_args[k] for k in positions}}
        dy, ds = function_jvp(func, tangents, *call)
        return np.concatenate([np.ravel(dy), np.ravel(ds)]).astype(float)
    start = np.concatenate([np.ravel(y0), np.ravel(np.zeros(np.shape(y0)) if t_y0 is None
                                                  else t_y0)]).astype(float)
    return dynamics, start


@template_helper
def odeint_jvp(t_y0, t_args, ans, func, y0, t, args, Dfun, full_output, rtol, atol, tfirst):
    """The tangent of ys = odeint(...) along y0's and args' tangents: the sensitivity
    system solved beside y (as exact as the solver's rtol/atol, as the adjoint is)."""
    if full_output or Dfun is not None:
        raise TypeError("scipy.integrate.odeint has a rule for full_output=0 and Dfun=None "
                        "only")
    args = tuple(args) if isinstance(args, (tuple, list)) else (args,)
    dynamics, start = _sensitivities(func, y0, args, t_y0, t_args, tfirst)
    states = integrate.odeint(dynamics, start, t, rtol=rtol, atol=atol)
    return states[:, np.size(y0):].reshape(np.shape(ans))


_FORWARD = ("odeint_jvp({}, ans, func, y0, t, args, Dfun, full_output, rtol, atol, "
            "tfirst)")
defvjp(integrate.odeint, SIGNATURE, NONE, _TEMPLATE.format("y0"), NONE, _TEMPLATE.format("args"),
       *[None] * 18, jvp=(None, _FORWARD.format("t_y0, None"), None,
                          _FORWARD.format("None, t_args")))


_JACOBIAN_OPTIONS = ("jac", "jac_sparsity", "lband", "uband")


def _ivp_refused():
    """Raised again by the public API as a TransformError at the user's line."""
    return RuleRefused("scipy.integrate.solve_ivp has a rule with t_eval given (the output "
                       "times fixed), events=None and vectorized=False only. Instead: pass "
                       "t_eval=[t1] (or the times you read)")


@template_helper
def solve_ivp_vjp(g, ans, fun, t_span, y0, method, t_eval, events, vectorized, args, options,
                  wrt):
    """Cotangent of y0 or args in sol = solve_ivp(...), from the cotangent of sol.y (g is
    the result's cotangent: a dict by attribute name)."""
    if t_eval is None or events is not None or vectorized:
        raise _ivp_refused()
    g_y = None if g is None else g.get("y")
    if g_y is None:
        return None
    times, ys = np.asarray(ans.t, dtype=float), np.asarray(ans.y, dtype=float).T
    rows = np.asarray(g_y, dtype=float).T
    if times[0] != t_span[0]:              # back to the initial time, adding nothing there
        times = np.concatenate([[t_span[0]], times])
        ys = np.concatenate([np.ravel(y0)[None].astype(float), ys])
        rows = np.concatenate([np.zeros_like(rows[:1]), rows])

    # the user's Jacobian is of the primal system, not of the augmented one solved
    # backwards: the implicit methods estimate that one themselves
    backward = {k: v for k, v in options.items() if k not in _JACOBIAN_OPTIONS}

    def step(dynamics, state, t_from, t_to):
        return integrate.solve_ivp(lambda t, s: dynamics(s, t), (t_from, t_to), state,
                                   method=method, **backward).y[:, -1]
    unpacked = () if args is None else tuple(args)      # solve_ivp unpacks any iterable
    y0_cot, arg_cots = _shared(g, ans, lambda: _adjoint(rows, ys, times, fun, unpacked,
                                                        True, step))
    if wrt == "y0":
        return y0_cot.reshape(np.shape(y0))
    if isinstance(args, np.ndarray):      # args=p: the parameters are p's rows
        return np.stack([np.zeros(np.shape(p)) if c is None else c
                         for c, p in zip(arg_cots, unpacked)])
    return arg_cots if isinstance(args, tuple) else list(arg_cots)


@template_helper
def solve_ivp_jvp(t_y0, t_args, ans, fun, t_span, y0, method, t_eval, events, vectorized,
                  args, options):
    """The tangent of sol = solve_ivp(...) along y0's and args' tangents: {"y": the
    sensitivities at t_eval} (sol.y's; its cotangent is a dict by attribute too)."""
    if t_eval is None or events is not None or vectorized:
        raise _ivp_refused()
    unpacked = () if args is None else tuple(args)
    dynamics, start = _sensitivities(fun, np.ravel(y0), unpacked, t_y0,
                                     None if t_args is None else tuple(t_args), True)
    forward = {k: v for k, v in options.items() if k not in _JACOBIAN_OPTIONS}
    states = integrate.solve_ivp(lambda t, s: dynamics(s, t), t_span, start, method=method,
                                 t_eval=t_eval, **forward).y
    return {"y": states[np.size(y0):]}


_IVP = ("solve_ivp_vjp(g, ans, fun, t_span, y0, method, t_eval, events, vectorized, args, "
        "options, {!r})")
_IVP_JVP = ("solve_ivp_jvp({}, ans, fun, t_span, y0, method, t_eval, events, vectorized, "
            "args, options)")
defvjp(integrate.solve_ivp, "fun, t_span, y0, method='RK45', t_eval=None, dense_output=False, "
       "events=None, vectorized=False, args=None, **options", NONE, NONE, _IVP.format("y0"),
       None, NONE, None, None, None, _IVP.format("args"), NONE,
       jvp=(None, None, _IVP_JVP.format("t_y0, None"), None, None, None, None, None,
            _IVP_JVP.format("None, t_args")))

if hasattr(integrate, "trapezoid"):                       # SciPy 1.6+ (trapz before)
    defvjp(integrate.trapezoid, "y, x=None, dx=1.0, axis=-1",
           "trapezoid_vjp(g, y, x, dx, axis, 0)", "trapezoid_vjp(g, y, x, dx, axis, 1)",
           "trapezoid_vjp(g, y, x, dx, axis, 2)", None, numeric=True,
           jvp=LINEAR)   # real only: SciPy's sum takes y's dtype (a complex x's part dropped)
