"""Stage 8, emit: the pullback's definite-assignment check, source text with comments,
compiled and guarded, registered for tracebacks."""
