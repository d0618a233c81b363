"""Importing this module registers every corpus case."""
from . import (arithmetic, numpy_ops, branches, loops, jumps, comprehensions,  # noqa: F401
               containers, calls, recursion, inplace, side_effects, builtins, statements,
               functional, programs, redteam16, handlers, walrus, data_values, records,
               functions_as_values, slot_alias, redteam25, closures, receivers, properties,
               constructors, mutators16, fixes26, shape_named_attributes,
               fuzz_found, fuzz_found27, fuzz_found29, double_buffers, reductions16,
               match16, second_names, operators16, spread16, match_classes16,
               zip_generators16, redteam29_fixes)
# 2026-12-02, session 30 (py30a)
from . import varargs30, writes30, objects30  # noqa: F401,E402
# 2026-12-02, session 30 (py30b): zip/reversed read whole, copies, sort/shuffle, **params
from . import python30b  # noqa: F401,E402
from . import fuzz_found30  # noqa: F401,E402  (2026-12-02, session 30 (fuzz30))
# 2026-12-02, session 31 (lead): the cases that call SciPy register when it imports (it is
# an optional extra; `make compat` has a row without it)
try:
    import scipy  # noqa: F401
except ImportError:
    pass
else:
    from . import redteam29, redteam29b, redteam29_stats, receivers_scipy  # noqa: F401
# 2026-12-02, session 31 (red31): issue-19 mechanisms (fresh regions, fresh copies, joins, inlining)
from . import redteam31  # noqa: F401,E402
# 2026-12-02, session 31 (red31c): issue-19 rewrites (spread views, written sums, Cholesky solves, means)
from . import redteam31c  # noqa: F401,E402
# 2026-12-02, session 31 (red31b): tuple displays unpacked into names (unpacked_display)
from . import unpack31  # noqa: F401,E402
# 2026-12-02, session 32 (heat): joins cut from an owned buffer (ReuseCutBuffers)
from . import reuse32  # noqa: F401,E402
# 2026-12-02, session 32 (fix): red-team programs (a list rebound to its array, np.split
# pieces' .shape; the SciPy ones register when it imports)
from . import redteam32, redteam32b  # noqa: F401,E402
try:
    import scipy  # noqa: F401,F811
except ImportError:
    pass
else:
    from . import redteam32_scipy  # noqa: F401,E402
