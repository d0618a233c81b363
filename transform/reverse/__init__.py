"""Stage 6, reverse: the forward sweep (primal plus tape pushes), the backward sweep, and
the rule's def around them (assemble)."""
