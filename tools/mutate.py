"""Mutation check of a game's rules: how many small, deliberate bugs do its tests catch?

    python tools/mutate.py roundforest --n 200 --seed 1
    python tools/mutate.py sherwood --n 200 --seed 1 --rerun runs/mutation/sherwood-seed1-n200.json
    python tools/mutate.py sherwood --n 200 --seed 1 --list-equivalents   # no test runs

An AST mutator (no third-party tool): every *mutation site* of the game's rule modules is
listed (a comparison to flip, an ``and`` to turn into ``or``, a statement to delete, ...),
``--n`` of them are drawn uniformly with ``--seed``, and each mutant is run against the
game's tests: ``tests/<game>`` and the generic tests whose ids name the game (``-k <game>``),
``-x -q -p no:cacheprovider``, slow tests excluded as always. A mutant whose run fails is
*killed* (the first failing test is recorded); one that passes *survived*. A mutant that
runs a single test for longer than ``--test-timeout`` seconds, or the whole selection for
longer than ``--timeout-factor`` times the unmutated run, counts as killed (by a timeout;
an endless loop is a bug the tests expose by hanging).

How a mutant runs: the mutated module is compiled from the changed AST (so line numbers stay
the file's) and handed to a forked child process by an import hook, the child runs pytest in
process and reports the first failure. Nothing is written into the worktree; the parent
imports the heavy third-party libraries once, so each mutant pays only for its tests. One
mutant runs at a time.

What is mutated (docs/testing.md gives the reasons): the game's rules, ``rules.py`` or every
module of the package ``rules/`` (found by walking it, see ``rule_modules``), all but imports,
``__all__``, docstrings, annotations, decorators, the text-only functions (``_why_*``, the
explanations of illegal actions; ``_describe_for_others``, the log line other seats see) and the
bookkeeping totals only tests call (``item_totals``, ``outlaw_totals``, ...); and the
function bodies of ``components.py`` (movement geometry, routes, decks), not its module-level
tables of printed and reconstructed numbers.

Writes ``<out>/<game>-seed<S>-n<N>.json`` and ``.md``: every mutant with its line, operator,
before/after code and the test that killed it. ``tools/mutation_equivalents.json`` lists the
survivors judged equivalent after inspection (they cannot change behaviour), with the
reason; the summary gives the kill rate with and without them.
"""

from __future__ import annotations

import argparse
import ast
import copy
import importlib.abc
import importlib.util
import json
import os
import random
import signal
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EQUIVALENTS = ROOT / "tools" / "mutation_equivalents.json"

# The modules mutated besides the game's rules (found by rule_modules), as (module, scope):
# "module" mutates everything allowed, "functions" only function bodies.
GAMES = {
    "roundforest": [("forest_envs.roundforest.components", "functions")],
    "sherwood": [("forest_envs.sherwood.components", "functions")],
}
# Functions that hold no rule: explanations of illegal actions, the text other seats see,
# and conservation totals only the tests call.
TEXT_ONLY = ("_describe_for_others",)
TEXT_PREFIXES = ("_why_",)
TEST_BOOKKEEPING = ("item_totals", "chip_totals", "outlaw_totals", "gold_total",
                    "equipment_total", "traveller_total")

CMP_FLIP = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
            ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In,
            ast.Is: ast.IsNot, ast.IsNot: ast.Is}
SIMPLE_STATEMENTS = (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr, ast.Raise, ast.Assert,
                     ast.Delete)
SKIP_FIELDS = {"annotation", "returns", "decorator_list", "type_comment"}


@dataclass
class Site:
    module: str
    function: str      # enclosing qualified name ("<module>" at module level)
    line: int
    col: int
    op: str
    before: str
    after: str
    path: tuple        # ((field, index), ...) from the module node to the mutated node
    lines: tuple = ()  # lines whose execution runs the mutated code (for test selection)
    at_import: bool = False   # module or class level: runs when the module is imported
    context: str = ""  # the source line(s) of the mutated code, to tell equal snippets apart
    repeat: int = 1    # the n-th site with the same line, column and operator
    nth: int = 1       # the n-th site of its function with the same operator, code and line text

    @property
    def id(self) -> str:
        base = f"{self.module.rsplit('.', 1)[-1]}:{self.line}:{self.col}:{self.op}"
        return base if self.repeat == 1 else f"{base}#{self.repeat}"

    @property
    def key(self) -> tuple:
        """Identity that survives edits elsewhere in the file (line numbers do not)."""
        return (self.module, self.function, self.op, self.before, self.after, self.context, self.nth)


# --- the modules of a game -----------------------------------------------------------------------
def module_path(module: str) -> Path:
    """The source file of a module of the worktree: ``a/b.py``, or ``a/b/__init__.py`` for a
    package (found on disk: the parent must not import forest_envs before forking)."""
    base = ROOT / module.replace(".", "/")
    return base / "__init__.py" if base.is_dir() else base.with_suffix(".py")


def rule_modules(game: str) -> list[str]:
    """The modules of ``forest_envs.<game>.rules``: the module itself when it is one file,
    every module of the package (``__init__`` first, then the walk of its files, subpackages
    included) when it is a package."""
    name = f"forest_envs.{game}.rules"
    base = ROOT / "forest_envs" / game / "rules"
    if (base / "__init__.py").is_file():
        found = []
        for path in sorted(base.rglob("*.py")):
            rel = path.relative_to(base)
            # a file belongs to the package only when every folder down to it is a package
            if all((base.joinpath(*rel.parts[:i]) / "__init__.py").is_file()
                   for i in range(1, len(rel.parts))):
                parts = rel.with_suffix("").parts
                if parts[-1] == "__init__":
                    parts = parts[:-1]
                found.append(".".join((name, *parts)))
        return sorted(found, key=lambda m: (m != name, m))
    if base.with_suffix(".py").is_file():
        return [name]
    raise SystemExit(f"{game}: neither forest_envs/{game}/rules.py nor a package "
                     f"forest_envs/{game}/rules/ exists")


def game_modules(game: str) -> list[tuple[str, str]]:
    """(module, scope) of every module mutated for a game: its rules whole, then GAMES' extras."""
    return [(m, "module") for m in rule_modules(game)] + GAMES[game]


# --- finding mutation sites ---------------------------------------------------------------------
def _excluded_function(name: str) -> bool:
    return name in TEXT_ONLY or name in TEST_BOOKKEEPING or name.startswith(TEXT_PREFIXES)


def _is_docstring(stmt: ast.AST, parent: ast.AST, field: str, index: int | None) -> bool:
    return (field == "body" and index == 0 and isinstance(stmt, ast.Expr)
            and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)
            and isinstance(parent, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)))


def _is_export_list(stmt: ast.AST) -> bool:
    """``__all__ = [...]``: what a package's ``__init__`` exports, a name list, not a rule."""
    return (isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign))
            and any(isinstance(t, ast.Name) and t.id == "__all__"
                    for t in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target])))


def _variants(node: ast.AST, parent: ast.AST, field: str, index, in_loop_test: bool):
    """(op, replacement builder) pairs for one node; a builder returns the new node."""
    out = []
    if isinstance(node, ast.Compare):
        for i, o in enumerate(node.ops):
            if type(o) in CMP_FLIP:
                def flip(n, i=i):
                    n.ops[i] = CMP_FLIP[type(n.ops[i])]()
                    return n
                out.append((f"cmp{i}:{type(o).__name__}->{CMP_FLIP[type(o)].__name__}", flip))
    if isinstance(node, ast.BoolOp):
        def swap(n):
            n.op = ast.Or() if isinstance(n.op, ast.And) else ast.And()
            return n
        out.append(("and<->or", swap))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        out.append(("drop-not", lambda n: n.operand))
    if field == "test" and isinstance(parent, (ast.If, ast.IfExp, ast.While)):
        if not isinstance(parent, ast.While):   # while True never ends: a timeout, not a test
            out.append(("cond->True", lambda n: ast.Constant(True)))
        out.append(("cond->False", lambda n: ast.Constant(False)))
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
        def arith(n):
            n.op = ast.Sub() if isinstance(n.op, ast.Add) else ast.Add()
            return n
        out.append(("+<->-", arith))
    if isinstance(node, ast.AugAssign) and isinstance(node.op, (ast.Add, ast.Sub)):
        def aug(n):
            n.op = ast.Sub() if isinstance(n.op, ast.Add) else ast.Add()
            return n
        out.append(("+=<->-=", aug))
    if (isinstance(node, ast.Constant) and isinstance(node.value, int)
            and not isinstance(node.value, bool)):
        out.append(("int+1", lambda n: ast.Constant(n.value + 1)))
        out.append(("int-1", lambda n: ast.Constant(n.value - 1)))
    if (isinstance(node, ast.Return) and node.value is not None
            and not (isinstance(node.value, ast.Constant) and node.value.value is None)):
        def ret_none(n):
            n.value = ast.Constant(None)
            return n
        out.append(("return->None", ret_none))
    if isinstance(node, SIMPLE_STATEMENTS) and field in ("body", "orelse", "finalbody"):
        out.append(("delete", lambda n: ast.Pass()))
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in ("min", "max")):
        def minmax(n):
            n.func = ast.Name("max" if n.func.id == "min" else "min", ast.Load())
            return n
        out.append(("min<->max", minmax))
    if isinstance(node, ast.Break):
        out.append(("break->continue", lambda n: ast.Continue()))
    if isinstance(node, ast.Continue):
        out.append(("continue->break", lambda n: ast.Break()))
    return out


def find_sites(module: str, scope: str) -> list[Site]:
    path = module_path(module)
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    source_lines = source.splitlines()
    sites: list[Site] = []

    def visit(node, parent, field, index, where, qual, active, stmt=None, in_body=False):
        if isinstance(node, ast.stmt):
            stmt = node
        if isinstance(node, (ast.Import, ast.ImportFrom)) or _is_export_list(node):
            return
        if parent is not None and _is_docstring(node, parent, field, index):
            return
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            qual = node.name if qual == "<module>" else f"{qual}.{node.name}"
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if _excluded_function(node.name):
                    return
                active = True
        if active and parent is not None:
            for op, build in _variants(node, parent, field, index, False):
                mutated = build(copy.deepcopy(node))
                before = ast.get_source_segment(source, node) or ast.unparse(node)
                after = ast.unparse(mutated) if not isinstance(mutated, ast.Pass) else "pass"
                first = min(node.lineno, stmt.lineno if stmt is not None else node.lineno)
                lines = tuple(range(first, node.end_lineno + 1))
                context = _one_line(" ".join(source_lines[node.lineno - 1:node.end_lineno]), 240)
                sites.append(Site(module, qual, node.lineno, node.col_offset, op,
                                  _one_line(before), _one_line(after), tuple(where), lines,
                                  not in_body, context))
        for name, value in ast.iter_fields(node):
            if name in SKIP_FIELDS:
                continue
            # a function's body runs when it is called; its default values at import
            body = in_body or (name == "body" and isinstance(
                node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))
            if isinstance(value, list):
                for i, child in enumerate(value):
                    if isinstance(child, ast.AST):
                        visit(child, node, name, i, where + [(name, i)], qual, active, stmt, body)
            elif isinstance(value, ast.AST):
                visit(value, node, name, None, where + [(name, None)], qual, active, stmt, body)

    visit(tree, None, None, None, [], "<module>", scope == "module")
    # nested expressions can start at the same column (a - b + c): number the repeats
    seen: dict[str, int] = {}
    for site in sites:
        base = site.id
        seen[base] = seen.get(base, 0) + 1
        if seen[base] > 1:
            site.repeat = seen[base]
    same: dict[tuple, int] = {}
    for site in sites:
        k = site.key[:6]
        same[k] = same.get(k, 0) + 1
        site.nth = same[k]
    return sites


def _one_line(code: str, limit: int = 160) -> str:
    flat = " ".join(code.split())
    return flat if len(flat) <= limit else flat[:limit - 3] + "..."


def mutated_code(site: Site):
    path = module_path(site.module)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parent, node = None, tree
    for name, index in site.path:
        parent, node = node, (getattr(node, name)[index] if index is not None else getattr(node, name))
    builds = dict(_variants(node, parent, site.path[-1][0], site.path[-1][1], False))
    new = builds[site.op](copy.deepcopy(node))
    name, index = site.path[-1]
    if index is None:
        setattr(parent, name, new)
    else:
        getattr(parent, name)[index] = new
    ast.copy_location(new, node)
    ast.fix_missing_locations(tree)
    return compile(tree, str(path), "exec")


# --- running the tests on a mutant ---------------------------------------------------------------
class _MutantLoader(importlib.abc.Loader):
    def __init__(self, code):
        self.code = code

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        exec(self.code, module.__dict__)


class _MutantFinder(importlib.abc.MetaPathFinder):
    def __init__(self, name: str, path: Path, code):
        self.name, self.path, self.code = name, path, code

    def find_spec(self, fullname, path=None, target=None):
        if fullname != self.name:
            return None
        # a package's __init__ keeps its folder as __path__, so that its submodules import
        package = [str(self.path.parent)] if self.path.name == "__init__.py" else None
        return importlib.util.spec_from_file_location(fullname, str(self.path), loader=_MutantLoader(self.code),
                                                      submodule_search_locations=package)


class _TestTimeout(BaseException):
    """Raised by the alarm inside a test that runs too long (a BaseException, so that an
    ``except Exception`` in the code under test cannot swallow it)."""


class _Recorder:
    def __init__(self, test_timeout: float):
        self.test_timeout = test_timeout
        self.first_failure: dict | None = None

    def _alarm(self, signum, frame):
        raise _TestTimeout(f"test ran longer than {self.test_timeout} s")

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_protocol(self, item, nextitem):
        signal.signal(signal.SIGALRM, self._alarm)
        signal.setitimer(signal.ITIMER_REAL, self.test_timeout)

    def pytest_runtest_logfinish(self, nodeid, location):
        signal.setitimer(signal.ITIMER_REAL, 0)

    def pytest_runtest_logreport(self, report):
        if report.failed and self.first_failure is None:
            timed_out = "_TestTimeout" in str(report.longrepr)
            self.first_failure = {"test": report.nodeid, "phase": report.when,
                                  "timeout": timed_out}

    def pytest_collectreport(self, report):
        if report.failed and self.first_failure is None:
            self.first_failure = {"test": report.nodeid or "<collection>", "phase": "collect",
                                  "timeout": False}


# Test files of a game in the order they run: the tests mutants taught us, the rule tests
# (precise, fast: the killer they name says most), the rest of the game's tests, then the
# generic suites (filtered to the game by -k).
FIRST_FILES = ("test_rule_edges", "test_rules", "test_rulebook", "test_additions", "test_components")


def test_files(game: str) -> list[str]:
    tests = ROOT / "tests"
    own = sorted((tests / game).glob("test_*.py"))
    rank = {name: i for i, name in enumerate(FIRST_FILES)}
    own.sort(key=lambda p: (rank.get(p.stem.split("_part")[0], len(rank)), p.name))
    generic = sorted(tests.glob("test_*.py"))
    return [str(p.relative_to(ROOT)) for p in own + generic]


def pytest_args(game: str, files: list[str] | None = None) -> list[str]:
    return ["-x", "-q", "-p", "no:cacheprovider", "-k", game, *(files or test_files(game))]


class _Select:
    """Deselects every collected test not in ``keep``, keeping the collection order."""

    def __init__(self, keep: set[str], files: set[str]):
        self.keep, self.files = keep, files

    def pytest_collection_modifyitems(self, session, config, items):
        items[:] = [it for it in items if it.nodeid in self.keep or it.nodeid.split("::")[0] in self.files]


class _Coverage:
    """Lines of the mutated modules each test executes (sys.settrace), for test selection."""

    def __init__(self, files: set[str]):
        self.files = files
        self.current = OUTSIDE
        self.lines: dict[str, dict[str, set[int]]] = {}
        self.order: list[str] = []

    def tracer(self, frame, event, arg):
        if frame.f_code.co_filename not in self.files:
            return None
        self._record(frame)
        return self._local

    def _local(self, frame, event, arg):
        if event == "line":
            self._record(frame)
        return self._local

    def _record(self, frame):
        self.lines.setdefault(self.current, {}).setdefault(frame.f_code.co_filename, set()).add(
            frame.f_lineno)

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_protocol(self, item, nextitem):
        # Each test starts with empty caches (shared games, memoised targets), so that it
        # runs itself whatever code it depends on: a test that would only have read a value
        # an earlier test computed still counts as reaching that code.
        for name, module in list(sys.modules.items()):
            if name.startswith("forest_envs"):
                for value in list(vars(module).values()):
                    if callable(getattr(value, "cache_clear", None)):
                        value.cache_clear()
        self.current = item.nodeid
        self.order.append(item.nodeid)

    def pytest_runtest_logfinish(self, nodeid, location):
        self.current = OUTSIDE

    def as_json(self) -> dict:
        return {"order": self.order,
                "lines": {t: {f: sorted(ls) for f, ls in by_file.items()} for t, by_file in self.lines.items()}}


def run_tests(game: str, site: Site | None, test_timeout: float, run_timeout: float, log: Path,
              select: list[str] | None = None, coverage_of: list[str] | None = None) -> dict:
    """Fork; the child runs pytest on the mutant (``select``: only these test ids, in this
    order) and writes its verdict to a file. ``coverage_of``: also record which lines of these
    modules each test runs (the unmutated run)."""
    code = mutated_code(site) if site is not None else None
    verdict = log.with_suffix(".verdict.json")
    verdict.unlink(missing_ok=True)
    files = None
    if select is not None:
        always = _always_run(game)
        files = list(dict.fromkeys(always + [t.split("::")[0] for t in select]))
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:   # the child
        try:
            fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(fd, 1)
            os.dup2(fd, 2)
            if site is not None:
                sys.meta_path.insert(0, _MutantFinder(site.module, module_path(site.module), code))
            recorder = _Recorder(test_timeout)
            plugins = [recorder]
            if select is not None:
                plugins.append(_Select(set(select), set(always)))
            cov = None
            if coverage_of:
                cov = _Coverage({str(module_path(m)) for m in coverage_of})
                plugins.append(cov)
                sys.settrace(cov.tracer)
            rc = pytest.main(pytest_args(game, files), plugins=plugins)
            sys.settrace(None)
            out = {"rc": int(rc), "first_failure": recorder.first_failure}
            if cov is not None:
                out["coverage"] = cov.as_json()
            verdict.write_text(json.dumps(out))
        finally:
            os._exit(0)
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() - start > run_timeout:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return {"status": "killed", "killed_by": "timeout (whole run)", "seconds": run_timeout}
        time.sleep(0.05)
    seconds = round(time.monotonic() - start, 2)
    if not verdict.exists():
        return {"status": "killed", "killed_by": "crash (the test process died)", "seconds": seconds}
    v = json.loads(verdict.read_text())
    extra = {"coverage": v["coverage"]} if "coverage" in v else {}
    if v["rc"] in (0, 5):   # 5: no test collected (a selection of none)
        return {"status": "survived", "killed_by": None, "seconds": seconds, **extra}
    f = v["first_failure"]
    if f is None:   # e.g. an internal error before any test ran
        return {"status": "killed", "killed_by": f"pytest exit code {v['rc']}", "seconds": seconds, **extra}
    by = f["test"] + (" (timeout)" if f["timeout"] else "") + ("" if f["phase"] == "call" else
                                                               f" [{f['phase']}]")
    return {"status": "killed", "killed_by": by, "seconds": seconds, **extra}


OUTSIDE = "<outside a test>"


def tests_reaching(site: Site, coverage: dict) -> list[str] | None:
    """The tests (in run order) that execute one of the site's lines; None: every test (the
    code runs at import or collection, e.g. a function that builds a module's tables, so no
    test can be ruled out)."""
    path = str(module_path(site.module))
    lines = set(site.lines)
    if site.at_import or lines & set(coverage["lines"].get(OUTSIDE, {}).get(path, ())):
        return None
    return [t for t in coverage["order"]
            if lines & set(coverage["lines"].get(t, {}).get(path, ()))]


def _always_run(game: str) -> list[str]:
    """Test files every selection includes in full: the tests written for mutants, which the
    cached trace may not know yet (they are small and fast)."""
    return [str(p.relative_to(ROOT)) for p in sorted((ROOT / "tests" / game).glob("test_rule_edges*.py"))]


def coverage_key(game: str) -> str:
    """Hash of the code and of the tests the trace covers: the package, the generic tests
    and the game's own (every file but _always_run's; other games' tests never run here)."""
    import hashlib
    h = hashlib.sha256()
    skip = set(_always_run(game))
    tests = ROOT / "tests"
    files = (list((ROOT / "forest_envs").rglob("*.py")) + list(tests.glob("*.py"))
             + list((tests / game).rglob("*.py")))
    for p in sorted(files):
        rel = str(p.relative_to(ROOT))
        if rel not in skip:
            h.update(rel.encode() + b"\0" + p.read_bytes())
    return h.hexdigest()[:16]


def _preimport() -> None:
    """Import the heavy libraries once in the parent; forked children share them."""
    for name in ("numpy", "pytest", "hypothesis", "gymnasium", "pettingzoo", "PIL.Image", "yaml",
                 "torch"):
        try:
            importlib.import_module(name)
        except ImportError:
            pass


# --- reports ---------------------------------------------------------------------------------------
def load_equivalents(game: str) -> dict[tuple, str]:
    if not EQUIVALENTS.exists():
        return {}
    data = json.loads(EQUIVALENTS.read_text(encoding="utf-8")).get(game, [])
    return {(e["module"], e["function"], e["op"], e["before"], e["after"], e["context"], e["nth"]):
            e["reason"] for e in data}


def summarise(results: list[dict], equivalents: dict[tuple, str]) -> dict:
    total = len(results)
    killed = sum(r["status"] == "killed" for r in results)
    timeouts = sum(r["status"] == "killed" and "timeout" in (r["killed_by"] or "") for r in results)
    equivalent = sum(r["status"] == "survived" and tuple(r["key"]) in equivalents for r in results)
    return {
        "mutants": total, "killed": killed, "of_which_timeouts": timeouts,
        "survived": total - killed, "equivalent": equivalent,
        "kill_rate": round(killed / total, 4) if total else None,
        "kill_rate_without_equivalents": round(killed / (total - equivalent), 4)
        if total - equivalent else None,
    }


def percent(rate: float | None) -> str:
    """A kill rate as a percentage; ``None`` (no mutant, or only equivalent ones) as n/a."""
    return "n/a" if rate is None else f"{rate:.1%}"


def write_reports(out: Path, stem: str, meta: dict, results: list[dict], equivalents: dict) -> None:
    out.mkdir(parents=True, exist_ok=True)
    summary = summarise(results, equivalents)
    (out / f"{stem}.json").write_text(json.dumps({"meta": meta, "summary": summary,
                                                  "mutants": results}, indent=1))
    lines = [f"# Mutation check: {meta['game']} (seed {meta['seed']}, {summary['mutants']} mutants)", "",
             f"Sites: {meta['sites']}; baseline run {meta['baseline_seconds']} s; "
             f"timeouts: {meta['test_timeout']} s a test, {meta['run_timeout']} s a run; "
             f"wall time {meta.get('wall_seconds', '?')} s.", "",
             f"Killed {summary['killed']} of {summary['mutants']} ({percent(summary['kill_rate'])}); "
             f"{summary['of_which_timeouts']} of them by a timeout. "
             f"Survived {summary['survived']}, of which {summary['equivalent']} judged equivalent; "
             f"kill rate without them {percent(summary['kill_rate_without_equivalents'])}.", "",
             "| id | function | op | before | after | result |", "|---|---|---|---|---|---|"]
    for r in results:
        if r["status"] == "survived":
            eq = equivalents.get(tuple(r["key"]))
            res = f"equivalent: {eq}" if eq else "**survived**"
        else:
            res = f"killed by {r['killed_by']}"
        cell = lambda s: s.replace("|", "\\|")  # noqa: E731
        lines.append(f"| {r['id']} | {r['function']} | {r['op']} | `{cell(r['before'])}` | "
                     f"`{cell(r['after'])}` | {cell(res)} |")
    (out / f"{stem}.md").write_text("\n".join(lines) + "\n")


def draw(sites: list[Site], n: int, seed: int) -> list[Site]:
    """The ``n`` mutants of a run with ``seed``, in file order."""
    sample = random.Random(seed).sample(sites, min(n, len(sites)))
    sample.sort(key=lambda s: (s.module, s.line, s.col, s.op))
    return sample


def list_equivalents(game: str, sites: list[Site], n: int, seed: int) -> int:
    """Each equivalent entry of the game: the site it matches now (id, line) and whether the
    sample of ``n`` with ``seed`` draws it; an entry that matches no site is stale (the code
    it judged has changed: remap or re-judge it)."""
    by_key = {s.key: s for s in sites}
    drawn = {s.key for s in draw(sites, n, seed)}
    equivalents = load_equivalents(game)
    stale = 0
    for key in equivalents:
        module, function, op, before, *_ = key
        site = by_key.get(key)
        if site is None:
            stale += 1
            where = "NO SITE (stale)"
        else:
            where = f"{site.id}{'  [drawn]' if key in drawn else ''}"
        print(f"{where:44} {module.removeprefix('forest_envs.')}  {function}  {op}  {before}")
    matched = len(equivalents) - stale
    in_sample = sum(key in drawn for key in equivalents)
    print(f"{game}: {len(equivalents)} equivalents, {matched} match a site of the current code, "
          f"{stale} stale; {in_sample} among the {min(n, len(sites))} mutants of seed {seed} "
          f"({len(sites)} sites)")
    return 1 if stale else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game", choices=sorted(GAMES))
    ap.add_argument("--n", type=int, default=200, help="mutants to draw (default 200)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=ROOT / "runs" / "mutation")
    ap.add_argument("--test-timeout", type=float, default=30.0,
                    help="seconds one test may run before the mutant counts as killed (default 30)")
    ap.add_argument("--timeout-factor", type=float, default=3.0,
                    help="a whole run may take this many times the unmutated run (default 3)")
    ap.add_argument("--rerun", type=Path,
                    help="a previous report: run only the mutants that survived in it")
    ap.add_argument("--no-select", action="store_true",
                    help="run every test on every mutant (default: only the tests that execute "
                         "the mutated lines, found by tracing the unmutated run)")
    ap.add_argument("--resume", action="store_true",
                    help="continue the report of an interrupted run with the same arguments")
    ap.add_argument("--report-only", type=Path,
                    help="only rewrite this report's summary and markdown (after judging equivalents)")
    ap.add_argument("--list-sites", action="store_true", help="print the site counts and exit")
    ap.add_argument("--list-equivalents", action="store_true",
                    help="print which entries of tools/mutation_equivalents.json match a site of "
                         "the current code and which are among the --n mutants drawn with --seed, "
                         "then exit (no test runs); exit status 1 if an entry matches no site")
    args = ap.parse_args(argv)

    sites = [s for module, scope in game_modules(args.game) for s in find_sites(module, scope)]
    if args.list_sites:
        from collections import Counter
        for (module, op), k in sorted(Counter((s.module, s.op.split(":")[0]) for s in sites).items()):
            print(f"{module:40} {op:16} {k}")
        print("total", len(sites))
        return 0
    if args.list_equivalents:
        return list_equivalents(args.game, sites, args.n, args.seed)
    if args.report_only:
        # rewrite a report's markdown and summary with the current equivalents (and the
        # current keys of its sites, found by id: the code must be the one it ran on)
        data = json.loads(args.report_only.read_text())
        by_place = {(s.module, s.line, s.col, s.op, s.before): s for s in sites}
        for r in data["mutants"]:
            site = by_place.get((r["module"], r["line"], r["col"], r["op"], r["before"]))
            assert site is not None, f"{r['id']}: the report was made on other code"
            r["id"], r["key"], r["context"] = site.id, list(site.key), site.context
        stem = args.report_only.name.removesuffix(".json")
        write_reports(args.report_only.parent, stem, data["meta"], data["mutants"],
                      load_equivalents(args.game))
        print(summarise(data["mutants"], load_equivalents(args.game)))
        return 0
    sample = draw(sites, args.n, args.seed)
    stem = f"{args.game}-seed{args.seed}-n{args.n}"
    previous = None
    if args.rerun:
        previous = json.loads(args.rerun.read_text())
        survived = {tuple(r["key"]) for r in previous["mutants"] if r["status"] == "survived"}
        sample = [s for s in sample if s.key in survived]
        stem += "-rerun"
        if len(sample) != len(survived):
            print(f"note: {len(survived) - len(sample)} survivors of {args.rerun} no longer match a site")

    os.chdir(ROOT)
    sys.path.insert(0, str(ROOT))
    _preimport()
    if "forest_envs" in sys.modules:
        raise SystemExit("forest_envs was imported before forking: mutants would not load")
    args.out.mkdir(parents=True, exist_ok=True)
    log = args.out / f"{stem}.log"
    t0 = time.monotonic()
    modules = [m for m, _ in game_modules(args.game)]
    cache = args.out / f"{args.game}-trace-{coverage_key(args.game)}.json"
    if not args.no_select and cache.exists():
        # the same code and tests were traced before: only the new tests' run is needed
        base = run_tests(args.game, None, args.test_timeout, 7200, log, select=[])
        cached = json.loads(cache.read_text())
        base["coverage"], base["seconds"] = cached["coverage"], max(base["seconds"], cached["seconds"])
    else:
        base = run_tests(args.game, None, args.test_timeout, 7200, log,
                         coverage_of=None if args.no_select else modules)
    if base["status"] != "survived":
        raise SystemExit(f"the unmutated tests fail ({base['killed_by']}); see {log}")
    coverage = base.get("coverage")
    if coverage and not cache.exists():
        cache.write_text(json.dumps({"seconds": base["seconds"], "coverage": coverage}))
    run_timeout = round(max(60.0, args.timeout_factor * base["seconds"]), 1)
    print(f"{args.game}: {len(sites)} sites, {len(sample)} mutants; unmutated run "
          f"{base['seconds']} s{' (tracing lines)' if coverage else ''}, run timeout {run_timeout} s",
          flush=True)
    equivalents = load_equivalents(args.game)
    # A survivor passed every test of its trace; when neither the code nor those tests have
    # changed since, only the new tests (_always_run) can kill it: run just those.
    only_new = bool(previous and previous["meta"].get("trace_key") == coverage_key(args.game))
    meta = {"game": args.game, "seed": args.seed, "n": args.n, "sites": len(sites),
            "trace_key": coverage_key(args.game), "rerun_only_new_tests": only_new,
            "baseline_seconds": base["seconds"], "test_timeout": args.test_timeout,
            "run_timeout": run_timeout, "pytest_args": pytest_args(args.game),
            "test_selection": "tests that execute the mutated lines" if coverage else "all",
            "tests": len(coverage["order"]) if coverage else None,
            "rerun_of": str(args.rerun) if args.rerun else None}
    results = []
    done = set()
    if args.resume and (args.out / f"{stem}.json").exists():
        old = json.loads((args.out / f"{stem}.json").read_text())
        if old["meta"].get("trace_key") not in (None, meta["trace_key"]):
            raise SystemExit(f"{stem}.json was made on other code or tests: cannot resume it")
        results = old["mutants"]
        done = {r["id"] for r in results}
        meta["resumed_after"] = len(results)
        meta["wall_seconds_before"] = old["meta"].get("wall_seconds", 0) + old["meta"].get(
            "wall_seconds_before", 0)
        print(f"resuming: {len(results)} mutants already run", flush=True)
    for i, site in enumerate(sample, 1):
        if site.id in done:
            continue
        select = [] if only_new else tests_reaching(site, coverage) if coverage else None
        if select == [] and not _always_run(args.game):
            r = {"status": "survived", "killed_by": None, "seconds": 0.0, "tests_run": 0,
                 "note": "no test executes this code"}
        else:
            r = run_tests(args.game, site, args.test_timeout, run_timeout, log, select=select)
            r["tests_run"] = ("all" if select is None else
                              f"{len(select)} + the new" if _always_run(args.game) else len(select))
        d = asdict(site)
        del d["path"]
        d["lines"] = [min(site.lines), max(site.lines)]
        results.append({"id": site.id, **d, "key": list(site.key), **r})
        print(f"[{i}/{len(sample)}] {site.id} {site.op}: {r['status']}"
              f"{' by ' + r['killed_by'] if r['killed_by'] else ''} ({r['seconds']} s, "
              f"{r['tests_run']} tests)", flush=True)
        meta["wall_seconds"] = round(time.monotonic() - t0, 1)
        write_reports(args.out, stem, meta, results, equivalents)
    s = summarise(results, equivalents)
    print(f"killed {s['killed']}/{s['mutants']} ({percent(s['kill_rate'])}), {s['of_which_timeouts']} by timeout; "
          f"equivalent survivors {s['equivalent']}; without them {percent(s['kill_rate_without_equivalents'])}; "
          f"{meta['wall_seconds']} s; report {args.out / stem}.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
