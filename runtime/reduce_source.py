"""`functools.reduce` written in Python, so the compiler differentiates it as it does a
user's helper (transform/frontend/functional.py calls these in its place): the
function it is given (a lambda, a user function, `operator.add`) is called on each item
in order, as functools.reduce calls it."""


def reduce_with_initial(function, items, accumulated):
    for item in items:
        accumulated = function(accumulated, item)
    return accumulated


def reduce_from_first(function, items):
    items = list(items)
    if len(items) == 0:
        raise TypeError("reduce() of empty iterable with no initial value")
    accumulated = items[0]
    for item in items[1:]:
        accumulated = function(accumulated, item)
    return accumulated


__all__ = ["reduce_with_initial", "reduce_from_first"]
