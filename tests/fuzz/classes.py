"""The fuzzer's program classes: one generator each, a weight, and the enabled list.

    make_case("alias_write", 123) -> Case       (deterministic in (class, seed))
    pick_class(seed, classes)     -> a class name, drawn by weight

ENABLED is the one list the lead edits: the classes `make test` (tests/test_fuzz.py) runs
and must find clean. A class joins it once the compiler bugs it finds are fixed (see
docs/fuzz_findings.md); every class can always be run by name (THUNKGRAD_FUZZ_CLASSES=all).
"""
import random

from . import (gen_alias, gen_calls, gen_checkpointed, gen_closures, gen_complex, gen_idioms,
               gen_loops, gen_names, gen_nodiff, gen_objects, gen_scipy, gen_tensors)
from .program import Case, Gen

# name: (generator(g, seed) -> Case, weight in a mixed run)
CLASSES = {
    "grammar": (None, 3),                       # tests/fuzz/grammar.py, via Hypothesis
    "alias_write": (gen_alias.alias_write, 2),
    "inplace": (gen_alias.inplace, 2),
    "alias_swap": (gen_alias.swap_and_iterate, 1),
    "slot_alias": (gen_alias.slot_alias, 1),
    "loop_carried": (gen_loops.loop_carried, 2),
    "loop_targets": (gen_loops.loop_targets, 2),
    "tuple_helpers": (gen_loops.tuple_helpers, 2),
    "array_lists": (gen_loops.array_lists, 2),
    "element_stores": (gen_loops.element_stores, 2),
    "vocabulary": (None, 2),                    # another class, renamed (set below)
    "global_rebind": (gen_names.global_rebind, 1),
    "no_derivative": (gen_nodiff.no_derivative, 2),
    "tensors": (gen_tensors.tensors, 4),
    "calls": (gen_calls.calls, 4),
    "complex_values": (gen_complex.complex_values, 2),
    "closures": (gen_closures.closures, 2),
    "user_objects": (gen_objects.user_objects, 2),
    "idioms": (gen_idioms.idioms, 2),
    "scipy_calls": (gen_scipy.scipy_calls, 2),
    "checkpointed_loops": (gen_checkpointed.checkpointed_loops, 2),
    "forward_mode": (None, 3),                  # another class's program, jvp and hvp (below)
    "hvp_routes": (None, 2),                    # another class's program, hvp on each route
    "plain_lowering": (None, 1),                # another class's program, lowering="plain"
    "numba_lowering": (None, 1),                # the same, lowering="numba" (by name only)
}
CLASSES["vocabulary"] = (
    lambda g, seed: gen_names.vocabulary_names(g, seed, _RENAMEABLE), 2)
# the vocabulary class's programs with fresh names, to tell name bugs from others
TWINS = {"vocabulary": lambda g, seed: gen_names.vocabulary_names(g, seed, _RENAMEABLE,
                                                                   fresh=True)}
CLASSES["forward_mode"] = (lambda g, seed: forward_program(seed), 3)
CLASSES["hvp_routes"] = (lambda g, seed: forward_program(seed, "hvp_routes"), 2)
CLASSES["plain_lowering"] = (lambda g, seed: forward_program(seed, "plain_lowering"), 1)
CLASSES["numba_lowering"] = (lambda g, seed: forward_program(seed, "numba_lowering"), 1)
_RENAMEABLE = ("alias_write", "inplace", "loop_carried", "loop_targets", "tuple_helpers",
               "array_lists", "no_derivative", "tensors", "calls")

# The classes tests/test_fuzz.py runs by default. Edit after merging the fixes.
ENABLED = tuple(c for c in CLASSES if c != "numba_lowering")  # (numba: seconds a program)


def parse_classes(text):
    """'all', 'enabled', or comma-separated class names -> a tuple of class names."""
    if text in (None, "", "enabled"):
        return ENABLED
    if text == "all":
        return tuple(CLASSES)
    names = tuple(n.strip() for n in text.split(",") if n.strip())
    unknown = [n for n in names if n not in CLASSES]
    if unknown:
        raise ValueError(f"unknown fuzz classes {unknown}; known: {', '.join(CLASSES)}")
    return names


def pick_class(seed, classes):
    rng = random.Random(f"class-{seed}")
    return rng.choices(classes, weights=[CLASSES[c][1] for c in classes])[0]


def make_case(cls, seed, twin=False):
    """The program of class `cls` for `seed` (twin: its twin, if the class has one)."""
    if cls == "grammar":
        return grammar_program(seed)
    generator = TWINS[cls] if twin else CLASSES[cls][0]
    return generator(Gen(random.Random(f"{cls}-{seed}")), seed)


def forward_program(seed, cls="forward_mode"):
    """Another class's program (drawn by weight from the seed), judged by forward mode's
    oracle (tests/fuzz/oracle_forward.py: jvp against differences of f, hvp of scalar
    programs against differences of the gradient) or, for cls "hvp_routes", by hvp's on
    each route (tests/fuzz/oracle_routes.py), or for "plain_lowering" through the plain
    lowering (tests/fuzz/oracle_plain.py); half the calls programs draw only the
    latest steps (gen_calls.recent), which the whole calls class dilutes."""
    bases = tuple(c for c in CLASSES
                  if c not in ("forward_mode", "hvp_routes", "plain_lowering", "numba_lowering",
                               "checkpointed_loops"))
    prefix = "forward" if cls == "forward_mode" else cls      # (forward_mode's seeds kept)
    draw = random.Random(f"{prefix}-base-{seed}")
    base = draw.choices(bases, weights=[CLASSES[c][1] for c in bases])[0]
    case = make_case(base, draw.randrange(10 ** 8))
    if base == "calls" and draw.random() < 0.5:     # half of them: session 34's steps
        recent = "recent" if prefix == "forward" else f"{prefix}-recent"
        case = gen_calls.recent(Gen(random.Random(f"{recent}-{seed}")), case.seed)
    case.input_seed = case.seed if case.input_seed is None else case.input_seed
    case.cls, case.seed = cls, seed
    case.oracle = "forward" if cls == "forward_mode" else cls
    case.productions = case.productions | {f"{prefix}_base:{base}"}
    return case


def grammar_program(seed):
    """tests/fuzz/grammar.py's Program drawn with a seeded random (no shrinking)."""
    from hypothesis.internal.conjecture.data import ConjectureData
    from .grammar import programs
    program = ConjectureData(random=random.Random(seed), prefix=()).draw(programs())
    return Case("grammar", seed, program.source(), program.params, program.length,
                input_seed=program.seed, probe_source=program.source(instrument=True))


__all__ = ["CLASSES", "ENABLED", "Case", "make_case", "pick_class", "parse_classes"]
