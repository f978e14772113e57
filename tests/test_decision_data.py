"""Decision data is read by name, never by position.

A pending decision carries a plain tuple (fast to index and to unpack); each kind declares
the names of what it carries (``DecisionKind.names``). Rules read it by unpacking it into
those names, ``ambush, own = d.data``, so this test can check every such line against the
declaration: a reordered or misnamed field fails here, not as a silent wrong number in play.
``d.data[0]`` and ``x = d.data`` (a tuple read by position later) are refused outright.
Code outside the rules (agents, readings) reads a decision's record
(``DecisionKind.record``, ``State.decision_record``) by field, ``sv.data.alms_left``: each
such field must be a name some kind of the game declares, and a read by key
(``sv.data["alms_left"]``, the old dict) is refused.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import textwrap

import pytest
from toy_game import ToyState

import forest_envs
from forest_envs.core.registry import env_ids, game_spec


def _state_classes() -> list[type]:
    return [game_spec(e).game_class.state_class for e in env_ids()] + [ToyState]


def _game_modules(state_class: type) -> list:
    """Every Python module of the game's package (its rules, agents, text; not a compiled
    native engine, whose source is C++)."""
    module = importlib.import_module(state_class.__module__)
    if not module.__name__.startswith(forest_envs.__name__ + "."):
        return [module]                      # the toy game: one module
    package = ".".join(module.__name__.split(".")[:2])
    root = importlib.import_module(package)
    modules = [importlib.import_module(m.name)
               for m in pkgutil.walk_packages(root.__path__, package + ".")]
    return [m for m in modules if getattr(m, "__file__", "").endswith(".py")]


def _reads(tree: ast.AST):
    """(function name, node, kind of read) for each read of ``<name>.data`` in ``tree``."""
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Subscript) and _is_data(node.value):
                yield fn.name, node, "key" if _by_key(node) else "index"
            elif isinstance(node, ast.Attribute) and _is_data(node.value):
                yield fn.name, node.attr, "field"
            elif isinstance(node, ast.AnnAssign) and node.value is not None and _is_data(node.value):
                yield fn.name, node, "alias"   # ``data: Any = r.data``: an alias all the same
            elif isinstance(node, ast.Assign) and _is_data(node.value):
                targets = node.targets[0]
                if isinstance(targets, ast.Tuple) and all(isinstance(t, ast.Name) for t in targets.elts):
                    yield fn.name, tuple(t.id for t in targets.elts), "unpack"
                else:
                    yield fn.name, node, "alias"


def _is_data(node: ast.AST) -> bool:
    """``d.data`` or ``self.sv.data``: the ``data`` attribute of a name or of an attribute."""
    return isinstance(node, ast.Attribute) and node.attr == "data" and isinstance(
        node.value, (ast.Name, ast.Attribute))


def _by_key(node: ast.Subscript) -> bool:
    """``view.data["castle"]``: decision data read as a dict by name."""
    return isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str)


def _matches(names: tuple[str, ...], declared: tuple[str, ...]) -> bool:
    return len(names) == len(declared) and all(n in ("_", d) for n, d in zip(names, declared))


@pytest.mark.parametrize("state_class", _state_classes(), ids=lambda c: c.__name__)
def test_every_read_of_decision_data_unpacks_the_declared_names(state_class):
    kinds = {k.name: k.names for k in state_class.DECISIONS}
    # each handler function of the game's table, by name, and the kind it handles
    handled = {fn.__name__: state_class.DECISIONS[kind].name
               for kind, handlers in state_class.HANDLERS.items() for fn in handlers if fn is not None}
    problems = []
    for module in _game_modules(state_class):
        source = textwrap.dedent(inspect.getsource(module))
        for fn, what, how in _reads(ast.parse(source)):
            where = f"{module.__name__}.{fn}"
            if how == "index":
                problems.append(f"{where} line {what.lineno}: reads decision data by position")
            elif how == "key":
                problems.append(f"{where} line {what.lineno}: reads decision data by key; read "
                                "the decision's record by field")
            elif how == "field":
                if not any(what in names for names in kinds.values()):
                    problems.append(f"{where}: reads field {what!r} of decision data, a name no "
                                    "decision kind declares")
            elif how == "alias":
                problems.append(f"{where} line {what.lineno}: keeps decision data whole; unpack "
                                "it into the kind's names")
            else:
                kind = handled.get(fn)
                if kind in kinds:
                    if not _matches(what, kinds[kind]):
                        problems.append(f"{where}: unpacks {what}, but {kind!r} carries "
                                        f"{kinds[kind]}")
                elif not any(_matches(what, names) for names in kinds.values()):
                    problems.append(f"{where}: unpacks {what}, the names of no decision kind")
    assert not problems, "\n".join(problems)


def test_the_check_finds_each_kind_of_bad_read():
    bad = textwrap.dedent("""
        def _apply_answer(self, d, a):
            taker, amount = d.data
            first = d.data[0]
            named = view.data["castle"]
            data = d.data
            left = self.sv.data.alms_left
    """)
    found = {how: what for _, what, how in _reads(ast.parse(bad))}
    assert set(found) == {"unpack", "index", "key", "alias", "field"}
    assert found["unpack"] == ("taker", "amount")
    assert found["field"] == "alms_left"
    assert not _matches(("taker", "amount"), ("amount", "taker"))
    assert _matches(("_", "taker"), ("amount", "taker"))


@pytest.mark.parametrize("state_class", _state_classes(), ids=lambda c: c.__name__)
def test_a_decisions_record_holds_its_data_by_the_declared_names(state_class):
    for kind in state_class.DECISIONS:
        data = tuple(range(len(kind.names)))
        record = kind.record._make(data)
        assert record._fields == kind.names and tuple(record) == data
        assert kind.record is kind.record  # one type per kind, made once


def test_the_pending_decisions_record_follows_the_stack():
    """``decision_record``: the top decision's data by its kind's names; None once the game
    is over (the toy game: a take, then the next seat's answer naming the taker)."""
    from toy_game import AGREE, TAKE, ToyGame

    state = ToyGame(num_players=2, pile=5).new_initial_state(0)
    assert state.decision_record() == ()  # a take carries nothing
    state.apply(TAKE.id(1))  # seat 0 takes 2
    record = state.decision_record()
    assert type(record).__name__ == "AnswerData"
    assert record == (2, 0) and (record.amount, record.taker) == (2, 0)
    while not state.is_terminal:
        state.apply(state.legal_actions()[0] if state.decision_name() == "take" else AGREE.id())
    assert state.decision_record() is None
