"""The tail of a read of one aggregate's events, shared by our two recorders."""

from __future__ import annotations

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
