"""The loop pass, consulted by stage 6 (reverse) at every accumulation into an adjoint:
deferred or materialised.

Under the "loop" policy (the product):

    straight-line code                     inside a loop body
    dW = accum(dW, Thunk(lambda ...: e))   dW = accumulate_into(dW, e)

Outside loops a contribution stays a Thunk and joins one flat pending sum
(`accum`); nothing is computed until a consumer forces it. Inside a loop it is
computed at once and added in place into a buffer the generated code owns
(`own` before the loop, `accumulate_into` in it), so no chain of thunks grows
with the trip count. A callee called inside a loop body is compiled `materialised`:
its straight-line code computes contributions at once as a loop body does, so the
promise holds through calls. The other policies exist for comparison:
"eager" (materialise everywhere, fresh sums), "flat" (never materialise, one
flat list), "nested" (never materialise, each sum wraps the last: the bug).
"""
from ..ir.generated import Own, Unthunk, ZeroBuffer
from ..ir.nodes import load
from ..ir.statements import Accumulate
from ..ir.recognize import is_call

POLICIES = ("loop", "eager", "flat", "nested")


class Form:
    """What an adjoint variable may hold at a point of the backward sweep.

    zero: "yes" (None), "no" (a cotangent) or "maybe"; thunk: may be a Thunk;
    owned: a buffer the generated code allocated itself (safe to update in place).
    written: for a zeroed array buffer this code allocated, the regions (see
    transform/reverse/slice_adds.py) written since, outside which it is still zero;
    None when unknown (any other form).
    """

    __slots__ = ("zero", "thunk", "owned", "nullable", "container", "written")

    def __init__(self, zero="yes", thunk=False, owned=True, nullable=False, container=False,
                 written=None):
        self.zero, self.thunk, self.owned = zero, thunk, owned
        self.nullable = nullable          # a Thunk that may evaluate to None (zero)
        # may hold a list or tuple of entries' cotangents (`b[0]` of a list b): `+`
        # would concatenate or fail on its None entries, accum adds entry by entry
        self.container = container
        self.written = written

    def key(self):
        return (self.zero, self.thunk, self.owned, self.nullable, self.container,
                self.written)

    def join(self, other):
        zero = self.zero if self.zero == other.zero else "maybe"
        return Form(zero, self.thunk or other.thunk, self.owned and other.owned,
                    self.nullable or other.nullable, self.container or other.container,
                    self.written if self.written == other.written else None)


ZERO = Form()


def _added_whole(target, form, state):
    """`d += c` adds everywhere: no region of d is still zero after it (a later slice
    read assigning `d[5:] = g` would drop c's part there)."""
    if form.written is not None:
        state[target] = Form(form.zero, form.thunk, form.owned, form.nullable, form.container)


class State(dict):
    """adjoint name -> Form; a missing name is zero."""

    def form(self, name):
        return self.get(name, ZERO)

    def copy(self):
        return State(self)                  # Forms are never changed in place: share them

    def join(self, other):
        out = State()
        for k in self.keys() | other.keys():
            a, b = self.form(k), other.form(k)
            out[k] = a if a is b else a.join(b)
        return out

    def key(self):
        return tuple(sorted((k, v.key()) for k, v in self.items()))


class LoopPass:
    """Emits accumulations for one policy; `in_loop` and `crossing` describe the context."""

    def __init__(self, policy, explain=False, consumed=False, materialised=False):
        if policy not in POLICIES:
            raise ValueError(f"unknown policy {policy!r}; choose one of {', '.join(POLICIES)}")
        self.policy = policy
        self.explain = explain
        self.consumed = consumed
        # a callee of a loop body ("loop" policy): straight-line code computes at once
        self.materialised = materialised and policy == "loop"
        self.names = None                 # the Vocabulary, set once the pipeline has one

    def call(self, role, *args):
        return self.names.call(role, *args)

    def defers(self, in_loop):
        """Whether a computed contribution is wrapped in a Thunk here.

        Under "loop", straight-line contributions are deferred unless every output
        of the adjoint is certainly consumed (grad, value_and_grad and vjp force
        all they return): then a thunk would only add overhead.
        """
        if self.policy in ("flat", "nested"):
            return True
        return self.policy == "loop" and not in_loop and not self.consumed \
            and not self.materialised

    def cotangent(self, name, form, in_loop):
        """How a consumer reads adjoint `name`: unthunk only if it may be a Thunk."""
        if form.thunk:
            return self.call("unthunk", load(name))
        return load(name)

    def contribute(self, target, value, lazy, maybe_none, state, in_loop, crossing,
                   numeric=False, container=False, fresh=False):
        """Typed statements (`ir.Accumulate`, the caller lowers them) adding `value`
        into adjoint `target`.

        lazy: `value` may be a Thunk; maybe_none: `value` may be None (zero);
        numeric: `value` is an array or number (so `+` adds, never concatenates);
        container: `value` may be a list of entries' cotangents (`b[0]` of a list b);
        fresh: `value` is an array buffer no other name holds (transform/reverse/
        fresh_buffers.py): a zero adjoint takes it as a buffer it owns, without a copy.
        """
        form = state.form(target)
        zero = "maybe" if maybe_none and form.zero != "no" else "no"
        if self.policy == "eager" or (self.policy == "loop" and in_loop) or self.materialised:
            if lazy:
                value = self.call("unthunk", value)
            if crossing and self.policy == "loop":
                if numeric and not maybe_none and form.zero == "no" and form.owned \
                        and not form.thunk:
                    _added_whole(target, form, state)
                    return [Accumulate(target, value, "in_place")]
                state[target] = Form(zero, False, True)
                if form.zero == "yes":      # zero here: never read it (unbound or stale)
                    return [Accumulate(target, value, "set" if fresh else "own")]
                if is_call(value, "unbroadcast"):       # one call, not two, per step
                    return [Accumulate(target, value, "accumulate_unbroadcast")]
                return [Accumulate(target, value, "accumulate_into")]
            if form.zero == "yes":
                state[target] = Form(zero, False, fresh)
                return [Accumulate(target, value, "set")]
            if numeric and form.zero == "no" and not form.thunk and not maybe_none \
                    and not form.container:
                return self.add(target, value, form, state)
            if self.policy == "loop" and numeric and form.owned and not form.thunk \
                    and not form.container:         # None or a buffer this code owns
                state[target] = Form(zero, False, True)
                return [Accumulate(target, value, "accumulate_into")]
            state[target] = Form(zero, False, False, container=form.container)
            return [Accumulate(target, value, "accum_eager")]
        if form.zero == "yes":
            state[target] = Form(zero, lazy, fresh and not lazy, lazy and maybe_none,
                                 container=container)
            return [Accumulate(target, value, "set")]
        if self.policy == "loop" and numeric and not lazy and form.zero == "no" \
                and not form.thunk and not maybe_none and not form.container:
            return self.add(target, value, form, state)
        fn = {"loop": "accum", "flat": "accum_flat", "nested": "accum_nested"}[self.policy]
        state[target] = Form(zero, True, False, form.nullable or maybe_none)
        return [Accumulate(target, value, fn)]

    def add(self, target, value, form, state):
        """`d = d + c` makes a fresh buffer the code owns; later adds go in place (`d += c`).

        Eager keeps fresh sums: that is the policy being compared.
        """
        if self.policy == "eager":                # a fresh array per accumulation
            state[target] = Form("no", False, False)
            return [Accumulate(target, value, "accum_eager")]
        if form.owned:
            _added_whole(target, form, state)
            return [Accumulate(target, value, "in_place")]
        state[target] = Form("no", False, True)
        return [Accumulate(target, value, "sum")]

    def before_loop(self, touched, crossing, state, zeros=None):
        """Materialise adjoints a loop body accumulates into (loop policy only): typed
        statements (ir/generated.py: `ZeroBuffer`, `Own`, `Unthunk`) the caller lowers.

        zeros: adjoint -> parameter for parameters of known shape (a rule specialised to
        argument shapes); a crossing one still zero gets an owned zero buffer, so the
        body adds in place (`db += v`) without a call per step."""
        if self.policy != "loop":
            return []
        out = []
        for name in sorted(touched):
            form = state.form(name)
            if form.zero == "yes" and zeros and name in crossing and name in zeros:
                out.append(ZeroBuffer(name, zeros[name]))
                state[name] = Form("no", False, True)
                continue
            if form.zero == "yes":
                continue
            if name in crossing and not form.owned:
                out.append(Own(name))
                state[name] = Form(form.zero, False, True)
            elif form.thunk:
                out.append(Unthunk(name))
                state[name] = Form(form.zero, False, form.owned)
        return out

    def at_join(self, name, form_a, form_b):
        """Whether branch forms must be reconciled by materialising the thunk side."""
        return (self.policy == "loop" and form_a.thunk != form_b.thunk
                and form_a.zero != "yes" and form_b.zero != "yes")
