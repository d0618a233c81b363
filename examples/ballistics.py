"""Ballistics: aim a cannon by gradient ascent through a differentiable simulation.

A projectile with quadratic air drag is integrated with explicit Euler steps
in a `while` loop that stops once it has landed (y < 0).  The landing point is
interpolated linearly between the last step above ground and the first one
below, so the distance is a smooth function of the launch parameters even
though the number of steps is not.

thunkgrad differentiates `landing_distance` through the loop (about 1,000
steps), and the gradient with respect to the launch angle drives a few steps of
gradient ascent.  Without drag the best angle is 45 degrees; with drag it is
lower.  The gradient is checked against central finite differences.

Run:  .venv/bin/python examples/ballistics.py
"""
import math

from transform import grad

GRAVITY = 9.81          # m/s^2
DT = 0.005              # s; about 1,100 Euler steps for the flights below


def landing_distance(angle, speed, drag):
    """Horizontal distance (m) at which a projectile launched from the ground lands.

    angle in radians, speed in m/s, drag: quadratic drag coefficient per unit
    mass (1/m), so the drag acceleration is -drag * |v| * v.
    """
    x = 0.0
    y = 0.0
    vx = speed * math.cos(angle)
    vy = speed * math.sin(angle)
    x_prev = x
    y_prev = y
    while y >= 0.0:
        x_prev = x
        y_prev = y
        v = math.sqrt(vx * vx + vy * vy)
        ax = -drag * v * vx
        ay = -GRAVITY - drag * v * vy
        x = x + DT * vx
        y = y + DT * vy
        vx = vx + DT * ax
        vy = vy + DT * ay
    # The ground lies between the last two positions: y_prev >= 0 > y.
    frac = y_prev / (y_prev - y)
    return x_prev + frac * (x - x_prev)


distance_gradient = grad(landing_distance, wrt=("angle", "speed"))


def central_difference(f, args, k, eps=1e-6):
    """d f / d args[k] by central differences."""
    plus, minus = list(args), list(args)
    plus[k] += eps
    minus[k] -= eps
    return (f(*plus) - f(*minus)) / (2 * eps)


def relative_error(a, b):
    return abs(a - b) / max(abs(a), abs(b), 1e-12)


def check_gradient(angle, speed, drag):
    """The largest relative error of the AD gradient against finite differences."""
    d_angle, d_speed = distance_gradient(angle, speed, drag)
    fd_angle = central_difference(landing_distance, (angle, speed, drag), 0)
    fd_speed = central_difference(landing_distance, (angle, speed, drag), 1)
    err_angle = relative_error(d_angle, fd_angle)
    err_speed = relative_error(d_speed, fd_speed)
    print(f"  d distance / d angle = {d_angle:12.6f} m/rad   "
          f"finite differences {fd_angle:12.6f}   relative error {err_angle:.1e}")
    print(f"  d distance / d speed = {d_speed:12.6f} s       "
          f"finite differences {fd_speed:12.6f}   relative error {err_speed:.1e}")
    return max(err_angle, err_speed)


def best_angle(speed, drag, start_degrees=60.0, steps=8, learning_rate=1.5e-3):
    """Gradient ascent on the launch angle; returns (angle in degrees, distance)."""
    angle = math.radians(start_degrees)
    for step in range(steps):
        d_angle, _ = distance_gradient(angle, speed, drag)
        angle = angle + learning_rate * d_angle
        print(f"  step {step + 1:2d}: angle {math.degrees(angle):7.3f} deg   "
              f"distance {landing_distance(angle, speed, drag):8.3f} m   "
              f"gradient {d_angle:9.4f} m/rad")
    return math.degrees(angle), landing_distance(angle, speed, drag)


def main(speed=50.0, drag=0.005):
    print(f"Projectile: launch speed {speed} m/s, quadratic drag {drag} 1/m, "
          f"Euler step {DT} s\n")
    angle = math.radians(60.0)
    print("Gradient at 60 degrees against central finite differences:")
    error = check_gradient(angle, speed, drag)
    print("\nGradient ascent on the angle, from 60 degrees:")
    degrees, distance = best_angle(speed, drag)
    print(f"\nBest angle found: {degrees:.2f} degrees (distance {distance:.2f} m); "
          f"without drag it would be 45 degrees")
    print(f"Largest relative error of the gradient against finite differences: {error:.1e}")
    return {"angle_degrees": degrees, "distance": distance, "fd_relative_error": error}


if __name__ == "__main__":
    main()
