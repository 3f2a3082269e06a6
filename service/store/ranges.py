"""The conditions of our two recorders' reads (one aggregate's events, the log's notifications),
written once for both: only the driver's placeholder and the id column differ."""

from __future__ import annotations

import functools
from typing import Any


def version_range(
    mark: str, *, gt: int | None, lte: int | None, desc: bool, limit: int | None
) -> tuple[str, list[Any]]:
    """Conditions, order and limit after ``WHERE originator_id = <mark>``, with their
    parameters; ``mark`` is the driver's placeholder (``%s`` or ``?``)."""
    text, params = "", []
    for clause, value in (("originator_version > ", gt), ("originator_version <= ", lte)):
        if value is not None:
            text += f" AND {clause}{mark}"
            params.append(value)
    text += " ORDER BY originator_version" + (" DESC" if desc else "")
    if limit is not None:
        text += f" LIMIT {mark}"
        params.append(limit)
    return text, params


@functools.cache  # a few sets: a reader's each
def topics_in(topics: tuple[str, ...]) -> str:
    """``topic IN (...)`` with the topics written into the statement: sent as parameters, a
    game reader's ~90 topics were bound on every read of the log (on PostgreSQL, dumped into an
    array: a fifth of the log follower's CPU a command). Topics are our own class names; quoting
    doubles a quote all the same, and a ``%`` (which psycopg would read as a placeholder) is
    refused."""
    if any("%" in topic for topic in topics):
        raise ValueError(f"a topic with % cannot be written into a statement: {topics}")
    quoted = ", ".join("'" + topic.replace("'", "''") + "'" for topic in topics)
    return f"topic IN ({quoted})"


def notification_range(
    mark: str,
    column: str,
    *,
    start: int | None,
    stop: int | None,
    inclusive_of_start: bool,
    topics: tuple[str, ...],
    limit: int,
) -> tuple[list[str], str, list[Any]]:
    """A read of the log: its conditions (to join with AND), its order and limit, and their
    parameters in that order; ``column`` is the notification id's."""
    conditions: list[str] = []
    params: list[Any] = []
    if start is not None:
        conditions.append(f"{column} {'>=' if inclusive_of_start else '>'} {mark}")
        params.append(start)
    if stop is not None:
        conditions.append(f"{column} <= {mark}")
        params.append(stop)
    if topics:
        conditions.append(topics_in(topics))
    params.append(limit)
    return conditions, f" ORDER BY {column} LIMIT {mark}", params
