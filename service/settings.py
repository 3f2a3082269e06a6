"""Settings from the environment (CARDLEDGER_*)."""

from __future__ import annotations

import os
import uuid
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlparse

import msgspec


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    database_url: str | None = None
    data_dir: Path = Path("var")
    admin_token: str | None = None
    max_body_bytes: int = 16 * 1024
    sqlite_file: str = "cardledger.sqlite3"
    cached_games: int = 1000  # games kept in memory, fast-forwarded from the store on each read
    threads: int = 32  # worker threads for blocking store calls; sized with the connection pool
    projector: str = "inline"  # "inline": read models follow the log in the API process
    in_memory: bool = False  # a private in-memory SQLite store (tools that never persist)

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ
        return cls(
            database_url=env.get("CARDLEDGER_DATABASE_URL") or None,
            data_dir=Path(env.get("CARDLEDGER_DATA_DIR") or "var"),
            admin_token=env.get("CARDLEDGER_ADMIN_TOKEN") or None,
            projector=env.get("CARDLEDGER_PROJECTOR") or "inline",
        )

    def store_env(self) -> dict[str, str]:
        """The eventsourcing library's configuration for the chosen store."""
        return {"AGGREGATE_CACHE_MAXSIZE": str(self.cached_games), **self._persistence_env()}

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
                "SQLITE_LOCK_TIMEOUT": "10",
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
            "POSTGRES_MAX_OVERFLOW": str(self.threads // 2),
        }
