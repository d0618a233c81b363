# Two commands do everything from a fresh clone: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install run test bench fuzz clean

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: install
	$(PY) examples/quickstart.py

test: install
	$(PY) -m pytest tests

bench: install
	$(PY) -m pip install --quiet -e '.[bench]' || echo "some peers could not be installed; they will be skipped"
	$(PY) benchmarks/policies.py
	$(PY) benchmarks/run.py
	$(PY) benchmarks/scalar_loop.py

# Explores widely: a new random seed each run (printed), every class.
# THUNKGRAD_FUZZ_EXAMPLES (5000), _SEED, _CLASSES (all | enabled | a,b), _JOBS (CPUs);
# FUZZ_ARGS="--failures FILE" writes every failing program. `make test` instead runs a
# fixed share plus a small random share (tests/fuzz/ci.py).
fuzz: install
	$(PY) -m tests.fuzz.campaign $(FUZZ_ARGS)

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
