"""A corpus of small differentiable functions, grouped by language construct."""
