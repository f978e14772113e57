"""The import graph of forest_envs: no cycles, and every import goes down the layers.

The layers are the package's folders, lowest first (``LAYERS``): core (the engine contract)
< drawing (Pillow drawing) < agents (the protocol, agents by name, search, policy files) <
envs (the adapters and registration) < the games (every other folder; a game never imports
another) < the package facade (``forest_envs/__init__.py``) < evaluation < benchmark < train
< replays, testing and studies < cli. A module imports from its own folder or a lower layer; folders
that share a layer do not import each other.

A re-export module (only a docstring, imports and ``__all__``) keeps an old import path
working after its contents moved (``forest_envs/core/aec.py``, ``forest_envs/openspiel.py``...):
it stands outside the layers, nothing in the package imports it, and docs/architecture.md
lists every one.

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
from forest_envs.core.registry import env_ids, game_spec

PACKAGE = Path(forest_envs.__file__).parent
ROOT = PACKAGE.parent

# Each entry: an import edge (importer, imported) allowed to close a cycle, and why.
# None today; test_known_cycles_still_exist keeps an entry from outliving its cycle.
KNOWN_CYCLES: set[tuple[str, str]] = set()

GAMES = "games"  # the layer of every folder not named below: each one a registered game
LAYERS: tuple[tuple[str, ...], ...] = (
    ("core",),
    ("drawing",),
    ("agents",),
    ("envs",),
    (GAMES,),
    ("package",),       # forest_envs/__init__.py: make(), the env ids, register, replay
    ("evaluation",),
    ("benchmark",),
    ("train",),
    ("replays", "testing", "studies"),
    ("serve",),
    ("cli",),
)
RANK = {folder: rank for rank, folders in enumerate(LAYERS) for folder in folders}


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


def is_reexport(name: str) -> bool:
    """Whether a module only re-exports what moved elsewhere: a docstring, ``from`` imports
    and ``__all__``, nothing else."""
    path, is_package = MODULES[name]
    body = ast.parse(path.read_text(), str(path)).body
    if is_package or not body:
        return False
    if isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    return bool(body) and all(
        isinstance(node, ast.ImportFrom) or (isinstance(node, ast.Assign) and len(node.targets) == 1
                                             and getattr(node.targets[0], "id", None) == "__all__")
        for node in body)


REEXPORTS = sorted(name for name in MODULES if is_reexport(name))


def folder_of(name: str) -> str:
    """The folder a module is in (``package`` for forest_envs/__init__.py)."""
    parts = name.split(".")
    if len(parts) == 1 or (len(parts) == 2 and name in REEXPORTS):
        return "package"
    if len(parts) == 2 and not MODULES[name][1]:
        raise AssertionError(f"{name} is a module directly under forest_envs/: put it in the "
                             "folder of its layer (a re-export module of an old path excepted)")
    return parts[1]


def layer_of(name: str) -> str:
    folder = folder_of(name)
    return folder if folder in RANK else GAMES


def rank_of(name: str) -> int:
    return RANK[layer_of(name)]


def game_of(name: str) -> str | None:
    return folder_of(name) if layer_of(name) == GAMES else None


LAYERED = sorted(name for name in MODULES if name not in REEXPORTS)


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
    assert "forest_envs.core.errors" in GRAPH["forest_envs.cli.main"]
    assert "forest_envs.train.sb3" in GRAPH["forest_envs.cli.train"]     # inside cmd_train
    assert "forest_envs.envs.env_modules" in GRAPH["forest_envs.envs.registration"]
    assert "forest_envs.agents.policy" in GRAPH["forest_envs.agents"]
    games = {m for m in MODULES if layer_of(m) == GAMES and m.count(".") == 1}
    assert games and games <= GRAPH["forest_envs"]                        # from . import <game>
    # The __main__ block of testing/fuzzing imports the package (to register the games) only
    # when it runs as a program.
    assert "forest_envs" not in GRAPH["forest_envs.testing.fuzzing"]
    # Every edge lands on a module that exists.
    for name, targets in GRAPH.items():
        assert targets <= MODULES.keys(), (name, targets - MODULES.keys())


def test_the_folders_are_the_layers():
    """Every folder is a layer or a registered game: a new folder is given its place in
    LAYERS (or registers a game), it does not fall into one by accident."""
    folders = {folder_of(m) for m in LAYERED} - {"package"}
    modules = [game_spec(e).game_class.__module__.split(".") for e in env_ids()]
    games = {parts[1] for parts in modules if parts[0] == "forest_envs"}  # tests register toys
    assert folders - set(RANK) == games
    assert set(RANK) - {GAMES, "package"} <= folders, "a layer in LAYERS has no folder"


def test_reexport_modules_are_old_paths_only():
    """Nothing in the package imports a re-export module (it would hide an import of a
    higher layer), and docs/architecture.md lists each one."""
    assert "forest_envs.core.engine" in REEXPORTS and "forest_envs.openspiel" in REEXPORTS
    for name in MODULES:
        used = sorted(GRAPH[name] & set(REEXPORTS))
        assert not used, f"{name} imports {used}: import where the code lives now"
    docs = (ROOT / "docs" / "architecture.md").read_text()
    for name in REEXPORTS:
        path = str(MODULES[name][0].relative_to(ROOT))
        assert f"`{path}`" in docs, f"docs/architecture.md does not list the re-export module {path}"


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


@pytest.mark.parametrize("name", LAYERED)
def test_imports_go_down_the_layers(name):
    rank = rank_of(name)
    targets = GRAPH[name] - set(REEXPORTS)
    upward = sorted(t for t in targets if rank_of(t) > rank)
    assert not upward, f"{name} ({layer_of(name)}) imports {upward} from a higher layer"
    sideways = sorted(t for t in targets if rank_of(t) == rank and folder_of(t) != folder_of(name))
    assert not sideways, (f"{name} ({folder_of(name)}) imports {sideways}: folders that share a "
                          "layer (the games among them) do not import each other")


def test_the_layer_rules_of_the_design():
    """The rules spelled out, on top of the ranking above."""
    def importers(layer):
        return [m for m in LAYERED if layer_of(m) == layer]

    for name in importers("core"):
        assert {layer_of(t) for t in GRAPH[name]} == {"core"} or not GRAPH[name], name
    for name in importers(GAMES):
        assert not {layer_of(t) for t in GRAPH[name]} & {"train", "evaluation", "cli"}, name
    for name in importers("evaluation") + importers("agents"):
        assert "train" not in {layer_of(t) for t in GRAPH[name]}, name
    # Playing a policy file is the agents layer's: evaluation and the CLI reach it there.
    assert "forest_envs.agents.policy" in GRAPH["forest_envs.evaluation.run"]
    assert not {"forest_envs.train.policy", "forest_envs.train.export"} & GRAPH["forest_envs.cli.main"]


def test_playing_and_evaluating_load_no_training_code():
    """What the graph says, at run time: evaluation, the CLI and the agents (policy files
    included) load neither forest_envs.train nor torch."""
    import subprocess
    import sys

    code = ("import sys, forest_envs.evaluation, forest_envs.cli.main, forest_envs.agents.policy; "
            "print(sorted(m for m in sys.modules if m.startswith('forest_envs.train') "
            "or m.split('.')[0] in ('torch', 'stable_baselines3', 'sb3_contrib')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=PACKAGE.parent)
    assert out.stdout.strip() == "[]", out.stdout
