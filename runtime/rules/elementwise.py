"""NumPy elementwise functions: one line of math per argument."""
import numpy as np

from ..registry import defvjp

defvjp(np.add, "x, y", "unbroadcast(g, x)", "unbroadcast(g, y)")
defvjp(np.subtract, "x, y", "unbroadcast(g, x)", "unbroadcast(-g, y)")
defvjp(np.multiply, "x, y", "unbroadcast(g * y, x)", "unbroadcast(g * x, y)")
defvjp(np.divide, "x, y", "unbroadcast(g / y, x)", "unbroadcast(-g * ans / y, y)")
defvjp(np.negative, "x", "-g")
defvjp(np.sin, "x", "g * np.cos(x)")
defvjp(np.cos, "x", "-g * np.sin(x)")
defvjp(np.tan, "x", "g / np.cos(x) ** 2")
defvjp(np.exp, "x", "g * ans")
defvjp(np.log, "x", "g / x")
defvjp(np.sqrt, "x", "g / (2 * ans)")
defvjp(np.tanh, "x", "g * (1 - ans ** 2)")
defvjp(np.square, "x", "g * 2 * x")
defvjp(np.abs, "x", "g * np.sign(x)")
defvjp(np.maximum, "x, y", "unbroadcast(g * (x >= y), x)", "unbroadcast(g * (x < y), y)")
defvjp(np.minimum, "x, y", "unbroadcast(g * (x <= y), x)", "unbroadcast(g * (x > y), y)")
