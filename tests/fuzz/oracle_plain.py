"""The plain_lowering class's oracle: another class's program through the plain lowering
(docs/ir.md, "Second lowering"). `value_and_grad(f, lowering="plain")` under the policies
it takes (loop, eager), judged as the reverse oracle judges a scalar program (the value,
each gradient against central differences, no argument changed); a refusal is a
refusal (a construct outside its subset), a program with a non-scalar output is skipped
(the reverse oracle judges those through `vjp`, which the plain lowering does not offer).
tools/plain_fuzz.py runs whole classes this way by hand."""
from .oracle import _judge_call, judge_module

PLAIN_POLICIES = ("loop", "eager")      # (flat and nested defer by design: refused)


def judge_plain(case):
    return judge_module(case, _plain_call)


def _plain_call(case, f, args, phase):
    return _judge_call(case, f, args, phase, lowering="plain", policies=PLAIN_POLICIES)
