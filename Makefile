# Every target sets itself up from nothing: it creates .venv and installs what it needs.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP_BASE := $(VENV)/.stamp-base
STAMP_TRAIN := $(VENV)/.stamp-train

.PHONY: demo test test-all bench lint clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP_BASE): $(BIN)/python pyproject.toml
	$(BIN)/pip install --quiet -e ".[dev]" "pettingzoo[classic]>=1.24.3"
	touch $@

# torch first, pinned to the local CPU wheel, so the train extra does not pull a CUDA build.
$(STAMP_TRAIN): $(STAMP_BASE)
	$(BIN)/pip install --quiet torch==2.13.0
	$(BIN)/pip install --quiet -e ".[dev,train]"
	touch $@

demo: $(STAMP_BASE)
	$(BIN)/forest-envs evaluate --env chickwood_v0 --agents heuristic,random,random --games 300 --seed 0

test: $(STAMP_BASE)
	$(BIN)/python -m pytest -q

test-all: $(STAMP_BASE)
	$(BIN)/python -m pytest -q -m "slow or not slow"

bench: $(STAMP_BASE)
	$(BIN)/forest-envs bench

lint: $(STAMP_BASE)
	$(BIN)/ruff check forest_envs tests training

clean:
	rm -rf $(VENV) build *.egg-info
