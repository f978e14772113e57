# Every target sets itself up from nothing: it creates .venv and installs what it needs.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP_BASE := $(VENV)/.stamp-base
STAMP_FULL := $(VENV)/.stamp-full
STAMP_ECO := $(VENV)/.stamp-ecosystem
DEMO_GAMES ?= 300

.PHONY: demo test test-all test-asan bench lint playthroughs mutation clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# The native engines' sources: a change rebuilds them (scikit-build-core keeps its build
# directory under build/, so only what changed is compiled again).
NATIVE_SOURCES := CMakeLists.txt $(wildcard forest_envs/*/native/*.cpp forest_envs/*/native/*.hpp)

# The package with its test tools (enough for the envs, evaluation and the benchmark), the
# native engines built by the package's own build (pyproject.toml: scikit-build-core).
$(STAMP_BASE): $(BIN)/python pyproject.toml $(NATIVE_SOURCES)
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
# FOREST_ENVS_REQUIRE_NATIVE: a native engine that failed to build fails the suite instead of
# skipping its tests.
PYTEST_WORKERS ?= 2
test: $(STAMP_FULL)
	FOREST_ENVS_REQUIRE_NATIVE=1 $(BIN)/python -m pytest -q -n $(PYTEST_WORKERS)

# The native engines built with AddressSanitizer and UBSan (and bounds-checked indexing),
# then the differential fuzz and the hostile-input tests run on them, in a venv of their own
# that imports the package from a copy of the tree holding the sanitized modules.
ASAN_DIR := build/asan
test-asan: $(STAMP_BASE)
	cmake -S . -B $(ASAN_DIR)/cmake -G Ninja -DPython_EXECUTABLE=$(abspath $(BIN)/python) \
		-DFOREST_ENVS_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	cmake --build $(ASAN_DIR)/cmake
	rm -rf $(ASAN_DIR)/src && mkdir -p $(ASAN_DIR)/src && cp -r forest_envs $(ASAN_DIR)/src/
	cmake --install $(ASAN_DIR)/cmake --prefix $(ASAN_DIR)/src >/dev/null
	test -x $(ASAN_DIR)/venv/bin/python || ($(PY) -m venv $(ASAN_DIR)/venv && \
		$(ASAN_DIR)/venv/bin/pip install --quiet numpy gymnasium pettingzoo openskill tqdm pillow \
		threadpoolctl pytest hypothesis pyyaml)
	cd $(ASAN_DIR)/src && FOREST_ENVS_REQUIRE_NATIVE=1 PYTHONPATH=. \
		LD_PRELOAD="$$(gcc -print-file-name=libasan.so) $$(gcc -print-file-name=libubsan.so)" \
		ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
		../venv/bin/python -m pytest -q -p no:cacheprovider --rootdir=$(abspath .) $(abspath tests/test_native_engines.py) $(ASAN_TESTS)

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
