"""Stages 3-4, lowering: one operation per statement, each tagged with its Prim
(normalize), then structured jumps and loop trip counters (control)."""
