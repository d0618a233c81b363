"""Stage 7, optimize: small rewrites of the generated rule, one pass per module, run in
order by optimize.py."""
