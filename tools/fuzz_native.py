"""Coverage-guided fuzzing of the native engines with hostile input (atheris, libFuzzer's
engine for Python): state dicts bent out of shape and action sequences, fed to
``from_dict`` and then to ``apply``, the observations, clones, determinizations and results.

What may happen: ``from_dict`` refuses the dict (ValueError, TypeError, KeyError: the same
words from both engines, checked for a sample), or the state plays, refusing illegal actions
with IllegalActionError. Anything else (another exception, a crash, a sanitizer report when
the modules are built with ASan/UBSan: ``make fuzz-native``) is a finding: atheris stops
and writes the input that caused it.

    python tools/fuzz_native.py [--env chickwood_v0] [atheris/libFuzzer flags, e.g. -max_total_time=600]
"""

from __future__ import annotations

import argparse
import copy
import sys

import atheris

with atheris.instrument_imports(include=["forest_envs"]):
    import forest_envs  # noqa: F401  (registers the games)
    from forest_envs.core.errors import IllegalActionError
    from forest_envs.core.registry import game_spec

import numpy as np

REFUSALS = (ValueError, TypeError, KeyError)
_BASES: dict = {}
_RECORDS: dict[str, list[tuple[str, tuple[str, ...]]]] = {}  # env id -> (record, its fields)


def _records_in(value, found: dict[str, tuple[str, ...]]) -> None:
    """The typed records (``{"record": name, "fields": {...}}``) a state dict holds."""
    if isinstance(value, dict):
        if isinstance(value.get("record"), str) and isinstance(value.get("fields"), dict):
            found.setdefault(value["record"], tuple(sorted(value["fields"])))
        for item in value.values():
            _records_in(item, found)
    elif isinstance(value, list):
        for item in value:
            _records_in(item, found)


def _bases(env_id: str) -> list[tuple]:
    """(game, state dicts of real positions) per configuration, made once."""
    if env_id not in _BASES:
        game_class = game_spec(env_id).game_class
        out = []
        for config in game_class.all_configs():
            game = game_class.shared(config)
            dicts = []
            for seed in range(3):
                state = game.new_initial_state(seed, "python")
                rng = np.random.default_rng(seed)
                for step in range(400):
                    if state.is_terminal:
                        break
                    if step % 25 == 0:
                        dicts.append(state.to_dict())
                    state.apply(int(rng.choice(np.flatnonzero(state.legal_action_mask()))))
            out.append((game, dicts))
        _BASES[env_id] = out
        found: dict[str, tuple[str, ...]] = {}
        _records_in([d for _, dicts in out for d in dicts], found)
        _RECORDS[env_id] = sorted(found.items())
    return _BASES[env_id]


def _value(fdp: atheris.FuzzedDataProvider, records: list, depth: int = 0):
    """A random JSON-like value, shaped like the state dicts' own (``records``: the game's
    typed records, with their field names)."""
    pick = fdp.ConsumeIntInRange(0, 9 if depth < 2 else 4)
    if pick == 0:
        return fdp.ConsumeIntInRange(-3, 40)
    if pick == 1:
        return fdp.ConsumeInt(4)
    if pick == 2:
        return None
    if pick == 3:
        return fdp.ConsumeBool()
    if pick == 4:
        return fdp.ConsumeUnicodeNoSurrogates(6)
    if pick == 5:
        return [_value(fdp, records, depth + 1) for _ in range(fdp.ConsumeIntInRange(0, 4))]
    if pick == 6:
        return {"tuple": [_value(fdp, records, depth + 1) for _ in range(fdp.ConsumeIntInRange(0, 4))]}
    if pick == 7:
        values = [fdp.ConsumeIntInRange(-2, 30) for _ in range(fdp.ConsumeIntInRange(0, 40))]
        return {"array": values, "dtype": fdp.PickValueInList(["|i1", "<i2", "<f8", "|b1"]),
                "shape": [len(values)]}
    if pick == 8 and records:
        name, fields = fdp.PickValueInList(records)
        return {"record": name, "fields": {f: _value(fdp, records, 2) for f in fields}}
    return {"dict": [[_value(fdp, records, depth + 1), _value(fdp, records, depth + 1)]]}


def _mutate(fdp: atheris.FuzzedDataProvider, data: dict, records: list) -> None:
    """One change: a buffer entry, a key replaced or dropped, a part of a nested value."""
    keys = sorted(data)
    what = fdp.ConsumeIntInRange(0, 5)
    if what <= 1 and isinstance(data.get("buf"), list) and data["buf"]:
        buf = data["buf"]
        buf[fdp.ConsumeIntInRange(0, len(buf) - 1)] = fdp.ConsumeIntInRange(-40000, 40000) if what else \
            fdp.ConsumeIntInRange(-2, 30)
    elif what == 2:
        data[fdp.PickValueInList(keys)] = _value(fdp, records)
    elif what == 3 and fdp.ConsumeProbability() < 0.2:
        data.pop(fdp.PickValueInList(keys), None)
    else:
        node = data[fdp.PickValueInList(keys)]
        for _ in range(4):  # walk into the value, then change what is there
            if isinstance(node, dict) and node:
                key = fdp.PickValueInList(sorted(node, key=str))
                if not isinstance(node[key], (dict, list)) or fdp.ConsumeBool():
                    node[key] = _value(fdp, records, 1)
                    return
                node = node[key]
            elif isinstance(node, list) and node:
                i = fdp.ConsumeIntInRange(0, len(node) - 1)
                if not isinstance(node[i], (dict, list)) or fdp.ConsumeBool():
                    node[i] = _value(fdp, records, 1)
                    return
                node = node[i]
            else:
                return


def _play(state, fdp: atheris.FuzzedDataProvider, num_actions: int) -> None:
    for _ in range(fdp.ConsumeIntInRange(0, 60)):
        choice = fdp.ConsumeIntInRange(0, 9)
        if choice == 0:
            state.clone()
        elif choice == 1 and not state.is_terminal:
            state.resample_hidden(fdp.ConsumeIntInRange(0, state.num_players - 1),
                                  np.random.default_rng(fdp.ConsumeInt(4) & 0xFFFF))
        elif choice == 2:
            for seat in range(state.num_players):
                state.observation(seat)
            state.global_state()
            state.ranks()
            state.scores()
        elif choice == 3:
            state.to_dict()
        else:
            legal = np.flatnonzero(state.legal_action_mask())
            if fdp.ConsumeBool() and legal.size:
                action = int(legal[fdp.ConsumeIntInRange(0, legal.size - 1)])
            else:
                action = fdp.ConsumeIntInRange(-3, num_actions + 3)
            try:
                state.apply(action)
            except IllegalActionError:
                pass


def one_input(env_id: str, data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    game, dicts = fdp.PickValueInList(_bases(env_id))
    state_dict = copy.deepcopy(fdp.PickValueInList(dicts))
    for _ in range(fdp.ConsumeIntInRange(0, 4)):
        _mutate(fdp, state_dict, _RECORDS[env_id])
    try:
        state = game.state_from_dict(state_dict, "native")
    except REFUSALS:
        return
    _play(state, fdp, game.num_actions)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--env", default="chickwood_v0", help="a game with a native engine")
    args, rest = parser.parse_known_args()
    if game_spec(args.env).game_class.native_state_class is None:
        sys.exit(f"{args.env} has no native engine built here")
    atheris.Setup([sys.argv[0], *rest], lambda data: one_input(args.env, data))
    atheris.Fuzz()


if __name__ == "__main__":
    main()
