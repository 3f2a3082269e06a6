"""The players' messages (projections.player_messages): one row per message, keyed by player,
log position and kind, so writing one twice changes nothing.

A player's messages are read in id order, (position, kind), strictly after an id: that is
how a stream resumes with no gap and no repeat. The rows of one batch commit with the
position they reflect, and batches commit in log order, so a reader that has seen a row at
some position has seen every row before it (``since`` relies on this).
"""

from __future__ import annotations

from typing import Any

import msgspec

from projections.player_messages import Addressed, PlayerMessage
from service.read_models.table_group import TableGroup


class MessageTables(TableGroup):
    TABLES = ("messages",)

    def create(self, cursor: Any, *, fresh: bool) -> None:
        if fresh:
            self.drop(cursor)
        cursor.execute(
            self._sql(
                "CREATE TABLE IF NOT EXISTS {messages} ("
                "player_id TEXT NOT NULL, position BIGINT NOT NULL, kind TEXT NOT NULL,"
                " body TEXT NOT NULL, PRIMARY KEY (player_id, position, kind))"
            )
        )
        cursor.execute(
            self._sql(  # not qualified: an index lives in its table's schema
                "CREATE INDEX IF NOT EXISTS readmodel_messages_by_position ON {messages} (position)"
            )
        )

    def record(self, cursor: Any, messages: list[tuple[int, Addressed]]) -> None:
        """(position, (player id, message)) pairs."""
        cursor.executemany(
            self._sql(
                "INSERT INTO {messages} (player_id, position, kind, body)"
                " VALUES ({p}, {p}, {p}, {p}) ON CONFLICT DO NOTHING"
            ),
            [
                (player, position, message.kind, msgspec.json.encode(message).decode())
                for position, (player, message) in messages
            ],
        )

    def of(self, player_id: str, after: tuple[int, str], limit: int) -> list[PlayerMessage]:
        """A player's messages strictly after (position, kind), oldest first."""
        position, kind = after
        query = (
            "SELECT body FROM {messages} WHERE player_id = {p}"
            " AND (position > {p} OR (position = {p} AND kind > {p}))"
            f" ORDER BY position, kind LIMIT {int(limit)}"
        )
        rows = self._store.rows(self._sql(query), (player_id, position, position, kind))
        return [msgspec.json.decode(row["body"], type=PlayerMessage) for row in rows]

    def latest(self, player_id: str) -> tuple[int, str] | None:
        """The id (position, kind) of a player's newest message, if any."""
        query = (
            "SELECT position, kind FROM {messages} WHERE player_id = {p}"
            " ORDER BY position DESC, kind DESC LIMIT 1"
        )
        row = self._store.row(self._sql(query), (player_id,))
        return None if row is None else (int(row["position"]), row["kind"])

    def since(self, position: int, limit: int) -> list[tuple[int, str]]:
        """(position, player id) of every message past ``position``, by position: who has news."""
        query = (
            "SELECT position, player_id FROM {messages} WHERE position > {p}"
            f" ORDER BY position LIMIT {int(limit)}"
        )
        rows = self._store.rows(self._sql(query), (position,))
        return [(int(row["position"]), row["player_id"]) for row in rows]

    def newest_position(self) -> int:
        row = self._store.row(self._sql("SELECT MAX(position) AS newest FROM {messages}"))
        return int(row["newest"] or 0)
