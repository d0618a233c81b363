"""Compile time per line of the differentiated function, at 100, 1,000 and 10,000 lines.

    python benchmarks/compile_scaling.py [LINES ...]

The function is the benchmark's generated one (run.hundred_line_source: straight-line
NumPy code, a loop, an if/else) at each length; each length is compiled in a fresh
module (nothing cached), best of a few runs for the short ones. Linear compile time
shows as a flat ms/line column.
"""
import importlib.util
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from run import hundred_line_source  # noqa: E402
from transform import adjoint_source  # noqa: E402

LENGTHS = (100, 1_000, 10_000)


def compile_seconds(lines, repeats):
    """Process seconds to compile a `lines`-line function, best of `repeats`."""
    folder = Path(tempfile.mkdtemp())
    path = folder / f"lines_{lines}.py"
    path.write_text(hundred_line_source(lines))
    times = []
    for k in range(repeats):
        spec = importlib.util.spec_from_file_location(f"lines_{lines}_{k}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        start = time.process_time()
        adjoint_source(module.big, wrt=("x", "W", "b"))
        times.append(time.process_time() - start)
    return min(times), statistics.median(times)


def main(argv):
    lengths = [int(a) for a in argv] or LENGTHS
    print(f"{'lines':>7}  {'best s':>8}  {'ms/line':>8}")
    for lines in lengths:
        best, _ = compile_seconds(lines, repeats=max(1, min(7, 3000 // lines)))
        print(f"{lines:>7,}  {best:>8.3f}  {1000 * best / lines:>8.3f}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
