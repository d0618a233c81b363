"""runtime/registry.py declare_method: declaring a method's traits bumps the registry's
generation, so gradients compiled before are compiled again with the new facts (as a
rule registered late is used by the next call)."""
import runtime.registry as registry
from runtime import traits


def test_declaring_a_method_trait_bumps_the_generation():
    before = registry.generation
    try:
        registry.declare_method("round", in_place=True)
        assert traits.METHOD["in_place"]["round"] is True
        assert registry.generation > before
    finally:
        traits.METHOD["in_place"].pop("round", None)
        registry._registered()
