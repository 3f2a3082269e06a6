"""`make cluster`: PostgreSQL with automatic failover on this one machine: pg_auto_failover's
monitor, a primary and a synchronous standby, each with a data directory and port of its own
under one folder. The service reaches it with the multi-host URL `url` prints.

Why pg_auto_failover (Debian's postgresql-15-auto-failover) over Patroni or repmgr: it needs no
consensus store beside PostgreSQL (the monitor is one more PostgreSQL), it keeps the standby
synchronous (`ANY 1`) while it is healthy, and it promotes only a standby that has every commit:
an acknowledged write is on two servers before the service answers. The monitor decides
failovers and holds no data: while it is down nothing fails over, and the primary keeps serving.

    python -m service.tools.cluster start|stop|status|url|kill-primary|rejoin [--dir D] [--port P]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import pwd
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from service.tools.hosts import Hosts

BIN = Path("/usr/lib/postgresql/15/bin")  # pg_autoctl calls pg_ctl, initdb, pg_basebackup
NODES = ("node1", "node2")
START_WITHIN = 180  # seconds for a node to reach its state on a loaded machine
# The monitor checks each node every second, calls a primary that stops answering unhealthy
# after 3 s, and waits 3 s (not 30) for it to step down before it promotes the standby: with the
# defaults writes came back 34.5 s after a kill, past the drill's 15 s. Promoting early is safe
# here: the standby is synchronous, so an old primary cut off from it commits nothing more.
FAST_CHECKS = {
    "pgautofailover.health_check_period": 1000,
    "pgautofailover.health_check_timeout": 1000,
    "pgautofailover.health_check_max_retries": 1,
    "pgautofailover.health_check_retry_delay": 500,
    "pgautofailover.node_considered_unhealthy_timeout": 3000,
    "pgautofailover.primary_demote_timeout": 3000,
}


class Cluster:
    """With `hosts`, each node runs on a host of its own (a network namespace, see hosts.py) so
    its network can be cut; the monitor stays in the root namespace, at the bridge's address."""

    def __init__(self, folder: Path, port: int, hosts: Hosts | None = None) -> None:
        self.folder = folder.resolve()
        self.ports = {"monitor": port, NODES[0]: port + 1, NODES[1]: port + 2}
        self.hosts = hosts
        self.addresses = dict.fromkeys(("monitor", *NODES), "127.0.0.1")
        if hosts is not None:
            self.addresses["monitor"] = hosts.gateway
            for node in NODES:
                self.addresses[node] = hosts.addresses.get(node) or hosts.add(node)

    def _at(self, name: str) -> str:
        return f"{self.addresses[name]}:{self.ports[name]}"

    @property
    def monitor_url(self) -> str:
        return f"postgres://autoctl_node@{self._at('monitor')}/pg_auto_failover"

    def url(self, database: str = "postgres") -> str:
        hosts = ",".join(self._at(node) for node in NODES)
        return f"postgresql://postgres@{hosts}/{database}?target_session_attrs=read-write"

    def node_url(self, node: str, database: str = "postgres") -> str:
        return f"postgresql://postgres@{self._at(node)}/{database}"

    # -- running pg_autoctl ------------------------------------------------------------------

    def _env(self) -> dict[str, str]:
        # pg_autoctl keeps its state under XDG folders: these keep it inside the cluster's.
        return {
            **os.environ,
            "PATH": f"{BIN}:{os.environ.get('PATH', '')}",
            "XDG_CONFIG_HOME": str(self.folder / "config"),
            "XDG_DATA_HOME": str(self.folder / "share"),
            "XDG_RUNTIME_DIR": str(self.folder / "run"),
        }

    def _as_postgres(self, command: list[str]) -> list[str]:
        """PostgreSQL refuses to run as root: run as the postgres user when we are root."""
        if os.geteuid() == 0:
            return [
                "runuser",
                "-u",
                "postgres",
                "--",
                "env",
                f"PATH={self._env()['PATH']}",
                *command,
            ]
        return command

    def _spawn(self, name: str, command: list[str]) -> None:
        """A pg_autoctl process in a session of its own (it outlives `make cluster`, and one
        node's end never reaches another's); its pid is kept for stop and kill."""
        log = (self.folder / f"{name}.log").open("ab")
        on_host = self.hosts.inside(name) if self.hosts and name in NODES else []
        process = subprocess.Popen(
            [*on_host, *self._as_postgres(command)],
            env=self._env(),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        (self.folder / f"{name}.pid").write_text(str(process.pid))

    def _autoctl(self, *arguments: str) -> str:
        done = subprocess.run(
            self._as_postgres(["pg_autoctl", *arguments]),
            env=self._env(),
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        return done.stdout

    # -- the commands ---------------------------------------------------------------------------

    def start(self) -> None:
        if shutil.which("pg_autoctl") is None:
            raise SystemExit("pg_autoctl is missing: apt-get install postgresql-15-auto-failover")
        for part in ("", "config", "share", "run"):
            (self.folder / part).mkdir(parents=True, exist_ok=True)
        if os.geteuid() == 0:
            postgres = pwd.getpwnam("postgres")
            for path in (self.folder, *self.folder.rglob("*")):
                os.chown(path, postgres.pw_uid, postgres.pw_gid)
        common = ["--auth", "trust", "--no-ssl", "--run"]
        # on hosts of their own, the service and the other node come in from the bridge's LAN
        lan = ["--pg-hba-lan"] if self.hosts is not None else []
        if not (self.folder / "monitor").exists():
            self._spawn("monitor", self._create("monitor", "monitor", common))
            self._wait("the monitor", lambda: self._sql(self.monitor_url, "select 1") == "1")
            for name, value in FAST_CHECKS.items():
                self._sql(self.monitor_url, f"alter system set {name} = {value}", admin=True)
            self._sql(self.monitor_url, "select pg_reload_conf()", admin=True)
            # Alone, the first node is "single"; it becomes the primary when the standby joins.
            for node, state in zip(NODES, ("single", "secondary"), strict=True):
                monitor = ["--name", node, "--monitor", f"{self.monitor_url}?sslmode=disable"]
                self._spawn(node, self._create("postgres", node, [*common, *lan, *monitor]))
                self._wait(f"{node} as {state}", lambda n=node, s=state: self.state(n) == s)
        else:  # made before: run what is not running
            for name in ("monitor", *NODES):
                if not self.running(name):
                    self.rejoin(name)
            self._wait("a primary", lambda: self.primary() is not None)

    def _create(self, kind: str, name: str, options: list[str]) -> list[str]:
        pgdata = str(self.folder / name)
        port, host = str(self.ports[name]), self.addresses[name]
        where = ["--pgdata", pgdata, "--pgport", port, "--hostname", host]
        return ["pg_autoctl", "create", kind, *where, *options]

    def rejoin(self, name: str) -> None:
        """Start a stopped (or killed) member again: a former primary comes back as a standby."""
        self._spawn(name, ["pg_autoctl", "run", "--pgdata", str(self.folder / name)])

    def stop(self) -> None:
        for name in (*NODES, "monitor"):
            self._signal(name, signal.SIGTERM)
        give_up = time.monotonic() + 30
        while any(self.running(name) for name in ("monitor", *NODES)):
            if time.monotonic() > give_up:
                for name in ("monitor", *NODES):
                    self._signal(name, signal.SIGKILL)
                break
            time.sleep(0.2)

    def kill(self, node: str) -> None:
        """SIGKILL a node's keeper and its PostgreSQL at once: its machine died."""
        self._signal(node, signal.SIGKILL)

    def _signal(self, name: str, number: signal.Signals) -> None:
        pid = self._pid(name)
        if pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, number)  # the keeper's session: its postgres too

    def _pid(self, name: str) -> int | None:
        path = self.folder / f"{name}.pid"
        return int(path.read_text()) if path.exists() else None

    def running(self, name: str) -> bool:
        pid = self._pid(name)
        if pid is None:
            return False
        try:
            os.killpg(pid, 0)
        except ProcessLookupError:
            return False
        return True

    def state(self, node: str) -> str | None:
        """The node's state as the monitor last heard it (primary, secondary, ...)."""
        found = self._sql(
            self.monitor_url,
            f"select reportedstate from pgautofailover.node where nodename = '{node}'",
            admin=True,
        )
        return found or None

    def primary(self) -> str | None:
        """The node that takes writes now (asked of the nodes themselves, not the monitor)."""
        for node in NODES:
            if self._sql(self.node_url(node), "select pg_is_in_recovery()") == "f":
                return node
        return None

    def _sql(self, url: str, statement: str, *, admin: bool = False) -> str:
        if admin:  # the monitor lets its superuser in from its own machine only
            url = url.replace(f"autoctl_node@{self.addresses['monitor']}", "postgres@127.0.0.1")
        done = subprocess.run(
            [str(BIN / "psql"), f"{url}?connect_timeout=2", "-Atqc", statement],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        return done.stdout.strip()

    def _wait(self, what: str, condition: object) -> None:
        assert callable(condition)
        give_up = time.monotonic() + START_WITHIN
        while not condition():
            if time.monotonic() > give_up:
                raise SystemExit(f"{what} did not come up in {START_WITHIN} s: see {self.folder}")
            time.sleep(0.5)

    def status(self) -> str:
        return self._autoctl("show", "state", "--pgdata", str(self.folder / "monitor"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m service.tools.cluster", description=__doc__)
    parser.add_argument(
        "action", choices=["start", "stop", "status", "url", "kill-primary", "rejoin"]
    )
    parser.add_argument("--dir", type=Path, default=Path("var/cluster"))
    parser.add_argument(
        "--port", type=int, default=6501, help="the monitor's; nodes take the next two"
    )
    parser.add_argument("--node", choices=NODES, help="for rejoin")
    args = parser.parse_args(argv)
    cluster = Cluster(args.dir, args.port)
    if args.action == "start":
        cluster.start()
        print(cluster.status())
        print(f"CARDLEDGER_DATABASE_URL='{cluster.url()}'")
    elif args.action == "stop":
        cluster.stop()
    elif args.action == "status":
        print(cluster.status())
    elif args.action == "url":
        print(cluster.url())
    elif args.action == "kill-primary":
        primary = cluster.primary()
        if primary is None:
            print("no primary answers", file=sys.stderr)
            return 1
        cluster.kill(primary)
        print(f"killed {primary}")
    elif args.action == "rejoin":
        for node in [args.node] if args.node else NODES:
            if not cluster.running(node):
                cluster.rejoin(node)
    return 0


if __name__ == "__main__":
    sys.exit(main())
