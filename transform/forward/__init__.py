"""Forward mode: the lowered statements (stages 1-5) with each statement's tangent
expanded after it from its rule's JVP terms, emitted as `<name>_jvp` (docs/ir.md)."""
