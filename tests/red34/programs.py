"""Session 34 red team (red): programs written the way ML, physics-simulation and
statistics users write them, for jvp, jacfwd, jacrev, hessian, hvp and grad of grad.
Helpers returning tuples, slicing and views, print, defaults left out, SciPy, loops with
branches, dicts and dataclasses of parameters, small classes, lambdas, *args, builtins.
They live in three modules (each under the layout limit), gathered here."""
from tests.red34.programs_a import *  # noqa: F401,F403
from tests.red34.programs_b import *  # noqa: F401,F403
from tests.red34.programs_c import *  # noqa: F401,F403
from tests.red34.programs_a import special  # noqa: F401 (cases drop SciPy's without it)
