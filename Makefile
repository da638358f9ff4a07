# eloleague: the two commands of the quick start, and the rest of the chores.
# `make demo` and `make test` build .venv from nothing on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test fuzz fuzz-long lint fmt bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/python -m eloleague.demo

test: $(STAMP)
	$(BIN)/python -m pytest -n 2 -q

# schemathesis against the API's OpenAPI on a real server, an officer's token, a bounded number of
# examples (about a minute): no server error, no answer outside the schema (docs/web.md).
fuzz: $(STAMP)
	$(BIN)/python scripts/fuzz_api.py

# The readers' trial at full strength (nightly): thousands of mutated files through rate and
# import, on SQLite and, when a server is found, PostgreSQL (tests/io/test_fuzz_trial.py).
FUZZ_EXAMPLES ?= 2000
fuzz-long: $(STAMP)
	ELOLEAGUE_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(BIN)/python -m pytest -n 2 -q -p no:cacheprovider \
		tests/io/test_fuzz_trial.py

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks scripts
	$(BIN)/ruff format --check src tests benchmarks scripts
	$(BIN)/mypy

fmt: $(STAMP)
	$(BIN)/ruff format src tests benchmarks scripts
	$(BIN)/ruff check --fix src tests benchmarks scripts

bench: $(STAMP)
	$(BIN)/python benchmarks/engine_replay.py
	$(BIN)/python benchmarks/rate_cli.py

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
