"""A ``pip install forest_envs`` user trains without a clone: the configs ship as package data
(named by ``forest-envs train NAME``, listed, printed and copied by ``forest-envs configs``),
RLlib is ``forest-envs train-rllib``, and a command whose extra is missing says which to install
in one line, exit 2."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from forest_envs.cli.main import main
from forest_envs.core.errors import ConfigError
from forest_envs.train.config import load_config, resolve_config, shipped_configs

PACKAGE = Path(__file__).resolve().parents[1] / "forest_envs"
NAMES = ["chickwood", "chickwood_baseline", "chickwood_ppo_only", "chickwood_rllib", "demo", "roundforest",
         "roundforest_baseline", "roundforest_rllib", "sherwood", "sherwood_baseline", "sherwood_rllib",
         "smoke", "smoke_rllib"]


def test_the_configs_are_package_data_named_by_file():
    shipped = shipped_configs()
    assert list(shipped) == NAMES
    assert shipped["chickwood"] == PACKAGE / "configs" / "chickwood.yaml"


def test_a_config_is_a_name_or_a_file(tmp_path, monkeypatch):
    assert resolve_config("chickwood") == PACKAGE / "configs" / "chickwood.yaml"
    assert resolve_config("chickwood.yaml") == PACKAGE / "configs" / "chickwood.yaml"
    assert load_config("smoke")["total_timesteps"] == 512
    # a file of that name in the working folder is the file, not the shipped config
    monkeypatch.chdir(tmp_path)
    (tmp_path / "smoke.yaml").write_text((PACKAGE / "configs" / "smoke.yaml").read_text()
                                         .replace("total_timesteps: 512", "total_timesteps: 256"))
    assert resolve_config("smoke.yaml") == Path("smoke.yaml")
    assert load_config("smoke.yaml")["total_timesteps"] == 256
    with pytest.raises(ConfigError) as err:
        resolve_config("chickwod")
    assert str(err.value) == (
        "config file 'chickwod' does not exist; give a YAML file or the name of a shipped config: "
        + ", ".join(NAMES) + " (forest-envs configs lists them)")
    # the old path from a clone's root names where that config is now
    with pytest.raises(ConfigError, match=r"^config file 'configs/demo.yaml' does not exist \(the shipped "
                       r"config 'demo' is .*forest_envs/configs/demo.yaml\); give a YAML file"):
        resolve_config("configs/demo.yaml")


def test_configs_lists_prints_and_copies(tmp_path, capsys):
    assert main(["configs"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines[:len(NAMES)]] == NAMES
    assert lines[NAMES.index("smoke")] == ("smoke" + " " * 17
                                           + "Tiny run used by the tests: every moving part, seconds of compute.")
    assert all(len(line) <= 100 for line in lines)
    assert main(["configs", "smoke"]) == 0
    out = capsys.readouterr().out
    assert out == f"# {PACKAGE / 'configs' / 'smoke.yaml'}\n" + (PACKAGE / "configs" / "smoke.yaml").read_text()
    assert main(["configs", "smoke", "demo", "--copy", str(tmp_path)]) == 0
    assert capsys.readouterr().out.splitlines() == [f"wrote {tmp_path / 'smoke.yaml'}", f"wrote {tmp_path / 'demo.yaml'}"]
    assert (tmp_path / "demo.yaml").read_text() == (PACKAGE / "configs" / "demo.yaml").read_text()
    (tmp_path / "demo.yaml").write_text("mine")
    assert main(["configs", "demo", "--copy", str(tmp_path)]) == 2
    assert capsys.readouterr().err == (f"forest-envs: --copy: {tmp_path / 'demo.yaml'} already exist(s); "
                                       "--overwrite replaces them\n")
    assert (tmp_path / "demo.yaml").read_text() == "mine"
    assert main(["configs", "demo", "--copy", str(tmp_path), "--overwrite"]) == 0
    assert (tmp_path / "demo.yaml").read_text() == (PACKAGE / "configs" / "demo.yaml").read_text()
    assert main(["configs", "nope"]) == 2
    assert capsys.readouterr().err.startswith("forest-envs: no shipped config named 'nope'; the shipped configs: chickwood,")


@pytest.mark.parametrize("argv, missing, message", [
    (["train", "smoke"], "torch", "train needs the 'train' extra, which is not installed (missing: torch): "
     "pip install 'forest_envs[train]'"),
    (["demo", "--quiet"], "sb3_contrib", "train needs the 'train' extra, which is not installed (missing: "
     "sb3_contrib): pip install 'forest_envs[train]'"),
    (["plot", "eval.csv"], "matplotlib", "plot needs the 'train' extra, which is not installed (missing: "
     "matplotlib): pip install 'forest_envs[train]'"),
    (["evaluate", "--env", "chickwood_v0", "--agents", "random,random,random", "--plot", "r.png"], "matplotlib",
     "plot needs the 'train' extra, which is not installed (missing: matplotlib): pip install 'forest_envs[train]'"),
    (["train-rllib", "smoke_rllib"], "ray", "train-rllib needs the 'rllib' extra, which is not installed "
     "(missing: ray): pip install 'forest_envs[rllib]'"),
    (["study", "tiny"], "rliable", "study needs the 'study' extra, which is not installed (missing: "
     "rliable; rliable computes the statistics): pip install 'forest_envs[study]'"),
    (["bench"], "pygame", "bench needs the 'bench' extra, which is not installed (missing: pygame; pygame "
     "draws PettingZoo's connect_four_v3, the reference every row is measured against): pip install "
     "'forest_envs[bench]'"),
])
def test_a_missing_extra_is_one_line_and_status_2(argv, missing, message, monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setitem(sys.modules, missing, None)  # as if not installed: find_spec gives None
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.err == f"forest-envs: {message}\n"
    assert captured.out == ""


def test_train_without_a_config_says_what_to_give(capsys):
    assert main(["train"]) == 2
    assert capsys.readouterr().err == ("forest-envs: give a config: the name of a shipped one (forest-envs "
                                       "configs lists them) or a YAML file\n")
