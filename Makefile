# Two commands do everything on a fresh machine:
#   make run    set up, then start the app on the offline default (http://127.0.0.1:7860)
#   make test   set up, then lint, type-check and run the whole test suite
PYTHON ?= python3.11
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: setup run test lint typecheck pytest bench clean

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "error: $(PYTHON) not found; install Python 3.11 or run 'make PYTHON=/path/to/python3.11 ...'"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	# The CPU build of torch first, so nothing pulls a multi-GB CUDA build.
	$(BIN)/pip install --quiet torch==2.13.0
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

run: setup
	GRADIO_ANALYTICS_ENABLED=False HF_HUB_OFFLINE=1 $(BIN)/remsa ui

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: setup
	$(BIN)/mypy

pytest: setup
	GRADIO_ANALYTICS_ENABLED=False HF_HUB_OFFLINE=1 $(BIN)/python -m pytest

test: lint typecheck pytest

bench: setup
	$(BIN)/python benchmarks_perf/select_latency.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build *.egg-info
