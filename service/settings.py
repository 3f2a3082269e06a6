"""Settings from the environment (CARDLEDGER_*)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import NamedTuple
from urllib.parse import parse_qs, unquote, urlparse

import msgspec


class Limits(msgspec.Struct, frozen=True, kw_only=True):
    """What one client may do, per process (0 turns a limit off). The defaults let a person or
    a bot play comfortably and stop a script hammering a public deployment."""

    per_address: int = 1200  # requests a minute from one client address
    per_token: int = 600  # requests a minute with one bearer token
    registrations: int = 30  # POST /players a minute from one client address
    streams_per_address: int = 64  # live streams open at once from one client address
    streams_per_token: int = 8  # live streams open at once with one token or ticket holder
    request_seconds: int = 10  # to send a request's headers and body, or the first byte


NO_LIMITS = Limits(
    per_address=0, per_token=0, registrations=0, streams_per_address=0, streams_per_token=0
)


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    database_url: str | None = None
    read_url: str | None = None  # a standby that replays, audits, exports and the lobby read
    data_dir: Path = Path("var")
    admin_token: str | None = None
    max_body_bytes: int = 16 * 1024
    sqlite_file: str = "cardledger.sqlite3"
    cached_games: int = 10_000  # games each process keeps in memory to decide commands on
    threads: int = 16  # worker threads for blocking store calls; sized with the connection pool
    projector: str = "inline"  # "inline": read models follow the log in the API process
    sqlite_synchronous: str = "FULL"  # every commit fsynced; NORMAL trades the last commits
    store_timeout: int = 5  # seconds a request waits for a connection or a lock, then 503
    in_memory: bool = False  # a private in-memory SQLite store (tools that never persist)
    limits: Limits = Limits()
    limits_url: str | None = None  # a Redis (redis://) whose counts every process shares
    trusted_proxies: str = ""  # addresses whose X-Forwarded-For names the client ("*": any)
    cors_origins: str = ""  # origins whose pages may call the API, comma-separated ("*": any)
    worker_timeout: int = 30  # seconds a worker of `serve --workers N` has to start or answer
    metrics_token: str | None = None  # when set, GET /metrics needs it as a bearer token
    queue_capacity: int = 1000  # players waiting in one variant's matchmaking queue at most
    max_active_games: int = 20  # games not over a player may sit at to join a queue or rematch
    log_key: Path | None = None  # the witnessed log's signing key (None: <data_dir>/log-key.pem)
    log_origin: str = "cardledger.local/log"  # the log's name in its checkpoints
    witnesses: str = ""  # "<verifier key> <URL>" of each witness, comma-separated
    webhook_allow: str = ""  # origins webhooks may call, comma-separated (empty: none)
    webhook_timeout: int = 5  # seconds one webhook delivery attempt may take in all
    webhook_retry_first: int = 1  # seconds before the first retry at most (full jitter)
    webhook_retry_most: int = 600  # seconds between retries at most (the backoff's cap)
    webhook_give_up: int = 86_400  # seconds of failing deliveries before a webhook is paused

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ
        settings = cls(
            database_url=env.get("CARDLEDGER_DATABASE_URL") or None,
            read_url=env.get("CARDLEDGER_READ_URL") or None,
            data_dir=Path(env.get("CARDLEDGER_DATA_DIR") or "var"),
            admin_token=env.get("CARDLEDGER_ADMIN_TOKEN") or None,
            projector=env.get("CARDLEDGER_PROJECTOR") or "inline",
            sqlite_synchronous=(env.get("CARDLEDGER_SQLITE_SYNCHRONOUS") or "FULL").upper(),
            trusted_proxies=env.get("CARDLEDGER_TRUSTED_PROXIES") or "",
            cors_origins=env.get("CARDLEDGER_CORS_ORIGINS") or "",
            metrics_token=env.get("CARDLEDGER_METRICS_TOKEN") or None,
            log_key=Path(env["CARDLEDGER_LOG_KEY"]) if env.get("CARDLEDGER_LOG_KEY") else None,
            log_origin=env.get("CARDLEDGER_LOG_ORIGIN") or "cardledger.local/log",
            witnesses=env.get("CARDLEDGER_WITNESSES") or "",
            webhook_allow=env.get("CARDLEDGER_WEBHOOK_ALLOW") or "",
            limits=_limits(env),
            limits_url=_redis_url(env.get("CARDLEDGER_LIMITS_URL") or None),
        )
        return msgspec.structs.replace(settings, **_numbers(env, NUMBERS, least=1))

    def store_env(self) -> dict[str, str]:
        """The eventsourcing library's configuration for the chosen store."""
        return self._persistence_env()

    def _persistence_env(self) -> dict[str, str]:
        if self.in_memory:
            return {
                "PERSISTENCE_MODULE": "eventsourcing.sqlite",
                "SQLITE_DBNAME": f"file:cardledger-{uuid.uuid4().hex}?mode=memory&cache=shared",
            }
        if self.database_url is None:
            self.data_dir.mkdir(parents=True, exist_ok=True)
            return {
                "PERSISTENCE_MODULE": "eventsourcing.sqlite",
                "SQLITE_DBNAME": str(self.data_dir / self.sqlite_file),
                "SQLITE_LOCK_TIMEOUT": str(self.store_timeout),
                "SQLITE_SYNCHRONOUS": self.sqlite_synchronous,
                "SQLITE_READERS": str(max(4, self.threads // 2)),
            }
        return self._postgres_env(
            self.database_url, "CARDLEDGER_DATABASE_URL", "read-write", pool=self.threads // 2
        )

    def read_env(self) -> dict[str, str] | None:
        """The library's configuration for the standby reads come from, if one is set: never
        creates a table, prefers a standby among several hosts, a pool of its own."""
        if self.read_url is None:
            return None
        if self.database_url is None:
            raise ValueError(
                "CARDLEDGER_READ_URL is a standby of CARDLEDGER_DATABASE_URL: set both"
            )
        pool = max(2, self.threads // 4)
        env = self._postgres_env(self.read_url, "CARDLEDGER_READ_URL", "prefer-standby", pool=pool)
        return {**env, "CREATE_TABLE": "n"}

    def _postgres_env(self, text: str, variable: str, several: str, *, pool: int) -> dict[str, str]:
        url = urlparse(text)
        if url.scheme not in ("postgresql", "postgres"):
            raise ValueError(f"{variable} must be a postgresql:// URL")
        query = parse_qs(url.query)
        user, password, hosts, ports = _servers(url.netloc)
        # Several hosts (a failover cluster): connect to the one that takes writes (or, for
        # reads, a standby if one answers), whichever that is now, unless the URL says otherwise.
        attrs = query.get("target_session_attrs", [several if "," in hosts else "any"])[0]
        return {
            "PERSISTENCE_MODULE": "eventsourcing.postgres",
            "POSTGRES_SCHEMA": query.get("schema", [""])[0],
            "POSTGRES_DBNAME": url.path.lstrip("/") or "postgres",
            "POSTGRES_HOST": hosts,
            "POSTGRES_PORT": ports,
            "POSTGRES_USER": user,
            "POSTGRES_PASSWORD": password,
            "POSTGRES_TARGET_SESSION_ATTRS": attrs,
            "POSTGRES_POOL_SIZE": str(pool),
            "POSTGRES_MAX_OVERFLOW": str(pool + 4),  # + notifier, listener, leader
            "POSTGRES_CONNECT_TIMEOUT": str(self.store_timeout),
        }


def _servers(netloc: str) -> tuple[str, str, str, str]:
    """User, password, hosts and ports (libpq's comma-separated lists) of a URL's netloc, which
    may name several servers: ``user:pw@host1:5432,host2:5433``."""
    userinfo, _, servers = netloc.rpartition("@")
    user, _, password = userinfo.partition(":")
    hosts, ports = [], []
    for server in servers.split(","):
        if server.startswith("["):  # [IPv6]:port
            host, _, rest = server[1:].partition("]")
            port = rest.removeprefix(":")
        else:
            host, _, port = server.partition(":")
        hosts.append(host or "127.0.0.1")
        ports.append(port or "5432")
    return unquote(user or "postgres"), unquote(password), ",".join(hosts), ",".join(ports)


NUMBERS = {
    "CARDLEDGER_THREADS": "threads",
    "CARDLEDGER_CACHED_GAMES": "cached_games",
    "CARDLEDGER_STORE_TIMEOUT": "store_timeout",
    "CARDLEDGER_WORKER_TIMEOUT": "worker_timeout",
    "CARDLEDGER_QUEUE_CAPACITY": "queue_capacity",
    "CARDLEDGER_MAX_ACTIVE_GAMES": "max_active_games",
    "CARDLEDGER_WEBHOOK_TIMEOUT": "webhook_timeout",
    "CARDLEDGER_WEBHOOK_RETRY_FIRST": "webhook_retry_first",
    "CARDLEDGER_WEBHOOK_RETRY_MOST": "webhook_retry_most",
    "CARDLEDGER_WEBHOOK_GIVE_UP": "webhook_give_up",
}


LIMITS = {
    "CARDLEDGER_LIMIT_PER_ADDRESS": "per_address",
    "CARDLEDGER_LIMIT_PER_TOKEN": "per_token",
    "CARDLEDGER_LIMIT_REGISTRATIONS": "registrations",
    "CARDLEDGER_LIMIT_STREAMS_PER_ADDRESS": "streams_per_address",
    "CARDLEDGER_LIMIT_STREAMS_PER_TOKEN": "streams_per_token",
    "CARDLEDGER_REQUEST_SECONDS": "request_seconds",
}


def _redis_url(url: str | None) -> str | None:
    if url is not None and urlparse(url).scheme not in ("redis", "rediss"):
        raise ValueError("CARDLEDGER_LIMITS_URL must be a redis:// or rediss:// URL")
    return url


def _limits(env: Mapping[str, str]) -> Limits:
    """CARDLEDGER_LIMITS=off turns every rate and stream limit off (load tests, a trusted
    network); each can also be set on its own."""
    switch = (env.get("CARDLEDGER_LIMITS") or "on").lower()
    if switch not in ("on", "off"):
        raise ValueError(f"CARDLEDGER_LIMITS is on or off, not {switch!r}")
    base = NO_LIMITS if switch == "off" else Limits()
    return msgspec.structs.replace(base, **_numbers(env, LIMITS, least=0))


def _numbers(env: Mapping[str, str], names: dict[str, str], *, least: int) -> dict[str, int]:
    """The numeric settings that are set, each a whole number of at least ``least``."""
    found = {}
    for name, field in names.items():
        text = env.get(name)
        if text:
            if not (text.isascii() and text.isdigit() and int(text) >= least):
                raise ValueError(f"{name} must be a whole number of at least {least}, not {text!r}")
            found[field] = int(text)
    return found


# What each variable means, for `cardledger settings`. Which variables there are is whatever
# from_env asks for (see variables()); a test holds this table to that list.
MEANINGS = {
    "CARDLEDGER_DATABASE_URL": "the event store in PostgreSQL: postgresql://user:password@host:port"
    "/database (?schema=NAME for a schema of its own); unset: SQLite under CARDLEDGER_DATA_DIR",
    "CARDLEDGER_READ_URL": "a PostgreSQL standby (postgresql:// URL, several hosts: a standby"
    " among them preferred) that replays, audits, exports, event pages and the lobby read from;"
    " a client never gets an older state than one it holds (else the primary answers);"
    " unset: every read goes to CARDLEDGER_DATABASE_URL",
    "CARDLEDGER_DATA_DIR": "the folder of the SQLite store, relative to the working directory",
    "CARDLEDGER_ADMIN_TOKEN": "the operator's bearer token: cancel any game, see everything;"
    " unset: no operator",
    "CARDLEDGER_PROJECTOR": "inline: the API processes keep the read models (one at a time);"
    " external: leave them to `cardledger project`",
    "CARDLEDGER_SQLITE_SYNCHRONOUS": "FULL fsyncs every commit; NORMAL may lose the last commits"
    " on power loss, never corrupts",
    "CARDLEDGER_TRUSTED_PROXIES": "addresses of the proxies whose X-Forwarded-For gives the"
    " client's address, comma-separated (*: any)",
    "CARDLEDGER_CORS_ORIGINS": "origins whose pages may call the API, comma-separated (*: any);"
    " unset: the API's own origin only",
    "CARDLEDGER_LIMITS": "off turns every per-client limit below off at once (a load test from"
    " one address)",
    "CARDLEDGER_LIMIT_PER_ADDRESS": "requests a minute from one client address (0: no limit)",
    "CARDLEDGER_LIMIT_PER_TOKEN": "requests a minute with one bearer token (0: no limit)",
    "CARDLEDGER_LIMIT_REGISTRATIONS": "POST /players a minute from one client address"
    " (0: no limit)",
    "CARDLEDGER_LIMIT_STREAMS_PER_ADDRESS": "live streams open at once from one client address"
    " (0: no limit)",
    "CARDLEDGER_LIMIT_STREAMS_PER_TOKEN": "live streams open at once with one token or ticket"
    " (0: no limit)",
    "CARDLEDGER_LIMITS_URL": "a Redis (redis://host:port/db) where every process and node counts"
    " the limits above together; unset: each process counts alone (N workers grant N times)",
    "CARDLEDGER_REQUEST_SECONDS": "seconds a client has for a request's headers and body, or for"
    " its first byte (0: no limit)",
    "CARDLEDGER_THREADS": "threads for blocking store calls in each process; the PostgreSQL pool"
    " is sized from it",
    "CARDLEDGER_CACHED_GAMES": "games each process keeps in memory to decide commands on",
    "CARDLEDGER_STORE_TIMEOUT": "seconds a request waits for a connection or a lock before it is"
    " answered 503 store_unavailable",
    "CARDLEDGER_WORKER_TIMEOUT": "seconds a worker of serve --workers N has to come up (and to"
    " answer the supervisor's health check) before it is replaced; raise it on a starved host",
    "CARDLEDGER_QUEUE_CAPACITY": "players who may wait in one variant's matchmaking queue at once"
    " (a join past it is answered 409 queue_full)",
    "CARDLEDGER_MAX_ACTIVE_GAMES": "games not over a player may sit at and still join a"
    " matchmaking queue or be seated by a rematch (409 too_many_games past it)",
    "CARDLEDGER_METRICS_TOKEN": "when set, GET /metrics needs Authorization: Bearer <this token>"
    " (401 otherwise); unset: /metrics is open to whoever reaches the port",
    "CARDLEDGER_LOG_KEY": "the witnessed log's Ed25519 signing key, a PEM file (PKCS #8); unset:"
    " log-key.pem in CARDLEDGER_DATA_DIR; made there on first start if absent. Every process"
    " of a deployment needs the same file",
    "CARDLEDGER_LOG_ORIGIN": "the witnessed log's origin: the first line of its checkpoints and"
    " its key's name",
    "CARDLEDGER_WITNESSES": "the witnesses every new checkpoint is sent to, comma-separated, each"
    " '<verifier key> <base URL>' (the key as `cardledger witness` prints it); their"
    " cosignatures are served on GET /log/checkpoint. Unset: no witness",
    "CARDLEDGER_WEBHOOK_ALLOW": "the origins players' webhooks may call, comma-separated"
    " scheme://host[:port], matched exactly (checked at registration and at every delivery);"
    " unset: no webhook may be registered or delivered",
    "CARDLEDGER_WEBHOOK_TIMEOUT": "seconds a webhook delivery attempt may take in all before"
    " it counts as failed (however slowly the receiver answers)",
    "CARDLEDGER_WEBHOOK_RETRY_FIRST": "the ceiling, in seconds, of the wait before a failed"
    " webhook delivery is tried again (a random part of it: full jitter); doubled after each"
    " failure in a row",
    "CARDLEDGER_WEBHOOK_RETRY_MOST": "seconds between webhook retries at most (the backoff's cap)",
    "CARDLEDGER_WEBHOOK_GIVE_UP": "seconds of failed deliveries in a row after which a webhook"
    " is paused (failing) until its player resumes or replaces it",
}


class Variable(NamedTuple):
    name: str
    default: str  # as it would be written in the environment; "unset" if there is none
    meaning: str


def variable_names() -> list[str]:
    """Every environment variable from_env reads, in the order it reads them: found by asking
    it, so a setting added there is listed without being named anywhere else."""
    asked = _Asked()
    Settings.from_env(asked)
    return asked.names


def variables() -> list[Variable]:
    """Every variable from_env reads, with the value it takes when unset and what it means."""
    unset = Settings.from_env({})
    return [Variable(n, _default(unset, n), MEANINGS.get(n, "")) for n in variable_names()]


class _Asked(Mapping[str, str]):
    """An empty environment that notes every name looked up in it."""

    def __init__(self) -> None:
        self.names: list[str] = []

    def __getitem__(self, name: str) -> str:
        if name not in self.names:
            self.names.append(name)
        raise KeyError(name)

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0


def _default(unset: Settings, name: str) -> str:
    """The field a variable sets is named after it (CARDLEDGER_DATA_DIR: data_dir) unless the
    NUMBERS or LIMITS tables say otherwise; its value in ``unset`` is the default."""
    if name == "CARDLEDGER_LIMITS":
        return "on"  # the switch: it sets the whole Limits struct
    if name in LIMITS:
        value = getattr(unset.limits, LIMITS[name])
    else:
        value = getattr(unset, NUMBERS.get(name) or name.removeprefix("CARDLEDGER_").lower())
    return "unset" if value in (None, "") else str(value)
