"""Forward mode's refusals: a TransformError at the user's line naming the construct
and what to write (or call) instead; never a tangent the compiler cannot show right."""


def refuse(fwd, prim_or_node, what, instead):
    """Raise the refusal at the user's node behind a Prim (its site) or at a node."""
    node = getattr(prim_or_node, "site", None) or prim_or_node
    if not hasattr(node, "lineno"):
        node = fwd.where
    raise fwd.ctx.src.error(f"forward mode (jvp, jacfwd): {what}", node,
                            hint=instead)


def refusal_when_run(fwd, prim_or_node, what, instead):
    """The name of a global holding the refusal, for generated code to raise when it runs
    (the construct may sit in a branch that never runs, or be resolved then). The error
    is marked `when_run`: raised from generated code on purpose, at the user's line."""
    try:
        refuse(fwd, prim_or_node, what, instead)
    except Exception as exc:   # noqa: BLE001  (refuse raises the TransformError)
        exc.when_run = True
        name = fwd.names.reserve("forward_refusal")
        fwd.ctx.globals[name] = exc
        return name
