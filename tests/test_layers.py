"""The import graph of forest_envs: no cycles, and every import goes down the layers.

Layers, lowest first: core (the engine, the AEC env, the registry) < the games < the package
facade (``forest_envs/__init__.py``, which registers the games) < agents (agents by name,
playing policy files) < evaluation < train < tools (the CLI and the other entry points). A
module imports from its own layer or lower; a game never imports another game.

Imports are read from the source with ``ast``, at module level and inside functions (a lazy
import is still a dependency). Code that never runs on import is left out: the body of
``if __name__ == "__main__":`` (it runs only when the module is the program) and of
``if TYPE_CHECKING:``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import forest_envs

PACKAGE = Path(forest_envs.__file__).parent

# Each entry: an import edge (importer, imported) allowed to close a cycle, and why.
# None today; test_known_cycles_still_exist keeps an entry from outliving its cycle.
KNOWN_CYCLES: set[tuple[str, str]] = set()

LAYERS = ("core", "games", "package", "agents", "evaluation", "train", "tools")

# Modules directly under forest_envs/ (not in a subpackage), each placed in a layer.
TOP_LEVEL = {
    "forest_envs": "package",
    "forest_envs.workers": "core",  # process pools and Ray tasks (imports only core.errors): any layer may use them
    "forest_envs.evaluation": "evaluation",
    "forest_envs.openspiel": "evaluation",  # an adapter to another library, like evaluation: above the agents
    "forest_envs.cli": "tools",
    "forest_envs.cli_args": "tools",       # what the commands share: --set, counts, paths, agent lists
    "forest_envs.cli_benchmark": "tools",  # forest-envs benchmark: its options and command
    "forest_envs.play": "tools",       # forest-envs play: a game in the terminal
    "forest_envs.move_list": "tools",  # the legal moves as a person reads them (play's list)
    "forest_envs.bench": "tools",
    "forest_envs.playthrough": "tools",
    "forest_envs.replay_html": "tools",
    "forest_envs.replay_page": "tools",  # the page replay_html writes
    "forest_envs.replay_pool": "tools",  # replay_html's pictures drawn by worker processes
}
# benchmark/ plays agents and rates them as evaluation does: the evaluation layer.
SUBPACKAGE_LAYERS = {"core": "core", "agents": "agents", "train": "train",
                     "benchmark": "evaluation", "testing": "tools"}  # any other: a game


def module_files() -> dict[str, tuple[Path, bool]]:
    """Module name -> (file, is a package's __init__)."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = ("forest_envs",) + path.relative_to(PACKAGE).with_suffix("").parts
        is_package = parts[-1] == "__init__"
        out[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return out


MODULES = module_files()


def _never_runs_on_import(node: ast.If) -> bool:
    test = node.test
    if isinstance(test, ast.Name) and test.id == "TYPE_CHECKING":
        return True
    return (isinstance(test, ast.Compare) and isinstance(test.left, ast.Name)
            and test.left.id == "__name__" and len(test.comparators) == 1
            and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value == "__main__")


def _nodes_that_run(tree: ast.AST):
    """Every node, leaving out the bodies of ``if`` blocks that never run on import."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        if isinstance(node, ast.If) and _never_runs_on_import(node):
            todo.extend(node.orelse)
        else:
            todo.extend(ast.iter_child_nodes(node))


def imports_of(name: str) -> set[str]:
    """The forest_envs modules ``name`` imports: ``from pkg import sub`` names the submodule
    when ``sub`` is one, else ``pkg`` itself."""
    path, is_package = MODULES[name]
    found = set()
    for node in _nodes_that_run(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "forest_envs")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name if is_package else name.rpartition(".")[0]
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                base = f"{base}.{node.module}" if node.module else base
            else:
                base = node.module or ""
            if base.split(".")[0] != "forest_envs":
                continue
            found.update(f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base
                         for a in node.names)
    return found - {name}


GRAPH = {name: imports_of(name) for name in MODULES}


def layer_of(name: str) -> str:
    if name in TOP_LEVEL:
        return TOP_LEVEL[name]
    sub = name.split(".")[1]
    if f"forest_envs.{sub}" in MODULES and MODULES[f"forest_envs.{sub}"][1]:
        return SUBPACKAGE_LAYERS.get(sub, "games")
    raise AssertionError(f"{name} is a new module directly under forest_envs/: give it a layer "
                         "in TOP_LEVEL")


def game_of(name: str) -> str | None:
    return name.split(".")[1] if layer_of(name) == "games" else None


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as [a, b, ..., a], or None (depth-first search)."""
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (cycle := visit(start)):
            return cycle
    return None


def test_the_graph_reads_imports_of_every_kind():
    # Module level, relative and absolute, a function-level import, a submodule by name.
    assert "forest_envs.core.errors" in GRAPH["forest_envs.cli"]
    assert "forest_envs.train.sb3" in GRAPH["forest_envs.cli"]           # inside cmd_train
    assert "forest_envs.core.env_modules" in GRAPH["forest_envs.core.registry"]
    assert "forest_envs.agents.policy" in GRAPH["forest_envs.agents"]
    games = {m for m in MODULES if layer_of(m) == "games" and m.count(".") == 1}
    assert games and games <= GRAPH["forest_envs"]                        # from . import <game>
    # The __main__ block of core/fuzzing imports the package (to register the games) only
    # when it runs as a program.
    assert "forest_envs" not in GRAPH["forest_envs.core.fuzzing"]
    # Every edge lands on a module that exists.
    for name, targets in GRAPH.items():
        assert targets <= MODULES.keys(), (name, targets - MODULES.keys())


def test_a_cycle_is_found():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_no_import_cycles():
    graph = {name: {t for t in targets if (name, t) not in KNOWN_CYCLES}
             for name, targets in GRAPH.items()}
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def reaches(graph: dict[str, set[str]], start: str, goal: str) -> bool:
    seen, todo = set(), [start]
    while todo:
        node = todo.pop()
        if node == goal:
            return True
        if node not in seen:
            seen.add(node)
            todo.extend(graph.get(node, ()))
    return False


def test_known_cycles_still_exist():
    for importer, imported in KNOWN_CYCLES:
        assert imported in GRAPH[importer], (f"{importer} no longer imports {imported}: remove "
                                             "the entry from KNOWN_CYCLES")
        assert reaches(GRAPH, imported, importer), (f"{importer} -> {imported} closes no cycle "
                                                    "any more: remove it from KNOWN_CYCLES")


@pytest.mark.parametrize("name", sorted(MODULES))
def test_imports_go_down_the_layers(name):
    rank = LAYERS.index(layer_of(name))
    upward = sorted(t for t in GRAPH[name] if LAYERS.index(layer_of(t)) > rank)
    assert not upward, f"{name} ({layer_of(name)}) imports {upward} from a higher layer"
    if game_of(name):
        others = sorted(t for t in GRAPH[name] if game_of(t) not in (None, game_of(name)))
        assert not others, f"{name} imports another game: {others}"


def test_the_layer_rules_of_the_design():
    """The rules spelled out, on top of the ranking above."""
    def importers(layer):
        return [m for m in MODULES if layer_of(m) == layer]

    for name in importers("core"):
        assert not {layer_of(t) for t in GRAPH[name]} & {"games", "train", "evaluation", "tools"}, name
    for name in importers("games"):
        assert not {layer_of(t) for t in GRAPH[name]} & {"train", "evaluation", "tools"}, name
    for name in importers("evaluation") + importers("agents"):
        assert "train" not in {layer_of(t) for t in GRAPH[name]}, name
    # Playing a policy file is the agents layer's: evaluation and the CLI reach it there.
    assert "forest_envs.agents.policy" in GRAPH["forest_envs.evaluation"]
    assert "forest_envs.train.policy" not in GRAPH["forest_envs.cli"]


def test_playing_and_evaluating_load_no_training_code():
    """What the graph says, at run time: evaluation, the CLI and the agents (policy files
    included) load neither forest_envs.train nor torch."""
    import subprocess
    import sys

    code = ("import sys, forest_envs.evaluation, forest_envs.cli, forest_envs.agents.policy; "
            "print(sorted(m for m in sys.modules if m.startswith('forest_envs.train') "
            "or m.split('.')[0] in ('torch', 'stable_baselines3', 'sb3_contrib')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=PACKAGE.parent)
    assert out.stdout.strip() == "[]", out.stdout
