# Every target sets itself up from nothing: it creates .venv and installs what it needs.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP_BASE := $(VENV)/.stamp-base
STAMP_FULL := $(VENV)/.stamp-full
STAMP_ECO := $(VENV)/.stamp-ecosystem
DEMO_GAMES ?= 300

.PHONY: demo test test-all bench lint playthroughs mutation clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# The package with its test tools (enough for the envs, evaluation and the benchmark).
$(STAMP_BASE): $(BIN)/python pyproject.toml
	$(BIN)/pip install --quiet -e ".[dev]"
	touch $@

# Everything: torch first, pinned to the local CPU wheel, so that the train and rllib
# extras find it satisfied instead of pulling a multi-GB CUDA build.
$(STAMP_FULL): $(STAMP_BASE)
	$(BIN)/pip install --quiet torch==2.13.0
	$(BIN)/pip install --quiet -e ".[dev,train,rllib,openspiel]"
	touch $@

# The other RL clients docs/ecosystem.md runs (Tianshou, TorchRL, SuperSuit), for test-all;
# torch is already the CPU wheel installed above.
$(STAMP_ECO): $(STAMP_FULL)
	$(BIN)/pip install --quiet -e ".[dev,train,rllib,ecosystem]"
	touch $@

demo: $(STAMP_FULL)
	$(BIN)/forest-envs train configs/demo.yaml --overwrite
	$(BIN)/forest-envs evaluate --env chickwood_v0 --agents runs/demo/final.npz,random,random --games $(DEMO_GAMES) --workers 2 --quiet
	$(BIN)/forest-envs evaluate --env chickwood_v0 --agents runs/demo/final.npz,heuristic,heuristic --games $(DEMO_GAMES) --workers 2 --quiet
	$(BIN)/forest-envs evaluate --env chickwood_v0 --agents heuristic,random,random --games $(DEMO_GAMES) --workers 2 --quiet
	@echo "The shipped baseline (the agent ppo, forest_envs/baselines/chickwood_v0.npz) against two heuristics:"
	$(BIN)/forest-envs evaluate --env chickwood_v0 --agents ppo,heuristic,heuristic --games $(DEMO_GAMES) --workers 2 --quiet

# The fast suite over PYTEST_WORKERS processes (pytest-xdist): about 1.5x faster on two cores.
PYTEST_WORKERS ?= 2
test: $(STAMP_FULL)
	$(BIN)/python -m pytest -q -n $(PYTEST_WORKERS)

# The HTML replay's browser test needs Debian's Chromium: installed here when apt-get can
# (the test skips, saying why, where it cannot).
test-all: $(STAMP_ECO)
	@command -v chromium >/dev/null || apt-get install -y -q chromium >/dev/null 2>&1 || \
		echo "Chromium not installed: the browser test of the HTML replay will be skipped"
	$(BIN)/python -m pytest -q -m "slow or not slow"

bench: $(STAMP_BASE)
	$(BIN)/forest-envs bench

# The golden playthroughs of tests/playthroughs, regenerated after an intended change to a
# game (review the diff); ENV=<env id> regenerates one game's only.
playthroughs: $(STAMP_BASE)
	$(BIN)/python -m forest_envs.testing.playthrough --write tests/playthroughs $(if $(ENV),--env $(ENV))

# Mutation check of one game's rules against its tests (docs/testing.md).
GAME ?= roundforest
N ?= 200
SEED ?= 1
mutation: $(STAMP_FULL)
	$(BIN)/python tools/mutate.py $(GAME) --n $(N) --seed $(SEED)

lint: $(STAMP_BASE)
	$(BIN)/ruff check forest_envs tests training tools

clean:
	rm -rf $(VENV) build *.egg-info
