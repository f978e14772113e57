"""A study's runs on a Ray cluster (``forest-envs study --address``): one Ray actor per run,
holding ``cpus_per_run`` CPUs, so Ray places a run only on a node with the CPUs it declared
and never more runs on a node than its CPUs allow.

Nodes need not share a filesystem: a run's folder travels with it. The driver packs the run's
folder (its log, the training folder an earlier session left, its curve) and the study's
references.json into one archive; the actor unpacks them into a temporary folder on its node,
runs ``python -m forest_envs.studies.run_one`` there as a process of its own (as
``LocalProcesses`` does, so a Ctrl-C reaches it as one SIGINT and it saves a checkpoint), and
returns the folder when the run ends; the driver puts it in place of the run's folder. Every
node must have the same forest_envs installed (checked: a run on a node with another version
fails, naming both).

A run's result does not depend on where it runs: its plan fixes the seed and every setting, so
an algorithm that is deterministic on one machine gives the same curve and final scores on a
cluster (the slow test compares them with a local run).
"""

from __future__ import annotations

import io
import json
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from pathlib import Path

from ..core.errors import ConfigError
from .dispatch import LOG, STOP_GRACE_SECONDS, Ended, run_environment
from .plan import RunPlan
from .run_one import INTERRUPTED

FAILED = 1          # run_one's exit status for a failed run
PLAN = "plan.json"  # the driver's own, with the driver's paths: never sent back


def pack_folder(folder: Path, leave_out: tuple[str, ...] = ()) -> bytes:
    """The files under ``folder`` (but the top-level names in ``leave_out``) as a gzip tar."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for path in sorted(folder.iterdir()) if folder.is_dir() else []:
            if path.name not in leave_out:
                tar.add(path, arcname=path.name)
    return buffer.getvalue()


def unpack_folder(archive: bytes, folder: Path) -> None:
    """``pack_folder``'s archive into ``folder`` (created if need be). Only plain files and
    folders inside ``folder`` are written (tarfile's ``data`` filter refuses the rest)."""
    folder.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(archive), mode="r:gz") as tar:
        tar.extractall(folder, filter="data")


# The run's own files that may name paths under its folder (a final entry's agent, a
# trainer's summary and config): written on the node, they name the node's folder.
PATH_BEARING = (".json", ".yaml")


def replace_folder(archive: bytes, folder: Path, moved_from: str, keep: tuple[str, ...] = (PLAN,)) -> None:
    """Make ``folder`` what ``archive`` holds (files the run deleted on its node are deleted
    here too), keeping the top-level names in ``keep``; paths under ``moved_from`` (the
    run's folder on its node) in its JSON and YAML files are made paths under ``folder``."""
    for path in folder.iterdir():
        if path.name in keep:
            continue
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()
    unpack_folder(archive, folder)
    for path in folder.rglob("*"):
        if path.suffix in PATH_BEARING and path.name not in keep and path.is_file():
            text = path.read_text()
            if moved_from in text:
                path.write_text(text.replace(moved_from, str(folder)))


def _installed_version() -> str:
    from .. import __version__

    return __version__


class RunHost:
    """The actor that runs one plan on its node (made a Ray actor by ``RayRuns``; a plain
    object here, so the tests can run it without a cluster)."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen | None = None
        self.interrupted = False
        self.lock = threading.Lock()  # run and interrupt are called from two threads

    def run(self, plan_json: dict, folder_archive: bytes, references: bytes, version: str,
            progress: bool, workers: int = 1) -> tuple[int, bytes, str, str]:
        """Run the plan in a temporary folder of this node, evaluating over ``workers``
        processes (the CPUs the run declared); (exit status, the run's folder as an archive,
        this node's address, the folder's path there)."""
        node = _node_address()
        with tempfile.TemporaryDirectory(prefix="forest-envs-run-") as tmp:
            folder = Path(tmp) / "run"
            unpack_folder(folder_archive, folder)
            log_path = folder / LOG
            if version != _installed_version():
                with log_path.open("a") as log:
                    print(f"node {node}: forest_envs {_installed_version()} is installed, the "
                          f"study's driver has {version}: install the same version on every node",
                          file=log)
                return FAILED, pack_folder(folder), node, str(folder)
            refs = Path(tmp) / "references.json"
            refs.write_bytes(references)
            plan = dict(plan_json, folder=str(folder), references=str(refs))
            (folder / PLAN).write_text(json.dumps(plan, indent=1))
            env = run_environment()
            argv = [sys.executable, "-m", "forest_envs.studies.run_one", str(folder / PLAN),
                    "--workers", str(workers)]
            with log_path.open("a") as log:
                print(f"running on node {node}", file=log, flush=True)
                with self.lock:
                    if self.interrupted:  # stopped before it started: nothing to save
                        return INTERRUPTED, pack_folder(folder, leave_out=(PLAN,)), node, str(folder)
                    proc = self.proc = subprocess.Popen(
                        argv + (["--progress"] if progress else []), stdout=log,
                        stderr=subprocess.STDOUT, env=env, start_new_session=True)
            status = proc.wait()
            return status, pack_folder(folder, leave_out=(PLAN,)), node, str(folder)

    def interrupt(self) -> None:
        """One SIGINT to the run (it saves a checkpoint and stops); a second call, a second."""
        with self.lock:
            self.interrupted = True
            if self.proc is not None and self.proc.poll() is None:
                self.proc.send_signal(signal.SIGINT)


def _node_address() -> str:
    """This node's address and Ray node id (two nodes of one machine share the address)."""
    try:
        import ray
    except ImportError:
        return "local"
    if not ray.is_initialized():  # outside Ray (the tests)
        return "local"
    return f"{ray.util.get_node_ip_address()} ({ray.get_runtime_context().get_node_id()[:12]})"


class RayRuns:
    """The dispatch (dispatch.py's protocol) over a Ray cluster this process is connected to
    (``evaluation.workers.ray_cluster``)."""

    def __init__(self, cpus_per_run: int = 1, jobs: int | None = None, progress: bool = False):
        import ray

        if cpus_per_run < 1:
            raise ConfigError(f"--cpus-per-run must be at least 1, got {cpus_per_run}")
        node_cpus = [int(n["Resources"].get("CPU", 0)) for n in ray.nodes() if n["Alive"]]
        if not node_cpus or max(node_cpus) < cpus_per_run:
            raise ConfigError(f"--cpus-per-run {cpus_per_run}: no node of the cluster has that many "
                              f"CPUs (the nodes have {node_cpus})")
        self.slots = jobs or max(1, sum(node_cpus) // cpus_per_run)
        self.cpus_per_run = cpus_per_run
        self.progress = progress
        self.host = ray.remote(num_cpus=cpus_per_run, max_concurrency=2)(RunHost)
        self.version = _installed_version()
        self.running: dict = {}  # ObjectRef -> (plan, actor, started)

    def start(self, plan: RunPlan) -> None:
        actor = self.host.remote()
        ref = actor.run.remote(plan.as_json(), pack_folder(plan.path, leave_out=(PLAN,)),
                               Path(plan.references).read_bytes(), self.version, self.progress,
                               self.cpus_per_run)
        self.running[ref] = (plan, actor, time.time())

    def _finish(self, ref) -> Ended:
        import ray

        plan, actor, started = self.running.pop(ref)
        try:
            status, archive, _, moved_from = ray.get(ref)
        except (ray.exceptions.RayError, OSError) as err:  # the node or the actor died
            with (plan.path / LOG).open("a") as log:
                print(f"the run's Ray actor failed; the folder keeps the last session's files: "
                      f"{type(err).__name__}: {err}", file=log)
            status = FAILED
        else:
            replace_folder(archive, plan.path, moved_from)
        ray.kill(actor)
        return Ended(plan, status, time.time() - started)

    def wait(self, timeout: float) -> list[Ended]:
        import ray

        if not self.running:
            return []
        ready, _ = ray.wait(list(self.running), num_returns=1, timeout=timeout)
        if ready:  # and every other run that has ended by now
            ready, _ = ray.wait(list(self.running), num_returns=len(self.running), timeout=0)
        return [self._finish(ref) for ref in ready]

    def _interrupt_all(self) -> None:
        for _, actor, _ in self.running.values():
            actor.interrupt.remote()

    def stop(self) -> list[Ended]:
        """One SIGINT to every run (each saves a checkpoint, which comes back with its folder);
        a second Ctrl-C passes on a second. Past the grace time a run's actor is killed and the
        run keeps the checkpoint its folder had before this session."""
        import ray

        self._interrupt_all()
        deadline = time.time() + STOP_GRACE_SECONDS
        ended: list[Ended] = []
        try:
            while self.running and time.time() < deadline:
                ended += self.wait(deadline - time.time())
        except KeyboardInterrupt:
            self._interrupt_all()
            while self.running and time.time() < deadline:
                ended += self.wait(deadline - time.time())
        for ref, (plan, actor, started) in list(self.running.items()):
            ray.kill(actor)
            del self.running[ref]
            ended.append(Ended(plan, -signal.SIGKILL, time.time() - started))
        return ended
