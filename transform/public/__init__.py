"""The public face's helpers (transform/api.py, cli.py, testing.py): argument checks,
parameters and wrt, values in and out, the rule cache, run-time rules for callees."""
