"""The failover drill's API nodes: `cardledger serve` on hosts of their own (network
namespaces, service/tools/hosts.py) behind one balancer on 127.0.0.1 (tests/faults/proxy.py),
for the fault "nodes" of tests/faults/failover.py."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from service.settings import Settings
from service.tools.hosts import Hosts
from tests.faults.proxy import FaultyProxy
from tests.support.servers import start_process, stop_process, wait_until_ready

API_NODES = ("api1", "api2")
API_PORT = 8000  # on each API node's own address


class ApiNodes:
    """`cardledger serve` on hosts of their own, behind one balancer on 127.0.0.1."""

    def __init__(self, base: str, processes: dict[str, subprocess.Popen[bytes]]) -> None:
        self.base = base
        self.processes = processes

    def kill(self, name: str) -> None:
        """SIGKILL the node's server, as when its machine dies."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.processes[name].pid, signal.SIGKILL)


@contextmanager
def api_nodes(settings: Settings, folder: Path, hosts: Hosts) -> Iterator[ApiNodes]:
    processes: dict[str, subprocess.Popen[bytes]] = {}
    targets = []
    env = {**os.environ, "CARDLEDGER_LIMITS": "off"}
    env["CARDLEDGER_DATABASE_URL"] = str(settings.database_url)
    env["CARDLEDGER_LOG_KEY"] = str(folder / "log-key.pem")  # one log, one key: the first makes it
    try:
        for name in API_NODES:
            address = hosts.add(name)
            data = folder / name
            data.mkdir()
            command = [*hosts.inside(name), sys.executable, "-m", "service.tools.cli", "serve"]
            command += ["--host", address, "--port", str(API_PORT)]
            processes[name] = start_process(
                command, env={**env, "CARDLEDGER_DATA_DIR": str(data)}, log=data / "serve.log"
            )
            targets.append((address, API_PORT))
        for name, (address, port) in zip(API_NODES, targets, strict=True):
            wait_until_ready(f"http://{address}:{port}", processes[name])
        balancer = FaultyProxy(*targets)
        try:
            yield ApiNodes(f"http://127.0.0.1:{balancer.port}", processes)
        finally:
            balancer.close()
    finally:
        for process in processes.values():
            stop_process(process)
