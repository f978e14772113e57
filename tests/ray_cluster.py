"""A real two-node Ray cluster on this machine for the slow tests (RLlib training and
evaluation in test_ecosystem.py, a study's runs in test_studies_ray.py): two ``ray start
--block`` nodes of one CPU each, a temp dir and an auth token of their own, stopped and
cleaned up however the test ends."""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

# A loopback address, but not 127.0.0.1: Ray rewrites "127.0.0.1"/"localhost" to the machine's
# network address when it joins a multi-node cluster (and `ray start` refuses a second node
# when told to stay on 127.0.0.1), so every node of the test cluster advertises 127.0.0.2.
LOOPBACK = "127.0.0.2"


def _free_ports(n: int) -> list[int]:
    socks = []
    try:
        for _ in range(n):
            s = socket.socket()
            s.bind(("127.0.0.1", 0))
            socks.append(s)
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


def _start_node(ray_bin: Path, args: list[str], temp_dir: str, log: Path, env: dict) -> subprocess.Popen:
    p = _free_ports(6)
    cmd = [str(ray_bin), "start", "--block", "--num-cpus=1", f"--node-ip-address={LOOPBACK}",
           f"--temp-dir={temp_dir}", "--disable-usage-stats",
           f"--node-manager-port={p[0]}", f"--object-manager-port={p[1]}",
           f"--dashboard-agent-listen-port={p[2]}", f"--dashboard-agent-grpc-port={p[3]}",
           f"--runtime-env-agent-port={p[4]}", f"--metrics-export-port={p[5]}", *args]
    # Its own session: on teardown we signal this process (and, if need be, its group) by id.
    return subprocess.Popen(cmd, stdout=log.open("w"), stderr=subprocess.STDOUT, env=env,
                            start_new_session=True)


def _wait_for_port(port: int, proc: subprocess.Popen, timeout: float = 120) -> None:
    end = time.time() + timeout
    while time.time() < end:
        if proc.poll() is not None:
            raise RuntimeError(f"ray start exited with {proc.returncode}")
        with socket.socket() as s:
            if s.connect_ex((LOOPBACK, port)) == 0:
                return
        time.sleep(0.5)
    raise TimeoutError(f"nothing listens on {LOOPBACK}:{port} after {timeout} s")


def _wait_for_start(log: Path, proc: subprocess.Popen, timeout: float = 180) -> None:
    """Until ``ray start`` says its node runs (a worker node joins some seconds after its
    process starts: tests counting the cluster's CPUs must not start before)."""
    end = time.time() + timeout
    while time.time() < end:
        if proc.poll() is not None:
            raise RuntimeError(f"ray start exited with {proc.returncode}: see {log}")
        if "Ray runtime started." in log.read_text(errors="replace"):
            return
        time.sleep(0.5)
    raise TimeoutError(f"ray start did not start its node in {timeout} s: see {log}")


def _stop_node(proc: subprocess.Popen) -> None:
    """SIGTERM to our own `ray start --block` (it stops its node's processes); SIGKILL to its
    process group if it is still there after 60 s. Never `ray stop`: that kills every Ray
    process on the machine, other users' clusters included."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)


def _kill_leftovers(temp_dir: str) -> list[int]:
    """Kill processes of our cluster still alive (their command lines name our temp dir)."""
    killed = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if temp_dir in cmdline:
            try:
                os.kill(int(entry.name), signal.SIGKILL)
                killed.append(int(entry.name))
            except ProcessLookupError:
                pass
    return killed


@dataclass
class Cluster:
    address: str                 # HOST:PORT of the head, for --address
    env: dict                    # the environment every process of the test runs with
    temp_dir: str
    leftovers: list[int] = field(default_factory=list)   # after the end: processes we killed
    worker_logs: str = ""        # after the end: the Ray workers' output (not Ray's daemons')


@contextmanager
def two_node_cluster(logs: Path):
    """A head and a worker node of one CPU each; ``logs`` gets their ``ray start`` output."""
    ray_bin = Path(sys.executable).with_name("ray")
    # A temp dir of our own, short enough for Ray's unix socket paths: the cluster's address
    # file goes there, so other ray.init() calls on this machine never join our cluster.
    temp_dir = tempfile.mkdtemp(prefix="fe-ray-", dir="/tmp")
    # A fresh token for this cluster only: nodes and driver authenticate with it (Ray >= 2.59
    # turns token authentication on; older versions ignore these variables).
    env = dict(os.environ, PYTHONWARNINGS="default::DeprecationWarning", RAY_USAGE_STATS_ENABLED="0",
               RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=secrets.token_hex(32))
    for var in ("RAY_ADDRESS", "RAY_AUTH_TOKEN_PATH"):
        env.pop(var, None)
    port, client_port = _free_ports(2)
    cluster = Cluster(f"{LOOPBACK}:{port}", env, temp_dir)
    nodes = []
    try:
        nodes.append(_start_node(ray_bin, ["--head", f"--port={port}", "--include-dashboard=false",
                                           f"--ray-client-server-port={client_port}"],
                                 temp_dir, logs / "head.log", env))
        _wait_for_port(port, nodes[0])
        nodes.append(_start_node(ray_bin, [f"--address={cluster.address}"], temp_dir,
                                 logs / "worker.log", env))
        _wait_for_start(logs / "worker.log", nodes[1])
        yield cluster
    finally:
        for proc in reversed(nodes):
            _stop_node(proc)
        cluster.leftovers = _kill_leftovers(temp_dir)
        worker_logs = [p for p in Path(temp_dir).rglob("worker-*") if p.is_file()]
        cluster.worker_logs = "\n".join(p.read_text(errors="replace") for p in worker_logs)
        shutil.rmtree(temp_dir, ignore_errors=True)
