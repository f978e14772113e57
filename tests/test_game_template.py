"""Every game that follows the one template of docs/architecture.md ("How to add a game")
has its modules in their places: ``rules/`` (the Game, the state, its declared attributes,
the handler table), ``text/`` (the seat view with its typed reading, render, words, narration),
``picture.py``, ``actions.py``, ``observation.py``, ``components.py``, ``env.py`` and
``agents/`` with ``params.py`` and ``seat_view.py``; and its state declares its blocks and fields with their
types, exactly the layout's blocks and its FIELDS. Every registered game is in it."""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import pathlib
import typing

import pytest

from forest_envs.core.layout import BlockView, Layout
from forest_envs.core.presentation import Presentation
from forest_envs.core.registry import game_spec

TEMPLATE_GAMES = ["chickwood_v0", "roundforest_v0", "sherwood_v0"]

MODULES = ("rules", "rules.game", "rules.state", "rules.facts", "rules.handlers", "text", "text.view",
           "text.render", "text.words", "text.narration", "text.labels",
           "text.rules_summary", "picture", "actions",
           "observation", "components", "env", "agents", "agents.params", "agents.seat_view")


def package_of(env_id: str) -> str:
    return ".".join(game_spec(env_id).game_class.__module__.split(".")[:2])


def test_every_registered_game_is_checked():
    from forest_envs.core.registry import env_ids

    # (the tests' toy game, registered by tests/toy_game.py, is no package of forest_envs)
    assert sorted(TEMPLATE_GAMES) == sorted(e for e in env_ids() if e != "toy_v0")


@pytest.mark.parametrize("env_id", TEMPLATE_GAMES)
def test_the_modules_of_the_template_exist(env_id):
    package = package_of(env_id)
    missing = [m for m in MODULES if importlib.util.find_spec(f"{package}.{m}") is None]
    assert not missing, f"{package} lacks {missing}"
    for sub in ("rules", "text", "agents"):
        assert importlib.import_module(f"{package}.{sub}").__file__.endswith("__init__.py"), sub
    text = importlib.import_module(f"{package}.text")
    assert callable(text.view) and callable(text.reading)  # the seat view, as JSON and as a record


@pytest.mark.parametrize("env_id", TEMPLATE_GAMES)
def test_a_seats_view_exists_once(env_id):
    """The seat's typed record is its view: ``view()`` is the record's JSON, which reads back
    into a record of the same JSON (Chickwood's leaves out what only its heuristic counts,
    ``seen``); the heuristic takes a seat's record (never the referee's) as its
    ``agents.seat_view.SeatView``; no second reading module lies beside it."""
    package = package_of(env_id)
    view = importlib.import_module(f"{package}.text.view")
    game_class = game_spec(env_id).game_class
    state = importlib.import_module(f"{package}.rules").new_game(game_class.all_configs()[0], seed=0)
    record = state.reading(0)
    assert isinstance(record, view.SeatReading) and record == view.reading(state, 0)
    shown = state.view(0)
    assert {k: v for k, v in shown.items() if k in record.as_json()} == record.as_json()
    def plain(data: dict) -> dict:  # as a replay page stores it (keys as strings)
        return json.loads(json.dumps(data))

    assert plain(view.SeatReading.from_json(plain(shown)).as_json()) == plain(record.as_json())
    assert importlib.util.find_spec(f"{package}.text.reading") is None
    seat_view = importlib.import_module(f"{package}.agents.seat_view").SeatView
    assert seat_view(record).kind == record.decision.kind
    with pytest.raises(ValueError, match="not the referee's"):
        seat_view(state.reading(None))


ENGINE_CALLS = {"clone", "apply", "legal_actions", "legal_action_mask", "describe_action"}


@pytest.mark.parametrize("env_id", TEMPLATE_GAMES)
def test_the_narration_reads_records_not_states(env_id):
    """What a move did is told from the observer's records (the hook ``render.consequences``
    takes them, with the action): the narration and the text modules it draws on (all but
    ``view.py``, which reads the state into the record, and ``render.py``, the hook) import no
    rule and ask the engine nothing (no clone, no trial move)."""
    package = package_of(env_id)
    text_dir = pathlib.Path(importlib.import_module(f"{package}.text").__file__).parent
    todo, seen = ["narration"], set()
    while todo:
        name = todo.pop()
        if name in seen or name in ("view", "render"):
            continue
        seen.add(name)
        tree = ast.parse((text_dir / f"{name}.py").read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                if node.level == 1 and node.module:
                    todo.append(node.module)
                assert not (node.level == 2 and (node.module or "").startswith("rules")), \
                    f"{package}.text.{name} imports the rules"
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                assert node.func.attr not in ENGINE_CALLS, \
                    f"{package}.text.{name} calls .{node.func.attr}() on line {node.lineno}"
    assert "narration" in seen


@pytest.mark.parametrize("env_id", TEMPLATE_GAMES)
def test_each_piece_lives_where_the_template_puts_it(env_id):
    package = package_of(env_id)
    game_class = game_spec(env_id).game_class
    state_class = game_class.state_class
    assert game_class.__module__ == f"{package}.rules.game"
    assert state_class.__module__ == f"{package}.rules.state"
    text = importlib.import_module(f"{package}.text")
    assert state_class.RENDER is text
    # every hook of the presentation protocol (mypy checks the signatures): the functions
    # given, the optional ones given or set to None
    hooks = [n for n in vars(Presentation) if not n.startswith("_")]
    assert len(hooks) == 10 and all(hasattr(text, n) for n in hooks), hooks
    assert all(callable(getattr(text, n)) for n in hooks if not isinstance(vars(Presentation)[n], property))
    assert state_class.picture_module() is importlib.import_module(f"{package}.picture")
    handlers = importlib.import_module(f"{package}.rules.handlers").HANDLERS
    assert state_class.HANDLERS is handlers
    for row in handlers.values():     # every handler is a rule of the rules package
        for fn in row:
            if fn is not None:
                assert fn.__module__.startswith(f"{package}.rules."), fn.__qualname__
    for name in ("new_game", game_class.__name__, state_class.__name__):
        assert hasattr(importlib.import_module(f"{package}.rules"), name), name


def declared(env_id: str) -> tuple[list[str], list[str]]:
    """The blocks and the fields the game's facts class declares, in order."""
    package = package_of(env_id)
    facts = importlib.import_module(f"{package}.rules.facts")
    classes = [c for c in vars(facts).values()
               if inspect.isclass(c) and c.__module__ == facts.__name__ and c.__annotations__]
    assert len(classes) == 1, classes
    hints = typing.get_type_hints(classes[0])
    blocks = [n for n in classes[0].__annotations__ if hints[n] is BlockView]
    fields = [n for n in classes[0].__annotations__ if hints[n] is not BlockView]
    assert issubclass(game_spec(env_id).game_class.state_class, classes[0])
    return blocks, fields


@pytest.mark.parametrize("env_id", TEMPLATE_GAMES)
def test_the_state_declares_exactly_its_blocks_and_fields(env_id):
    game_class = game_spec(env_id).game_class
    blocks, fields = declared(env_id)
    assert fields == list(game_class.state_class.FIELDS)
    for n in sorted({cfg["num_players"] for cfg in game_class.all_configs()}):
        layout = Layout(n)
        game_class.build_layout(layout)
        assert blocks == list(layout.blocks), f"{n} players"


@pytest.mark.parametrize("env_id", TEMPLATE_GAMES)
def test_each_declared_block_is_the_state_attribute_of_its_shape(env_id):
    game_class = game_spec(env_id).game_class
    state = game_class.shared(game_class.all_configs()[0]).new_initial_state(seed=0)
    blocks, _ = declared(env_id)
    for name in blocks:
        block = state.game.layout.blocks[name]
        assert getattr(state, name).shape == (block.shape if block.shape else (1,)), name
