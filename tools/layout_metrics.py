"""The layout figures issue 39's closing note compares before and after, measured on a checkout:
modules at the top level of the package, the largest module, methods per class, mixins per
game state, string-built dispatches and (with ``--mypy``) the type checker's errors.

    python tools/layout_metrics.py                  # this checkout
    python tools/layout_metrics.py --root ../other  # another checkout (the same figures)
    python tools/layout_metrics.py --mypy           # also run mypy with no module exempt

What each figure counts (by reading the sources, importing nothing):
- top-level modules: ``forest_envs/*.py`` but ``__init__.py``;
- largest module: its lines; and how many modules have more than 500;
- methods per class: the ``def``s in each class body (nested classes apart; declarations for
  the type checker, whose body is ``...``, are no methods), the mean and the largest over
  every class of the package;
- mixins per state: a game state class's bases (``forest_envs/<game>/rules/state.py``, the
  class named ``*State``) less its facts class and the engine's ``BufferState``;
- string-built dispatches: a ``getattr``/``hasattr``/``setattr`` whose attribute name is built
  (an f-string or a ``+`` of strings), and an ``import_module`` of a built name: a call site
  that names no handler, found only by building its name; beside it, the ``getattr`` & co.
  whose name is held in a variable (some built, some read from a table: read them);
- type errors (``--mypy``): mypy over ``forest_envs`` with the checkout's pyproject.toml
  configuration but no module exempt from reporting (its not-yet-clean list removed).
"""

from __future__ import annotations

import argparse
import ast
import json
import pathlib
import re
import subprocess
import sys
import tempfile

LIMIT = 500


def _built_name(node: ast.expr) -> bool:
    """An expression that builds a name from pieces (an f-string or a + of strings)."""
    if isinstance(node, ast.JoinedStr):
        return any(isinstance(v, ast.FormattedValue) for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return any(isinstance(side, (ast.Constant, ast.JoinedStr, ast.BinOp))
                   for side in (node.left, node.right))
    return False


def _stub(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A declaration for the type checker (its body is ``...``), no method of its own."""
    return len(fn.body) == 1 and isinstance(fn.body[0], ast.Expr) \
        and isinstance(fn.body[0].value, ast.Constant) and fn.body[0].value.value is Ellipsis


def measure(root: pathlib.Path) -> dict:
    package = root / "forest_envs"
    modules = sorted(p for p in package.rglob("*.py") if "build" not in p.parts)
    lines = {p: len(p.read_text().splitlines()) for p in modules}
    largest = max(lines, key=lines.__getitem__)
    methods: list[tuple[int, str]] = []
    dispatches: list[str] = []
    by_variable: list[str] = []  # getattr & co. with a name held in a variable (may be built)
    for path in modules:
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                count = sum(isinstance(b, (ast.FunctionDef, ast.AsyncFunctionDef)) and not _stub(b)
                            for b in node.body)
                methods.append((count, f"{path.relative_to(root)}:{node.name}"))
            elif isinstance(node, ast.Call):
                fn = node.func
                name = fn.id if isinstance(fn, ast.Name) else fn.attr if isinstance(fn, ast.Attribute) else ""
                if name in ("getattr", "hasattr", "setattr") and len(node.args) >= 2:
                    if _built_name(node.args[1]):
                        dispatches.append(f"{path.relative_to(root)}:{node.lineno}")
                    elif not isinstance(node.args[1], ast.Constant):
                        by_variable.append(f"{path.relative_to(root)}:{node.lineno}")
                elif name == "import_module" and node.args and _built_name(node.args[0]):
                    dispatches.append(f"{path.relative_to(root)}:{node.lineno}")
    mixins = {}
    for state in sorted(package.glob("*/rules/state.py")):
        for node in ast.parse(state.read_text()).body:
            if isinstance(node, ast.ClassDef) and node.name.endswith("State"):
                bases = [ast.unparse(b) for b in node.bases]
                mixins[node.name] = len([b for b in bases
                                         if not b.endswith("Facts") and b != "BufferState"])
    methods.sort(reverse=True)
    return {
        "top_level_modules": len([p for p in package.glob("*.py") if p.name != "__init__.py"]),
        "modules": len(modules),
        "largest_module": {"path": str(largest.relative_to(root)), "lines": lines[largest]},
        "modules_over_500_lines": sorted(str(p.relative_to(root)) for p, n in lines.items() if n > LIMIT),
        "classes": len(methods),
        "methods_per_class": {"mean": round(sum(c for c, _ in methods) / len(methods), 1),
                              "largest": [{"class": n, "methods": c} for c, n in methods[:3]]},
        "mixins_per_state": mixins,
        "string_built_dispatches": {"count": len(dispatches), "where": dispatches},
        "attribute_access_by_variable_name": {"count": len(by_variable), "where": by_variable},
    }


def mypy_errors(root: pathlib.Path) -> int:
    """mypy's error count over the checkout with no module exempt (see the module doc)."""
    text = (root / "pyproject.toml").read_text()
    text = re.sub(r"\n# Modules not yet clean.*?ignore_errors = true\n", "\n", text, flags=re.S)
    with tempfile.TemporaryDirectory() as tmp:
        config = pathlib.Path(tmp) / "pyproject.toml"
        text = text.replace('cache_dir = "build/mypy"', f'cache_dir = "{tmp}/cache"')
        config.write_text(text)
        run = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(config)], cwd=root,
                             capture_output=True, text=True)
    found = re.search(r"Found (\d+) errors?", run.stdout)
    if found:
        return int(found.group(1))
    if "Success" in run.stdout:
        return 0
    raise RuntimeError(f"mypy gave no count:\n{run.stdout}{run.stderr}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=pathlib.Path, default=pathlib.Path(__file__).resolve().parents[1],
                        help="the checkout to measure (default: this one)")
    parser.add_argument("--mypy", action="store_true", help="also count mypy's errors (a minute or two)")
    args = parser.parse_args(argv)
    figures = measure(args.root)
    if args.mypy:
        figures["type_errors"] = mypy_errors(args.root)
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
