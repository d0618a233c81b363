"""scipy.linalg, continued (registered only when SciPy imports)."""
