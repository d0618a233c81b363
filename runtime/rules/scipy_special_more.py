"""scipy.special, continued (registered only when SciPy imports)."""
