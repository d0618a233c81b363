"""scipy.signal (registered only when SciPy imports)."""
