# Every target sets itself up from nothing: it creates .venv and installs what it needs.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP_BASE := $(VENV)/.stamp-base
STAMP_FULL := $(VENV)/.stamp-full
STAMP_ECO := $(VENV)/.stamp-ecosystem
DEMO_GAMES ?= 300

.PHONY: demo test test-all asan-build test-asan fuzz-native bench lint playthroughs mutation clean

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
	$(BIN)/pip install --quiet -e ".[dev,train,rllib,openspiel,study,serve]"
	touch $@

# The other RL clients docs/ecosystem.md runs (Tianshou, TorchRL, SuperSuit), for test-all;
# torch is already the CPU wheel installed above.
$(STAMP_ECO): $(STAMP_FULL)
	$(BIN)/pip install --quiet -e ".[dev,train,rllib,study,ecosystem,serve]"
	touch $@

# forest-envs demo (forest_envs/cli/demo.py): train a small agent, four captioned tables, a summary.
demo: $(STAMP_FULL)
	$(BIN)/forest-envs demo --games $(DEMO_GAMES) --workers 2

# The type check of forest_envs/ (mypy, configured in pyproject.toml; cache in build/mypy),
# then the fast suite over PYTEST_WORKERS processes (pytest-xdist): about 1.5x faster on two cores.
# FOREST_ENVS_REQUIRE_NATIVE: a native engine that failed to build fails the suite instead of
# skipping its tests.
PYTEST_WORKERS ?= 2
test: $(STAMP_FULL)
	$(BIN)/mypy
	FOREST_ENVS_REQUIRE_NATIVE=1 $(BIN)/python -m pytest -q -n $(PYTEST_WORKERS)

# The native engines built with AddressSanitizer and UBSan (and bounds-checked indexing), in a
# copy of the tree with a venv of its own (the sanitizer runtime is preloaded into Python).
ASAN_DIR := build/asan
ASAN_RUN = cd $(ASAN_DIR)/src && FOREST_ENVS_REQUIRE_NATIVE=1 PYTHONPATH=. \
	LD_PRELOAD="$$(gcc -print-file-name=libasan.so) $$(gcc -print-file-name=libubsan.so)" \
	ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	../venv/bin/python
asan-build: $(STAMP_BASE)
	cmake -S . -B $(ASAN_DIR)/cmake -G Ninja -DPython_EXECUTABLE=$(abspath $(BIN)/python) \
		-DFOREST_ENVS_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	cmake --build $(ASAN_DIR)/cmake
	rm -rf $(ASAN_DIR)/src && mkdir -p $(ASAN_DIR)/src && cp -r forest_envs tools $(ASAN_DIR)/src/
	cmake --install $(ASAN_DIR)/cmake --prefix $(ASAN_DIR)/src >/dev/null
	test -x $(ASAN_DIR)/venv/bin/python || ($(PY) -m venv $(ASAN_DIR)/venv && \
		$(ASAN_DIR)/venv/bin/pip install --quiet numpy gymnasium pettingzoo openskill tqdm pillow \
		threadpoolctl pytest hypothesis pyyaml atheris)

# The differential fuzz and the hostile-input tests on the sanitized engines.
test-asan: asan-build
	$(ASAN_RUN) -m pytest -q -p no:cacheprovider --rootdir=$(abspath .) $(abspath tests/test_native_engines.py) $(ASAN_TESTS)

# Coverage-guided fuzzing (atheris) of the native engines with hostile state dicts and action
# sequences, for FUZZ_SECONDS, on the release build (a crash stops it and leaves the input
# in the current directory); then every input it kept is replayed on the sanitized build
# (ASan and UBSan, which hide the fuzzer's coverage if they run together).
FUZZ_SECONDS ?= 600
FUZZ_ENV ?= chickwood_v0
FUZZ_CORPUS := build/fuzz/$(FUZZ_ENV)
fuzz-native: asan-build
	$(BIN)/pip install --quiet atheris
	mkdir -p $(FUZZ_CORPUS)
	$(BIN)/python tools/fuzz_native.py --env $(FUZZ_ENV) $(FUZZ_CORPUS) -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=4096
	$(ASAN_RUN) tools/fuzz_native.py --env $(FUZZ_ENV) $(abspath $(FUZZ_CORPUS)) -runs=0 -rss_limit_mb=4096

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
	$(BIN)/ruff check forest_envs tests tools

clean:
	rm -rf $(VENV) build *.egg-info
