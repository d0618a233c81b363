"""Issue 18: compiled rules and their registered source go when the function goes."""
import gc
import linecache
import os
import weakref

import numpy as np
import pytest

import transform
from transform.public import cache


def _factory(scale):
    def loss(x):
        return np.sum(np.tanh(x * scale) ** 2)
    return loss


def _recursive_factory(scale):
    def loss(x, n):
        if n <= 0:
            return np.sum(x * scale)
        return step(x, n - 1)

    def step(x, n):
        return loss(x, n) * 0.5
    return loss


def _rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _differentiate_and_drop(make, count, *args):
    """Weak references to `count` functions, each differentiated once and dropped."""
    refs = []
    for k in range(count):
        fn = make(k)
        transform.grad(fn)(np.ones(3), *args)
        refs.append(weakref.ref(fn))
    gc.collect()
    return refs


def test_2000_closures_are_collected_with_little_growth():
    _differentiate_and_drop(_factory, 50)           # warm: imports, first-use caches
    start = _rss()
    refs = _differentiate_and_drop(_factory, 2000)
    grown = _rss() - start
    assert sum(r() is not None for r in refs) == 0
    assert grown < 4 * 2 ** 20, f"RSS grew {grown / 2 ** 20:.1f} MB"


@pytest.mark.xfail(strict=True, reason="known gap: a closure reaching itself through its "
                   "cells (recursion) is reachable from its rules, which read those cells "
                   "live; the weakly keyed cache cannot drop it")
def test_recursive_closures_are_collected():
    refs = _differentiate_and_drop(_recursive_factory, 20, 2)
    assert sum(r() is not None for r in refs) == 0


def test_a_rule_does_not_keep_its_function_alive():
    fn = _factory(2.0)
    rule = transform.api.compiled(fn, ("x",), "loop")
    assert rule.fn is fn
    probe = weakref.ref(fn)
    del fn
    gc.collect()
    assert probe() is None and rule.fn is None


def test_generated_source_leaves_linecache_with_its_last_function():
    first, second = _factory(2.0), _factory(3.0)       # same qualified name
    transform.grad(first)(np.ones(3))
    transform.grad(second)(np.ones(3))
    names = {rule.filename for rule in cache.rules_of(first).values()}
    assert names and all(name in linecache.cache for name in names)
    del first
    gc.collect()
    assert all(name in linecache.cache for name in names)   # `second` still shows it
    del second
    gc.collect()
    assert not any(name in linecache.cache for name in names)


def test_generated_source_is_in_linecache_while_the_function_lives():
    fn = _factory(2.0)
    gradient = transform.grad(fn)
    gradient(np.ones(2))
    names = {rule.filename for rule in cache.rules_of(fn).values()}
    gc.collect()
    assert all(linecache.getline(name, 2) for name in names)
