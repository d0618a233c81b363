"""Forward mode's refusals: a TransformError at the user's line naming the construct
and what to write (or call) instead; never a tangent the compiler cannot show right."""


def refuse(fwd, prim_or_node, what, instead):
    """Raise the refusal at the user's node behind a Prim (its site) or at a node."""
    node = getattr(prim_or_node, "site", None) or prim_or_node
    if not hasattr(node, "lineno"):
        node = fwd.where
    raise fwd.ctx.src.error(f"forward mode (jvp, jacfwd): {what}", node,
                            hint=instead)
