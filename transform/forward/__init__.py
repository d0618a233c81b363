"""Forward mode: the typed form of the lowered statements (stages 1-5, ir/typed.py) with
each statement's tangent expanded after it from its rule's JVP terms, lowered to gast
(ir/lower_gast.py) and emitted as `<name>_jvp` (docs/ir.md)."""
