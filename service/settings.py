"""Settings from the environment (CARDLEDGER_*)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlparse

import msgspec


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    database_url: str | None = None
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

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ
        settings = cls(
            database_url=env.get("CARDLEDGER_DATABASE_URL") or None,
            data_dir=Path(env.get("CARDLEDGER_DATA_DIR") or "var"),
            admin_token=env.get("CARDLEDGER_ADMIN_TOKEN") or None,
            projector=env.get("CARDLEDGER_PROJECTOR") or "inline",
            sqlite_synchronous=(env.get("CARDLEDGER_SQLITE_SYNCHRONOUS") or "FULL").upper(),
        )
        return msgspec.structs.replace(settings, **_numbers(env))

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
        url = urlparse(self.database_url)
        if url.scheme not in ("postgresql", "postgres"):
            raise ValueError("CARDLEDGER_DATABASE_URL must be a postgresql:// URL")
        schema = parse_qs(url.query).get("schema", [""])[0]
        return {
            "PERSISTENCE_MODULE": "eventsourcing.postgres",
            "POSTGRES_SCHEMA": schema,
            "POSTGRES_DBNAME": url.path.lstrip("/") or "postgres",
            "POSTGRES_HOST": url.hostname or "127.0.0.1",
            "POSTGRES_PORT": str(url.port or 5432),
            "POSTGRES_USER": unquote(url.username or "postgres"),
            "POSTGRES_PASSWORD": unquote(url.password or ""),
            "POSTGRES_POOL_SIZE": str(self.threads // 2),
            "POSTGRES_MAX_OVERFLOW": str(self.threads // 2 + 4),  # + notifier, listener, leader
            "POSTGRES_CONNECT_TIMEOUT": str(self.store_timeout),
        }


NUMBERS = {
    "CARDLEDGER_THREADS": "threads",
    "CARDLEDGER_CACHED_GAMES": "cached_games",
    "CARDLEDGER_STORE_TIMEOUT": "store_timeout",
}


def _numbers(env: Mapping[str, str]) -> dict[str, int]:
    """The numeric settings that are set, each a positive whole number."""
    found = {}
    for name, field in NUMBERS.items():
        text = env.get(name)
        if text:
            if not (text.isascii() and text.isdigit() and int(text) > 0):
                raise ValueError(f"{name} must be a positive whole number, not {text!r}")
            found[field] = int(text)
    return found
