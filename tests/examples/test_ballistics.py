"""examples/ballistics.py: the gradient through a ~1,000-step while loop agrees
with finite differences, and gradient ascent finds an angle below 45 degrees."""
import importlib.util
import math
import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "ballistics.py"


def load_example():
    spec = importlib.util.spec_from_file_location("thunkgrad_example_ballistics", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_main_agrees_with_finite_differences_and_finds_angle_below_45():
    result = load_example().main()
    assert result["fd_relative_error"] < 1e-5
    assert 20.0 < result["angle_degrees"] < 45.0


def test_simulation_runs_about_a_thousand_steps():
    example = load_example()
    angle = math.radians(60.0)
    vy, y, steps = 50.0 * math.sin(angle), 0.0, 0
    vx = 50.0 * math.cos(angle)
    while y >= 0.0:                 # the same loop, counting steps
        v = math.sqrt(vx * vx + vy * vy)
        y += example.DT * vy
        vx, vy = vx - example.DT * 0.005 * v * vx, \
            vy + example.DT * (-example.GRAVITY - 0.005 * v * vy)
        steps += 1
    assert 800 <= steps <= 2000


def test_without_drag_the_best_angle_is_45_degrees():
    example = load_example()
    d_angle, d_speed = example.distance_gradient(math.radians(45.0), 50.0, 0.0)
    assert abs(d_angle) < 0.01 * example.landing_distance(math.radians(45.0), 50.0, 0.0)
    assert d_speed > 0


def test_script_runs():
    done = subprocess.run([sys.executable, str(EXAMPLE)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Best angle found" in done.stdout
