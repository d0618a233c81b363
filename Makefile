# Two commands do everything from a fresh clone: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install run test compat bench soak fuzz mutate clean

install: $(STAMP)

# numba (the optional lowering="numba"; ~7 s to install) is installed too, and `make test`
# requires it: its tests fail rather than skip where it is missing
$(STAMP): pyproject.toml Makefile
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,numba]'
	touch $(STAMP)

run: install
	$(PY) examples/quickstart.py

# On every CPU (pytest-xdist; PYTEST_WORKERS=0 runs in one process, e.g. to debug)
PYTEST_WORKERS ?= auto
test: install
	THUNKGRAD_NUMBA=required $(PY) -m pytest -n $(PYTEST_WORKERS) tests

# Every supported Python x NumPy in its own venv under .compat/ (tools/compat.py;
# THUNKGRAD_COMPAT=py3.10,np1.26 picks combinations by label, THUNKGRAD_COMPAT_PYTEST
# replaces the pytest arguments).
compat:
	$(PYTHON) tools/compat.py

# THUNKGRAD_BENCH_QUICK=1: the scientific workloads at smaller sizes, fewer rounds.
# checkpointing.py --full (issue 21: heat 2,000 x 50,000; scalar 10^5 steps unchunked and
# 10^6 steps in chunks) takes ~20 min on 2 CPUs shared with other jobs (~10 min alone).
# If pyproject's bench extra does not install as a whole, each peer is tried on its own
# (BENCH_PEERS is that extra's list); the scripts skip a peer that does not import.
BENCH_PEERS := autograd 'jax[cpu]' torch==2.13.0 matplotlib
bench: install
	$(PY) -m pip install --quiet -e '.[bench]' || for peer in $(BENCH_PEERS); do \
		$(PY) -m pip install --quiet "$$peer" || echo "$$peer could not be installed: skipped"; done
	$(PY) benchmarks/policies.py
	$(PY) benchmarks/run.py
	$(PY) benchmarks/scientific.py
	$(PY) benchmarks/scalar_loop.py
	$(PY) benchmarks/general_rule.py
	$(PY) benchmarks/compile_scaling.py
	$(PY) benchmarks/einsum_vjp.py
	$(PY) benchmarks/hvp.py
	$(PY) benchmarks/checkpointing.py --full

# 8 threads calling grad on 50 functions with random shapes for 60 s (SOAK_ARGS="--seconds 10")
soak: install
	$(PY) benchmarks/soak.py $(SOAK_ARGS)

# Explores widely: a new random seed each run (printed), every class.
# THUNKGRAD_FUZZ_EXAMPLES (5000), _SEED, _CLASSES (all | enabled | a,b), _JOBS (CPUs);
# FUZZ_ARGS="--failures FILE" writes every failing program. `make test` instead runs a
# fixed share plus a small random share (tests/fuzz/ci.py).
fuzz: install
	$(PY) -m tests.fuzz.campaign $(FUZZ_ARGS)

# Plant one bug at a time (tools/mutations.py) and print the mutants the tests miss.
# TARGET: files, globs or groups (rules, runtime, passes; default rules and runtime);
# MUTATE_ARGS: e.g. "--jobs 2 --limit 100 --report mutants.txt". See docs/testing.md.
mutate: install
	$(PY) -m tools.mutate $(TARGET) $(MUTATE_ARGS)

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
