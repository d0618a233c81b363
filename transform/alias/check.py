"""Stage 2, check (continued): the alias check's entry point.

    a = x; a[0] = 1.0        ->  TransformError: `a` shares memory with the argument `x`

Here the check over the function (writes.AliasCheck) meets the summaries of the
helpers it calls (summaries.HELPERS), which run the same check over each helper's body.
"""
from .inplace import calls_write
from .summaries import HELPERS
from .tables import may_write
from .writes import AliasCheck


def check_aliasing(src):
    """Raise TransformError at the first write the generated code could not follow."""
    src.shared_augassign, src.inplace_args = set(), {}
    if not may_write(src) and not calls_write(src, HELPERS.written_params):
        return
    params = src.params + [a.id for a in src.node.args.kwonlyargs]
    AliasCheck(src, params, src.node.body, helpers=HELPERS,
               copied=getattr(src, "argument_copies", False)).block(src.node.body)


__all__ = ["check_aliasing"]
