"""What each module of read-model tables shares: SQL with the store's table names filled in,
connections to read on, and dropping (a fresh schema) or clearing (a rebuild) its own tables."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from service.store.event_store import Store


class TableGroup:
    TABLES: ClassVar[tuple[str, ...]]  # the group's tables, by the names its SQL uses

    def __init__(self, sql: Callable[[str], str], store: Store) -> None:
        self._sql = sql
        self._store = store

    def drop(self, cursor: Any) -> None:
        for table in self.TABLES:
            cursor.execute(self._sql(f"DROP TABLE IF EXISTS {{{table}}}"))

    def clear(self, cursor: Any) -> None:
        for table in self.TABLES:
            cursor.execute(self._sql(f"DELETE FROM {{{table}}}"))
