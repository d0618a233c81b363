"""Stages 1-2, the front end: a function's source read (parse) and refused where unsupported
(check); the alias part of the check is in transform/alias."""
